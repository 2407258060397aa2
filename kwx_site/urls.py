"""Root URLs: pages, the versioned API, the OpenAPI schema and the language switch."""
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from analysis.urls import api_urlpatterns as analysis_api

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include((analysis_api, "analysis"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]

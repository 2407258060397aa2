"""Root URLs: pages, the versioned API, the OpenAPI schema, the language switch and the 500 page."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.urls import urlpatterns as accounts_pages
from analysis.urls import api_urlpatterns as analysis_api
from analysis.urls import page_urlpatterns as analysis_pages
from learn.urls import urlpatterns as learn_pages
from play.urls import urlpatterns as play_pages
from puzzles.api_urls import urlpatterns as puzzles_api
from puzzles.urls import urlpatterns as puzzles_pages
from settlement.urls import api_urlpatterns as settlement_api
from settlement.urls import page_urlpatterns as settlement_pages

from .views import healthz

urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include(analysis_api + settlement_api + puzzles_api)),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("", include(analysis_pages + learn_pages + settlement_pages + puzzles_pages + accounts_pages + play_pages)),
]

# Django's own 404, 403 and 400 views render templates/404.html, 403.html and 400.html (the site's layout);
# the 500 page has its own view because it must render without the database.
handler500 = "kwx_site.views.server_error"

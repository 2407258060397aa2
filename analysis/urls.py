from django.urls import path

from . import api

app_name = "analysis"

api_urlpatterns = [
    path("analyze/", api.AnalyzeView.as_view(), name="api-analyze"),
]

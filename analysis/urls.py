"""URLs of the analysis app: its API endpoints and its pages."""
from django.urls import path

from . import api
from .views import analyzer, learn, settlement

api_urlpatterns = [
    path("analyze/", api.AnalyzeView.as_view(), name="api-analyze"),
]

page_urlpatterns = analyzer.urlpatterns + learn.urlpatterns + settlement.urlpatterns

"""URLs of the analysis app: its API endpoints and the analyzer page."""

from django.urls import path

from . import api, api_advice, api_hands
from .views import analyzer

api_urlpatterns = [
    path("analyze/", api.AnalyzeView.as_view(), name="api-analyze"),
    path("hands/replay/", api_hands.ReplayView.as_view(), name="api-hands-replay"),
    path("advice/", api_advice.AdviceView.as_view(), name="api-advice"),
]

page_urlpatterns = analyzer.urlpatterns

"""URLs of the analysis app: its API endpoints and its pages."""
from django.urls import path

from . import api, api_advice, api_hands, api_settle
from .views import analyzer, learn, settlement

api_urlpatterns = [
    path("analyze/", api.AnalyzeView.as_view(), name="api-analyze"),
    path("settle/", api_settle.SettleView.as_view(), name="api-settle"),
    path("hands/replay/", api_hands.ReplayView.as_view(), name="api-hands-replay"),
    path("advice/", api_advice.AdviceView.as_view(), name="api-advice"),
]

page_urlpatterns = analyzer.urlpatterns + learn.urlpatterns + settlement.urlpatterns

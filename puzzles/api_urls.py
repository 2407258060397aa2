"""API of the drills: /api/v1/puzzles/…, /api/v1/progress/."""

from django.urls import path

from . import api

urlpatterns = [
    path("puzzles/next/", api.NextPuzzleView.as_view(), name="api-puzzles-next"),
    path("puzzles/<int:pk>/answer/", api.AnswerView.as_view(), name="api-puzzles-answer"),
    path("puzzles/<str:pk>/answer/", api.BadPuzzleIdView.as_view()),
    path("progress/", api.ProgressView.as_view(), name="api-progress"),
]

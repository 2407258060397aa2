"""API of the drills: /api/v1/puzzles/…, /api/v1/progress/."""
from django.urls import path  # noqa: F401

urlpatterns: list = []

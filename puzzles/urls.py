"""Pages of the drills: drill, progress, accounts."""
from django.urls import path  # noqa: F401

urlpatterns: list = []

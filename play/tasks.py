"""Play's background tasks (Django's tasks API, run by ``manage.py db_worker``): the review of a finished hand."""

from __future__ import annotations

from django.conf import settings
from django_tasks import task

from . import services


@task()
def review_hand(hand_id: int) -> str:
    """Judge every decision of a finished hand by paired rollouts of REVIEW_POLICY and store the review (idempotent: may run twice)."""
    return services.work_review(hand_id=hand_id, policy=settings.REVIEW_POLICY, work_per_choice=settings.REVIEW_WORK, jobs=settings.REVIEW_JOBS)

"""Play's background tasks (Django's tasks API, run by ``manage.py db_worker``): the review of a finished hand."""

from __future__ import annotations

from django.conf import settings
from django_tasks import task

from analysis.ev_limits import flight_path
from kwx.processes import GiveWay

from . import review_work


@task()
def review_hand(hand_id: int) -> str:
    """Judge every decision of a finished hand by paired rollouts of REVIEW_POLICY and store the review (idempotent: may run twice).

    Before every rollout it gives way to the expected-value requests computing on this host (``GiveWay`` on their
    in-flight mark, ``analysis.ev_limits``): a person waits for those, nobody watches a review."""
    return review_work.work_review(
        hand_id=hand_id,
        policy=settings.REVIEW_POLICY,
        work_per_choice=settings.REVIEW_WORK,
        jobs=settings.REVIEW_JOBS,
        give_way=GiveWay(str(flight_path())),
    )

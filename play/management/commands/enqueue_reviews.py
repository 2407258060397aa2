"""``manage.py enqueue_reviews``: queue the review of every finished hand that has none, and again every review whose task was lost.

Run by every server start (``scripts/serve-prod.sh``, ``make setup``). It queues

- the review of every finished hand played here or uploaded that was never asked for (hands from before
  reviews were tasks); never a branch's ("play on from here"): a branch is reviewed only when its player
  asks (docs/play.md; issue 37: every start queued them all);
- the task of every review marked queued whose task is in no queue (``selectors.review_lost``: its enqueue
  failed unseen), which would otherwise stay queued for ever.

Each hand is locked and looked at again before it is queued, so servers starting together queue it once.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from play import selectors
from play.models import Hand
from play.services import REVIEW_FIELDS, enqueue_review, queue_review


class Command(BaseCommand):
    help = (
        "Queue a review task for every finished hand (not a branch) whose review was never asked for, and again for every queued review whose task was lost (idempotent; safe to run on every start)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        queued = requeued = 0
        never = Hand.objects.filter(over=True, review_state=Hand.NOT_ASKED).exclude(source=Hand.BRANCH)
        for pk in never.values_list("pk", flat=True).iterator():
            with transaction.atomic():
                hand = Hand.objects.select_for_update().filter(pk=pk, review_state=Hand.NOT_ASKED).first()
                if hand is None:  # another start queued it first
                    continue
                queue_review(hand)
                hand.save(update_fields=REVIEW_FIELDS)
                queued += 1
        for pk in Hand.objects.filter(review_state=Hand.QUEUED).values_list("pk", flat=True).iterator():
            with transaction.atomic():
                hand = Hand.objects.select_for_update().filter(pk=pk, review_state=Hand.QUEUED).first()
                if hand is None or not selectors.review_lost(hand):
                    continue
                Hand.objects.filter(pk=pk).update(review_beat=timezone.now())  # another start now sees it fresh
                transaction.on_commit(lambda pk=pk: enqueue_review(pk), robust=True)
                requeued += 1
        if options["verbosity"]:
            self.stdout.write(f"{queued} review(s) queued, {requeued} lost one(s) queued again")

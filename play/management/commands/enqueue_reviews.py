"""``manage.py enqueue_reviews``: queue the review of every finished hand that has none (hands from before reviews were tasks, or whose enqueue was lost)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from play.models import Hand
from play.services import queue_review


class Command(BaseCommand):
    help = "Queue a review task for every finished hand whose review was never asked for (idempotent; safe to run on every start)."

    def handle(self, *args: Any, **options: Any) -> None:
        queued = 0
        for pk in Hand.objects.filter(over=True, review_state=Hand.NOT_ASKED).values_list("pk", flat=True).iterator():
            with transaction.atomic():
                hand = Hand.objects.select_for_update().filter(pk=pk, review_state=Hand.NOT_ASKED).first()
                if hand is None:  # another start queued it first
                    continue
                queue_review(hand)
                hand.save(update_fields=["review", "review_state", "review_done", "review_total"])
                queued += 1
        if options["verbosity"]:
            self.stdout.write(f"{queued} review(s) queued")

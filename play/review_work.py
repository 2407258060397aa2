"""The review task's work (``play.tasks.review_hand``): judge every decision of a finished hand and store the review with its review items.

Apart from ``play.services`` (which queues the task): the task calls this module, the services import the task.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from kwx import hand_review
from puzzles.review import review as fsrs_review

from .models import Hand, ReviewItem


def work_review(*, hand_id: int, policy: str, work_per_choice: int, decisions: int | None = None, jobs: int = 1, give_way: Callable[[], object] | None = None) -> str:
    """The review task's work: judge every decision of the hand's seat, storing each as it is done, then the whole review.

    Idempotent: the same record gives the same figures (seeds from the record, a work budget),
    a review already done is left as it is, and a run that finds the decisions an earlier run
    (killed mid-task) stored with the same method goes on from there. ``decisions`` stops this
    run after that many more (the review stays running; the next run goes on); ``jobs``
    processes work decisions out at once (the same figures); ``give_way`` is called before every
    rollout (``kwx.processes.GiveWay``: a person's request on the host goes first). An error marks
    the review failed and is raised again (the task fails).
    """
    method = hand_review.Method(policy, work_per_choice)
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None or not hand.reviewable:
        return "no such hand to review"
    if hand.review_state == Hand.DONE:
        return "reviewed already"
    try:
        return _work_review(hand, method, decisions, jobs, give_way)
    except Exception:
        Hand.objects.filter(pk=hand_id).exclude(review_state=Hand.DONE).update(review_state=Hand.FAILED)
        raise


def _work_review(hand: Hand, method: hand_review.Method, limit: int | None, jobs: int, give_way: Callable[[], object] | None) -> str:
    reviewed = hand_review.Reviewed.from_json(hand.record)
    points = hand_review.decision_points(reviewed.record, hand.seat)
    stored = hand.review or {}
    decisions: list[dict[str, Any]] = list(stored.get("decisions", [])) if stored.get("method") == method.as_dict() else []
    steps = {d["step"] for d in decisions}
    mark = lambda **fields: Hand.objects.filter(pk=hand.pk).update(review={"method": method.as_dict(), "decisions": decisions}, review_beat=timezone.now(), **fields)
    beat = lambda: Hand.objects.filter(pk=hand.pk, review_state=Hand.RUNNING).update(review_beat=timezone.now())
    mark(review_state=Hand.RUNNING, review_total=len(points), review_done=len(decisions))
    todo = [p for p in points if p.step not in steps][:limit]
    for figures in hand_review.review_points(reviewed, hand.seat, todo, method, jobs, give_way, beat):
        decisions.append(figures)
        mark(review_done=len(decisions))
    if len(decisions) < len(points):
        return f"{len(decisions)} of {len(points)} decisions reviewed"
    store_review(hand=hand, figures=hand_review.summary(hand.seat, decisions, method))
    return f"{len(decisions)} decisions reviewed"


def store_review(*, hand: Hand, figures: dict[str, Any], now: datetime | None = None) -> None:
    """Store a finished hand's review and put its clearly costly decisions in the player's review queue (storing twice changes nothing)."""
    now = now or datetime.now(UTC)
    count = len(figures["decisions"])
    with transaction.atomic():
        Hand.objects.filter(pk=hand.pk).update(review=figures, review_state=Hand.DONE, review_done=count, review_total=count)
        hand.review, hand.review_state, hand.review_done, hand.review_total = figures, Hand.DONE, count, count
        player_id = Hand.objects.filter(pk=hand.pk).values_list("player_id", flat=True).first()
        for decision in figures["decisions"]:
            if not decision.get("costly") or ReviewItem.objects.filter(hand=hand, step=decision["step"]).exists():
                continue
            card, due = fsrs_review(None, False, now)
            ReviewItem.objects.get_or_create(hand=hand, step=decision["step"], defaults={"player_id": player_id, "cost": decision["cost"], "card": card, "due": due})

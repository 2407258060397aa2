"""Review scheduling with FSRS (the ``fsrs`` package): missed puzzles come back when due.

A card is stored as ``fsrs.Card.to_dict()``. A miss creates the card (or rates it
``Again``); a right answer to a puzzle that has a card rates it ``Good`` and
pushes it further out. Pure functions: the caller passes the time.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fsrs import Card, Rating

from kwx_site.scheduler import SCHEDULER


def review(card: dict[str, Any] | None, correct: bool, now: datetime) -> tuple[dict[str, Any], datetime]:
    """The card after an answer at ``now`` (UTC) and when it is next due; a new card when ``card`` is None."""
    current = Card.from_dict(card) if card else Card(card_id=int(now.timestamp() * 1000), due=now)
    updated, _log = SCHEDULER.review_card(current, Rating.Good if correct else Rating.Again, now)
    return updated.to_dict(), updated.due

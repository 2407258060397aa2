"""The 口诀 memorise mode: which couplet comes next (selectors) and grading it (services).

Logged-in players get one ``VerseCard`` per couplet, scheduled by the ``fsrs`` package;
anonymous visitors walk through the couplets in order and nothing is stored.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import transaction
from fsrs import Card, Rating, Scheduler, State

from .learn_content import Couplet, couplet, couplets
from .models.learn import VerseCard

SCHEDULER = Scheduler(enable_fuzzing=False)
"""One scheduler for everyone: the package's default parameters, no random fuzz (repeatable)."""
RATINGS: dict[str, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}


@dataclass(frozen=True, slots=True)
class Prompt:
    """The couplet to recall next, with its card (None: new or anonymous) and the deck's state."""

    couplet: Couplet
    card: VerseCard | None
    overdue: bool
    due_now: int
    learned: int

    @property
    def reviews(self) -> int:
        """How many grades the card has had (the form sends it back to refuse a repeat)."""
        return self.card.reviews if self.card else 0


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def to_fsrs(card: VerseCard) -> Card:
    """The stored card as an ``fsrs.Card``."""
    return Card(
        card_id=card.couplet, state=State(card.state), step=card.step, stability=card.stability,
        difficulty=card.difficulty, due=_utc(card.due), last_review=_utc(card.last_review) if card.last_review else None,
    )


def next_prompt(user, now: datetime) -> Prompt:
    """The most overdue couplet of a player; else the first not yet learned; else the one due soonest."""
    cards = {c.couplet: c for c in VerseCard.objects.filter(user=user)}
    all_couplets = couplets()
    due = sorted((c for c in cards.values() if c.due <= now), key=lambda c: (c.due, c.couplet))
    counts = {"due_now": len(due), "learned": len(cards)}
    if due:
        return Prompt(all_couplets[due[0].couplet - 1], due[0], True, **counts)
    fresh = next((c for c in all_couplets if c.number not in cards), None)
    if fresh is not None:
        return Prompt(fresh, None, False, **counts)
    soonest = min(cards.values(), key=lambda c: (c.due, c.couplet))
    return Prompt(all_couplets[soonest.couplet - 1], soonest, False, **counts)


def prompt_for(user, number: int, now: datetime) -> Prompt | None:
    """A given couplet as a prompt (its card if the player has one); None if there is no such couplet."""
    chosen = couplet(number)
    if chosen is None:
        return None
    if user is None or not user.is_authenticated:
        return Prompt(chosen, None, False, 0, 0)
    card = VerseCard.objects.filter(user=user, couplet=number).first()
    return Prompt(
        chosen, card, bool(card and card.due <= now),
        VerseCard.objects.filter(user=user, due__lte=now).count(), VerseCard.objects.filter(user=user).count(),
    )


def next_anonymous(after: int) -> Couplet:
    """For a visitor without an account: the couplet after ``after`` (back to the first after the last)."""
    all_couplets = couplets()
    return all_couplets[after % len(all_couplets)]


@transaction.atomic
def grade(user, number: int, rating: Rating, reviews_seen: int, now: datetime) -> tuple[VerseCard, bool]:
    """Record a player's grade of a couplet; a grade for a card already graded since it was shown counts once.

    Returns the card and whether this grade was applied.
    """
    if couplet(number) is None:
        raise ValueError(f"no couplet {number}")
    card, _ = VerseCard.objects.select_for_update().get_or_create(user=user, couplet=number, defaults={"due": now})
    if card.reviews != reviews_seen:
        return card, False
    reviewed, _log = SCHEDULER.review_card(to_fsrs(card), rating, review_datetime=_utc(now))
    card.state = reviewed.state.value
    card.step = reviewed.step
    card.stability = reviewed.stability
    card.difficulty = reviewed.difficulty
    card.due = reviewed.due
    card.last_review = reviewed.last_review
    card.reviews += 1
    card.save()
    return card, True

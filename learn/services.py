"""The 口诀 memorise mode's one change: a player grades a couplet (``learn.selectors`` says which comes next).

Every player (an account, or a visitor's session: ``accounts.Player``) gets one ``VerseCard`` per
couplet, scheduled by the ``fsrs`` package; a visitor's cards follow them into their account
(``merge_cards``, the memorise part of ``accounts.services.merge_players``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import transaction
from fsrs import Card, Rating, State

from accounts.models import Player
from kwx_site.scheduler import SCHEDULER

from .content import couplet
from .models import VerseCard

RATINGS: dict[str, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy}


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def to_fsrs(card: VerseCard) -> Card:
    """The stored card as an ``fsrs.Card``."""
    return Card(
        card_id=card.couplet,
        state=State(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_utc(card.due),
        last_review=_utc(card.last_review) if card.last_review else None,
    )


@transaction.atomic
def grade(*, player: Player, number: int, rating: Rating, reviews_seen: int, now: datetime) -> tuple[VerseCard, bool]:
    """Record a player's grade of a couplet; a grade for a card already graded since it was shown counts once.

    Returns the card and whether this grade was applied.
    """
    if couplet(number) is None:
        raise ValueError(f"no couplet {number}")
    card, _ = VerseCard.objects.select_for_update().get_or_create(player=player, couplet=number, defaults={"due": now})
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


def merge_cards(*, source: Player, target: Player) -> None:
    """Move a visitor's memorise cards to an account's player (a ``player_merging`` receiver): for a couplet
    both have, the card graded more often stays (the later reviewed on a tie), the other is dropped."""
    theirs = {c.couplet: c for c in VerseCard.objects.filter(player=source)}
    for mine in VerseCard.objects.filter(player=target, couplet__in=list(theirs)):
        other = theirs[mine.couplet]
        if (other.reviews, other.last_review or other.due) > (mine.reviews, mine.last_review or mine.due):
            mine.delete()
        else:
            other.delete()
    VerseCard.objects.filter(player=source).update(player=target)

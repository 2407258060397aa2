"""The 口诀 memorise mode's reads: which couplet a player recalls next, and a given couplet as a prompt."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from accounts.models import Player

from .content import Couplet, couplet, couplets
from .models import VerseCard


@dataclass(frozen=True, slots=True)
class Prompt:
    """The couplet to recall next, with its card (None: not graded yet) and the deck's state."""

    couplet: Couplet
    card: VerseCard | None
    overdue: bool
    due_now: int
    learned: int

    @property
    def reviews(self) -> int:
        """How many grades the card has had (the form sends it back to refuse a repeat)."""
        return self.card.reviews if self.card else 0


def next_prompt(player: Player | None, now: datetime) -> Prompt:
    """The most overdue couplet of a player; else the first not yet learned; else the one due soonest (the first for no player yet)."""
    cards = {c.couplet: c for c in VerseCard.objects.filter(player=player)} if player is not None else {}
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


def prompt_for(player: Player | None, number: int, now: datetime) -> Prompt | None:
    """A given couplet as a prompt (its card if the player has one); None if there is no such couplet."""
    chosen = couplet(number)
    if chosen is None:
        return None
    if player is None:
        return Prompt(chosen, None, False, 0, 0)
    card = VerseCard.objects.filter(player=player, couplet=number).first()
    return Prompt(
        chosen,
        card,
        bool(card and card.due <= now),
        VerseCard.objects.filter(player=player, due__lte=now).count(),
        VerseCard.objects.filter(player=player).count(),
    )

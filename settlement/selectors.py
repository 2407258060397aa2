"""Reading score sheets: a player's, and a sheet's hands with payments and running totals."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from accounts.models import Player
from accounts.selectors import player_town
from kwx import EngineError
from kwx.table.settlement import Settlement, next_dealer, parse_input, settle

from .models import ScoreSheet, SheetHand
from .services import full_input


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One hand of a sheet: its dealer, its settlement (None if it no longer settles), nets and totals after it."""

    number: int
    hand: SheetHand
    dealer: int
    settlement: Settlement | None
    error: EngineError | None
    nets: tuple[int, int, int]
    totals: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class SheetTable:
    """A sheet with every hand recomputed from its input, the totals and the next dealer."""

    sheet: ScoreSheet
    rows: tuple[SheetRow, ...]
    totals: tuple[int, int, int]
    next_dealer: int


def default_preset(*, player: Player | None) -> str:
    """The preset a new calculation or score sheet starts under: the player's town (the standard rules for a player who never chose one)."""
    return player_town(player=player).rules


def sheets_for(player: Player | None) -> QuerySet[ScoreSheet]:
    """The player's sheets (none for no player yet), newest first, with their number of hands."""
    mine = ScoreSheet.objects.filter(player=player) if player is not None else ScoreSheet.objects.none()
    return mine.annotate(hand_count=Count("hands"))


def get_sheet(player: Player | None, sheet_id: int) -> ScoreSheet | None:
    """The player's sheet; None for an unknown id and for another player's sheet alike."""
    return sheets_for(player).filter(pk=sheet_id).first()


def get_hand(sheet: ScoreSheet, hand_id: int) -> SheetHand | None:
    """A hand of the sheet (None if the sheet has no such hand)."""
    return sheet.hands.filter(pk=hand_id).first()


def sheet_table(sheet: ScoreSheet) -> SheetTable:
    """Recompute every hand in order: nets, running totals, dealers."""
    rows: list[SheetRow] = []
    totals = (0, 0, 0)
    dealer = sheet.first_dealer
    for number, hand in enumerate(sheet.hands.all(), start=1):
        try:
            result: Settlement | None = settle(parse_input(full_input(sheet, hand.data)))
            error = None
        except EngineError as exc:
            result, error = None, exc
        nets = result.nets if result is not None else (0, 0, 0)
        totals = (totals[0] + nets[0], totals[1] + nets[1], totals[2] + nets[2])
        rows.append(SheetRow(number, hand, dealer, result, error, nets, totals))
        if result is not None:
            dealer = next_dealer(result, dealer)
    return SheetTable(sheet, tuple(rows), totals, dealer)

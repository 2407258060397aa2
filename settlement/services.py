"""Changing score sheets: create a sheet, add, edit and delete hands (each in one transaction)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Max

from accounts.models import Player
from kwx.rules import RuleSet, preset, record_options
from kwx.table.settlement import check_stakes, parse_input, settle

from .models import ScoreSheet, SheetHand


def full_input(sheet: ScoreSheet, data: dict[str, Any]) -> dict[str, Any]:
    """A stored hand plus its sheet's players, base, preset and every option as the sheet stores them: the engine's JSON form."""
    return {**data, "players": list(sheet.players), "base": sheet.base, "rules": sheet.rules, "options": sheet.rule_set.as_dict()}


def check_setup(players: list[str], base: int, rules: str, options: RuleSet | None = None) -> tuple[list[str], int, str, dict[str, Any]]:
    """Check three names, a base and a preset with the engine (raises EngineError); the options a sheet stores for them (the preset's own when none are given)."""
    values = preset(rules).values if options is None else options
    inp = parse_input({"players": players, "base": base, "rules": rules, "options": values.as_dict()})
    check_stakes(inp.base, 0)
    return list(inp.players), inp.base, inp.rules, record_options(inp.rules, values)


def create_sheet(
    *,
    player: Player | Callable[[], Player],
    players: list[str],
    base: int = 1,
    rules: str = "standard",
    options: RuleSet | None = None,
    first_dealer: int = 0,
    title: str = "",
) -> ScoreSheet:
    """Start a game night for ``player`` (its owner; a function that finds or makes it is called only once the setup settles, so a refused one makes no player).

    The sheet stores its preset and every resolved option (``options``: the preset's values with the table's switches; none given: the preset's).
    """
    names, base, rules, stored_options = check_setup(players, base, rules, options)
    return ScoreSheet.objects.create(
        player=player() if callable(player) else player,
        title=title.strip()[:60],
        players=names,
        base=base,
        rules=rules,
        options=stored_options,
        first_dealer=first_dealer if first_dealer in (0, 1, 2) else 0,
    )


@transaction.atomic
def update_sheet(*, sheet: ScoreSheet, players: list[str], base: int, rules: str, first_dealer: int, title: str, options: RuleSet | None = None) -> ScoreSheet:
    """Rename players, change base, rules (``options`` None: the sheet's own when the preset stays, else the new preset's) or first dealer; every stored hand must still settle."""
    if options is None:
        options = sheet.rule_set if rules == sheet.rules else None
    sheet.players, sheet.base, sheet.rules, sheet.options = check_setup(players, base, rules, options)
    sheet.first_dealer = first_dealer if first_dealer in (0, 1, 2) else 0
    sheet.title = title.strip()[:60]
    for hand in sheet.hands.all():
        settle(parse_input(full_input(sheet, hand.data)))
    sheet.save()
    return sheet


@transaction.atomic
def add_hand(*, sheet: ScoreSheet, data: dict[str, Any], token: str = "") -> SheetHand:
    """Append a hand after checking it settles; the same form token adds it only once."""
    settle(parse_input(full_input(sheet, data)))
    locked = ScoreSheet.objects.select_for_update().get(pk=sheet.pk)
    if token:
        existing = locked.hands.filter(token=token).first()
        if existing is not None:
            return existing
    position = (locked.hands.aggregate(m=Max("position"))["m"] or 0) + 1
    hand = SheetHand.objects.create(sheet=locked, position=position, data=data, token=token[:36])
    locked.save(update_fields=["updated"])
    return hand


@transaction.atomic
def edit_hand(*, sheet: ScoreSheet, hand_id: int, data: dict[str, Any]) -> SheetHand:
    """Replace a hand's input after checking it settles (the totals follow)."""
    settle(parse_input(full_input(sheet, data)))
    hand = sheet.hands.select_for_update().get(pk=hand_id)
    hand.data = data
    hand.save(update_fields=["data", "updated"])
    sheet.save(update_fields=["updated"])
    return hand


@transaction.atomic
def delete_hand(*, sheet: ScoreSheet, hand_id: int) -> None:
    """Remove a hand (deleting one already gone is not an error)."""
    sheet.hands.filter(pk=hand_id).delete()
    sheet.save(update_fields=["updated"])


def delete_sheet(*, sheet: ScoreSheet) -> None:
    """Remove a sheet and its hands."""
    sheet.delete()

"""What the analyzer page shows of the table: the input (``table_form.display``), the table view and the estimate.

The view reads the table from the link (``table_form.read_request``) next to its own form and
calls ``table_context`` once; without any table key the page is the plain analyzer.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from analysis.table_advice import estimate
from analysis.table_form import SEAT_NAMES, TableRequest, check_position, display, wall_left
from kwx import EngineError
from kwx.hand.rules import make_rules
from kwx.hand.tiles import NUM_KINDS, TILE_IDS, Counts, Hand

ADVICE_TRIGGER = "advice-load"
"""The id of the placeholder whose htmx request fetches the estimate."""


def _seat(table: Any, number: int, last: bool) -> dict[str, Any]:
    """One opponent as ``partials/seat.html`` shows it."""
    melds, revealed = table.melds[number - 1], table.revealed[number - 1]
    tiles = [TILE_IDS[k] for k in range(NUM_KINDS) for _n in range(revealed[k] if revealed else 0)]
    waits: list[str] = []
    if revealed is not None:
        try:
            waits = [TILE_IDS[k] for k in sorted(Hand(revealed, melds).winning_kinds())]
        except (EngineError, ValueError):
            waits = []
    return {
        "name": _(SEAT_NAMES[number]),
        "liang_dao": revealed is not None,
        "tiles": tiles,
        "waits": waits,
        "hidden": 13 - 3 * len(melds),
        "river": [TILE_IDS[k] for k in table.rivers[number]],
        "last": last,
        "melds": [[TILE_IDS[m.kind]] * m.type.size for m in melds],
    }


def table_context(treq: TableRequest, hand: Hand | None, seen: Counts, rules_key: str, options: dict[str, bool], base: int, piao: int, request: HttpRequest, with_estimate: bool) -> dict[str, Any]:
    """The table's part of the page context: the input, the table view and (asked for with ``advice=1``) the estimate.

    ``seen`` counts every copy already placed (the hand, visible tiles and this table);
    ``with_estimate`` runs the rollouts now (a plain request, or htmx's second request),
    otherwise an asked-for estimate is left pending for that second request.
    """
    table = treq.table
    errors: dict[str, str] = dict(table.errors)
    position = rules = None
    if table.given and hand is not None:
        try:
            rules = make_rules(rules_key, (), options)
        except EngineError:
            pass  # the rules' own message shows by the rules field
        if rules is not None:
            position, errors = check_position(hand, table, rules)
    out = display(treq, hand, seen, errors)
    offered_last = table.offer is not None and table.kind == "discard"
    out |= {
        "table_view": {
            "left": _seat(table, 2, offered_last and table.by == 2),
            "right": _seat(table, 1, offered_last and table.by == 1),
            "wall": table.wall if table.wall is not None else (wall_left(hand, table) if hand is not None else None),
        }
        if table.given
        else None,
        "advice_asked": treq.advice,
        "advice": None,
        "advice_pending": False,
        "advice_refused": "",
        "advice_errors": [],
        "advice_trigger": ADVICE_TRIGGER,
    }
    if not treq.advice:
        return out
    if position is None:
        out["advice_errors"] = list(errors.values()) or [_("Give the table first: at least one river, and the offered tile with a 13-tile hand.")]
    elif with_estimate and rules is not None:
        found = estimate(request, position, rules, base, piao, treq.seed)
        out["advice"] = found.get("advice")
        out["advice_refused"] = found.get("refused", "")
    else:
        out["advice_pending"] = True
    return out

"""What the analyzer page shows of the table: the input (``table_form.display``), the table view and the estimate.

The view reads the table from the link (``table_form.read_request``) next to its own form and
calls ``table_context`` once; without any table key the page is the plain analyzer.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from analysis.ev_limits import LONGER
from analysis.table_advice import estimate
from analysis.table_form import TableRequest, check_position, display
from kwx import EngineError
from kwx.hand.rules import make_rules
from kwx.hand.tiles import Counts, Hand
from kwx_site.table import table_shown

ADVICE_TRIGGER = "advice-load"
"""The id of the placeholder whose htmx request fetches the estimate."""


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
    out |= {
        "table_view": table_shown(position.view(rules), show_dealer=False) if position is not None and rules is not None else None,
        "advice_asked": treq.advice,
        "advice_longer": treq.longer,
        "advice_longer_factor": LONGER,
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
        found = estimate(request, position, rules, base, piao, treq.seed, treq.longer)
        out["advice"] = found.get("advice")
        out["advice_refused"] = found.get("refused", "")
    else:
        out["advice_pending"] = True
    return out

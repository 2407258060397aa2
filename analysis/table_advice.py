"""The analyzer's table-aware estimate: the advice API's answer for the link's position, shaped for the page.

The figures are ``analysis.api_advice.advice_json``'s, with the same work budget and seed, so a
link and its ``POST /api/v1/advice/`` body (``analysis.table_form.api_body``) give the same
numbers whenever the request's CPU budget (``ev_limits.request_budget``: one per request, shared
with the EV figures a plain page computes first, so no request goes above half a second of CPU)
does not run out. The rollouts run inside an expected-value slot
(``analysis.ev_limits``); refused, the page says why and when to retry, and the cheap analysis
still shows.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from analysis.api_advice import WORK_BUDGET, advice_json
from analysis.ev_limits import LONGER, EVRefused, ev_slot, request_budget
from kwx.hand.rules import Rules
from kwx.hand.tiles import TILE_IDS
from kwx.table.advice import CLEAR
from kwx.table.position import Position
from kwx_site.text import tile_label

VERB_ORDER = {"win": 0, "kong": 1, "pong": 2, "discard": 3, "pass": 4}
"""The order of unranked rows: the decision's own, never best first."""


def choice_text(action: dict[str, Any]) -> str:
    """A choice in words: 打五筒, 打五筒并亮倒, 碰, 杠, 胡, 过 (English when the page is English)."""
    verb = action["verb"]
    if verb == "pass":
        return _("Pass (过)")
    name = tile_label(action["tile"])
    if verb == "discard":
        if action.get("liang_dao"):
            return _("Discard %(tile)s and declare 亮倒") % {"tile": name}
        return _("Discard %(tile)s") % {"tile": name}
    if verb == "pong":
        return _("碰 %(tile)s (pong)") % {"tile": name}
    if verb == "kong":
        return _("杠 %(tile)s (kong)") % {"tile": name}
    return _("胡 %(tile)s (win)") % {"tile": name}


def shaped(answer: dict[str, Any]) -> dict[str, Any]:
    """The advice answer with what the page shows: each choice's words, the top row, the rows level with it, deal-in in percent.

    The rows are ranked only on at least ``CLEAR.deals`` worlds (``ranked``); on fewer they keep the
    decision's own order, none is marked, and the page says the call is too close and offers more.
    Ranked, the top row is marked best only when the answer is ``clear``; otherwise it is marked
    unclear, and every row the top does not beat clearly (``CLEAR``) is marked level with it.
    """
    ranked = answer["worlds"] >= CLEAR.deals
    rows = [
        {
            **choice,
            "text": choice_text(choice["action"]),
            "top": ranked and index == 0,
            "best": ranked and index == 0 and answer["clear"],
            "level": ranked and index > 0 and not answer["clear"] and not CLEAR.clear(choice["gap"], choice["gap_se"]),
            "tile": choice["action"].get("tile", ""),
        }
        for index, choice in enumerate(answer["choices"])
    ]
    if not ranked:
        rows.sort(key=lambda r: (VERB_ORDER.get(r["action"]["verb"], 0), TILE_IDS.index(r["tile"]) if r["tile"] else 0, bool(r["action"].get("liang_dao"))))
    deal_in = sorted(
        ({**d, "percent": 100 * d["probability"]} for d in answer["deal_in"]),
        key=lambda d: (d["revealed"], d["probability"], TILE_IDS.index(d["tile"])),
    )
    return {**answer, "rows": rows, "deal_in": deal_in, "ranked": ranked, "clear_deals": CLEAR.deals}


def estimate(request: HttpRequest, position: Position, rules: Rules, base: int, piao: int, seed: int, longer: bool = False) -> dict[str, Any]:
    """``{"advice": …}`` for a checked position, or ``{"refused": message, "retry": seconds}`` when the limits say no.

    ``longer``: ``LONGER`` times the work and CPU, counted as that many EV requests (one bounded step, asked for by the page).
    """
    view = position.view(rules)
    scale = LONGER if longer else 1
    try:
        with ev_slot(request, weight=scale) as run:
            answer = run(advice_json, view, {"seed": seed, "base": base, "piao": (piao, piao, piao)}, request_budget(request, scale), WORK_BUDGET * scale)
    except EVRefused as refused:
        return {"refused": refused.message, "retry": refused.wait}
    return {"advice": shaped(answer)}

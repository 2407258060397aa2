"""The review (复盘) of one hand from one seat: each decision, what was done, what the advice bot does, and the cost.

Pure Python over the engine. A decision is a state where the seat had more than one
choice (its own turn with a discard to pick, a kong or a win on offer; or a claim on
another seat's tile, where 过 is one choice). For each option the advice bot's
``worth_of`` gives what the option is worth in base stakes (offence minus danger, see
docs/bots.md); the **cost** of a decision is the worth of the bot's choice minus the worth
of the seat's choice (never below 0). A decision is **costly** when its cost is at least
``COSTLY`` base stakes and it is among the hand's ``MOST`` dearest; docs/play.md says why.
"""

from __future__ import annotations

from typing import Any

from kwx.bots.strong import StrongBot, danger
from kwx.hand.efficiency import discard_options
from kwx.hand.shapes import shanten
from kwx.hand.tiles import TILE_IDS
from kwx.table.table import Action, Table
from kwx.table.view import SeatView, view_for

from . import seats

COSTLY = 0.5
"""Base stakes: a decision that gives away less than half a base is noise in the bot's estimates."""
MOST = 3
"""At most this many decisions of one hand are marked costly (and become review items)."""


def _key(action: Action | None) -> dict[str, Any]:
    if action is None:
        return {"verb": seats.PASS, "tile": "", "liang_dao": False}
    return {"verb": action.verb, "tile": action.tile, "liang_dao": action.liang_dao}


def _chosen(state: Table, action: Action, seat: int) -> Action | None:
    """What ``seat`` did in ``state`` given the record's next action (a claim not taken is 过)."""
    if state.phase in ("claim", "rob") and (action.seat != seat or action.verb == "draw"):
        return None  # another seat claimed, or everybody passed (the next draw may be this seat's own)
    return action


def _discard_figures(view: SeatView) -> dict[int, dict[str, Any]]:
    """§4 figures of each discard of the seat's 14-tile hand: shanten, effective tiles, value, 包胡 against a revealed hand."""
    _costs, bao = danger(view)
    out = {}
    for option in discard_options(view.hand, view.visible, view.rules):
        r = option.result
        out[option.discard] = {"shanten": r.shanten, "ukeire": r.ukeire, "value": r.value, "deals_in": option.discard in bao}
    return out


def _claim_figures(view: SeatView, action: Action | None) -> dict[str, Any]:
    """Shanten of the hand after a claim (before its discard, for a pong: the best discard's)."""
    hand = view.hand
    if action is None or action.verb == "win":
        return {"shanten": shanten(hand.concealed, len(hand.melds)) if action is None else -1}
    if action.verb == "kong":
        kong = hand.after_kong(action.kind)
        return {"shanten": shanten(kong.concealed, len(kong.melds))}
    after = hand.after_pong(action.kind)
    best = min(shanten(after.with_tile(k, -1).concealed, len(after.melds)) for k in range(len(after.concealed)) if after.concealed[k])
    return {"shanten": best}


def decision(state: Table, seat: int, taken: Action, bot: StrongBot) -> dict[str, Any] | None:
    """One decision's figures (None when the seat had a single forced choice)."""
    view = view_for(state, seat)
    passing = view.decision.may_pass
    choices = view.decision.choices
    if len(choices) < 2:
        return None
    mine = _chosen(state, taken, seat)
    best = bot.act(view) if not passing else bot.claim(view)
    figures = _discard_figures(view) if not passing else {}
    rows = []
    for choice in choices:
        row = {**_key(choice), "worth": round(bot.worth_of(view, choice), 3)}
        if choice is not None and choice.verb == "discard" and choice.kind in figures:
            row.update(figures[choice.kind])
        elif passing:
            row.update(_claim_figures(view, choice))
        row["mine"] = choice == mine
        row["bot"] = choice == best
        rows.append(row)
    rows.sort(key=lambda r: (-r["worth"], r["verb"], r["tile"]))
    worth = {(r["verb"], r["tile"], r["liang_dao"]): r["worth"] for r in rows}
    mine_key, best_key = _key(mine), _key(best)
    cost = worth[(best_key["verb"], best_key["tile"], best_key["liang_dao"])] - worth[(mine_key["verb"], mine_key["tile"], mine_key["liang_dao"])]
    return {
        "phase": state.phase,
        "claim": passing,
        "tile": TILE_IDS[state.tile] if passing and state.tile is not None else "",
        "mine": mine_key,
        "bot": best_key,
        "same": mine == best,
        "cost": round(max(0.0, cost), 3),
        "options": rows,
    }


def review_hand(record: dict[str, Any], seat: int, bot: StrongBot | None = None) -> dict[str, Any]:
    """Every decision of ``seat`` in a record, with costs; the dearest (at least COSTLY) marked costly."""
    bot = bot or StrongBot()
    done = seats.replayed(record)
    states, actions = done.states, done.actions
    decisions = []
    for step, action in enumerate(actions):
        found = decision(states[step], seat, action, bot)
        if found is not None:
            decisions.append({"step": step, **found})
    dearest = sorted((d for d in decisions if d["cost"] >= COSTLY), key=lambda d: -d["cost"])[:MOST]
    marked = {d["step"] for d in dearest}
    for d in decisions:
        d["costly"] = d["step"] in marked
    return {
        "seat": seat,
        "decisions": decisions,
        "total_cost": round(sum(d["cost"] for d in decisions), 3),
        "agree": sum(1 for d in decisions if d["same"]),
    }


def judge(decision_figures: dict[str, Any], choice: Any) -> bool:
    """Whether an answer to a review item (a seats.Choice) is right: it costs less than COSTLY against the bot's choice."""
    key = _key(choice.action)
    rows = decision_figures["options"]
    best = next(r["worth"] for r in rows if r["bot"])
    for row in rows:
        if (row["verb"], row["tile"], row["liang_dao"]) == (key["verb"], key["tile"], key["liang_dao"]):
            return best - row["worth"] < COSTLY
    return False

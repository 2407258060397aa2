"""The review (复盘) of one hand from one seat: each decision judged by paired rollouts, what it cost, and when that cost is clear.

Pure Python over the engine. A decision is a state where the seat had more than one
choice (its own turn with a discard to pick, a kong or a win on offer; or a claim on
another seat's tile, where 过 is one choice). Every choice is played out on the same worlds
dealt from what the seat could see (``kwx.table.review.review_decision``, the rollout policy
named by the caller); the **cost** of the seat's choice is the best choice's result minus its
own, world by world, with the standard error of that paired difference. A decision is
**costly** only when that gap is clear: more than ``COSTLY_MARGIN`` paired standard errors and
at least ``COSTLY_FLOOR`` base stakes (:func:`clearly_costly`, the one rule; docs/play.md).
Each decision's worlds come from a seed derived from the record, the seat and the step
(:func:`decision_seed`), so the same record gives the same figures on any machine, and the
decisions of one hand are independent: :func:`review_points` may work them out in several
processes at once and gives the same figures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from kwx.bots.registry import policy_factory
from kwx.bots.strong import danger
from kwx.hand.efficiency import Efficiency, discard_options, efficiency
from kwx.hand.tiles import TILE_IDS
from kwx.processes import as_done
from kwx.table.record import Replay
from kwx.table.review import ChoiceReviewed, review_decision
from kwx.table.selfplay import Policy
from kwx.table.table import Action, Table
from kwx.table.view import SeatView, view_for

from . import seats

COSTLY_MARGIN = 3.0
"""A choice is costly only when its gap to the best exceeds this many paired standard errors …"""
COSTLY_FLOOR = 0.5
"""… and is at least this many base stakes (a smaller gap is not worth a player's review)."""
VERSION = 2
"""Figures of version 1 were the strong bot's own ``worth_of`` guesses; 2 are paired rollouts."""


def clearly_costly(gap: float, gap_se: float) -> bool:
    """Whether a choice's gap to the best is clear: above the floor and more than COSTLY_MARGIN paired standard errors."""
    return gap >= COSTLY_FLOOR and gap > COSTLY_MARGIN * gap_se


@dataclass(frozen=True, slots=True)
class Method:
    """How a review is worked out: the rollout policy (a bot name of ``kwx.bots.registry``) and the work budget per choice."""

    policy: str
    work_per_choice: int

    def as_dict(self) -> dict[str, Any]:
        """The method as stored beside the figures."""
        return {"version": VERSION, "policy": self.policy, "work_per_choice": self.work_per_choice}


def policies(name: str, give_way: Callable[[], object] | None = None) -> Callable[[], list[Policy]]:
    """What makes the three seats' rollout policies for one rollout: fresh bots named ``name`` (a key of ``kwx.bots.registry``).

    ``give_way`` (``kwx.processes.GiveWay``) is called first, before every rollout: it pauses the review while a
    person's request computes on the host (the figures do not change: the seeds and the budget are the same)."""
    factory = policy_factory(name)
    if give_way is None:
        return lambda: [factory(), factory(), factory()]

    def make() -> list[Policy]:
        give_way()
        return [factory(), factory(), factory()]

    return make


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A state where the seat had a choice, and the record's next action (what was done)."""

    step: int
    state: Table
    taken: Action


def _key(action: Action | None) -> dict[str, Any]:
    if action is None:
        return {"verb": seats.PASS, "tile": "", "liang_dao": False}
    return {"verb": action.verb, "tile": action.tile, "liang_dao": action.liang_dao}


def _chosen(state: Table, action: Action, seat: int) -> Action | None:
    """What ``seat`` did in ``state`` given the record's next action (a claim not taken is 过)."""
    if state.phase in ("claim", "rob") and (action.seat != seat or action.verb == "draw"):
        return None  # another seat claimed, or everybody passed (the next draw may be this seat's own)
    return action


def chosen_at(done: Replay, step: int, seat: int) -> Action | None:
    """What ``seat`` chose at ``step`` of a replayed record (None: 过, a claim not taken)."""
    return _chosen(done.states[step], done.actions[step], seat)


def decision_points(record: dict[str, Any], seat: int) -> list[DecisionPoint]:
    """Every state of the record where ``seat`` had more than one choice."""
    done = seats.replayed(record)
    out = []
    for step, action in enumerate(done.actions):
        state = done.states[step]
        if len(view_for(state, seat).decision.choices) > 1:
            out.append(DecisionPoint(step, state, action))
    return out


def decision_seed(record: dict[str, Any], seat: int, step: int) -> int:
    """The seed of one decision's worlds: from the record's canonical JSON, the seat and the step."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True) + f"|{seat}|{step}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _waits(result: Efficiency) -> list[dict[str, Any]]:
    return [{"tile": TILE_IDS[w.kind], "left": w.remaining} for w in result.waits]


def _shape(result: Efficiency) -> dict[str, Any]:
    """The §4 figures of a 13-tile hand: shanten, effective tiles, value and waits (with the copies left)."""
    return {"shanten": result.shanten, "ukeire": result.ukeire, "value": result.value, "waits": _waits(result)}


def _shapes(view: SeatView) -> Callable[[Action | None], dict[str, Any]]:
    """What each choice leaves (§4): the 13 tiles after a discard, a kong or a pass; after a pong, its best discard's."""
    rules, seen = view.rules, view.seen
    discards = {o.discard: o.result for o in discard_options(view.hand, view.visible, rules)} if sum(view.concealed) % 3 == 2 else {}
    bao = danger(view)[1]

    def shape(action: Action | None) -> dict[str, Any]:
        if action is None:
            return _shape(efficiency(view.hand, seen, rules))
        if action.verb == "win":
            return {"shanten": -1, "ukeire": None, "value": None, "waits": []}
        if action.verb == "discard":
            return {**_shape(discards[action.kind]), "deals_in": action.kind in bao}
        if action.verb == "kong":
            return _shape(efficiency(view.hand.after_kong(action.kind), seen, rules))
        after = view.hand.after_pong(action.kind)
        visible = tuple(max(0, s - h) for s, h in zip(seen, after.held))
        best = discard_options(after, visible, rules)[0]
        return {**_shape(best.result), "then": TILE_IDS[best.discard]}

    return shape


def _row(choice: ChoiceReviewed, shape: dict[str, Any], mine: Action | None, best: Action | None) -> dict[str, Any]:
    return {
        **_key(choice.action),
        "mean": choice.mean,
        "se": choice.stderr,
        "gap": choice.gap,
        "gap_se": choice.gap_se,
        "clear": clearly_costly(choice.gap, choice.gap_se),
        **shape,
        "mine": choice.action == mine,
        "best": choice.action == best,
    }


def review_point(record: dict[str, Any], seat: int, point: DecisionPoint, method: Method, give_way: Callable[[], object] | None = None) -> dict[str, Any]:
    """One decision's figures: every choice's worth (mean ± standard error), its gap to the best (± paired), its §4 figures
    (``give_way``: called before every rollout, see ``policies``)."""
    state = point.state
    view = view_for(state, seat)
    header = seats.header_of(record)
    judged = review_decision(
        view,
        policies(method.policy, give_way),
        seed=decision_seed(record, seat, point.step),
        work_per_choice=method.work_per_choice,
        base=header.base,
        piao=header.piao,
    )
    mine = _chosen(state, point.taken, seat)
    best = judged.best
    shape = _shapes(view)
    rows = [_row(choice, shape(choice.action), mine, best) for choice in judged.choices]
    own = judged.of(mine)
    return {
        "step": point.step,
        "phase": state.phase,
        "claim": view.decision.may_pass,
        "tile": TILE_IDS[state.tile] if view.decision.may_pass and state.tile is not None else "",
        "mine": _key(mine),
        "best": _key(best),
        "same": mine == best,
        "cost": own.gap,
        "cost_se": own.gap_se,
        "costly": clearly_costly(own.gap, own.gap_se),
        "worlds": judged.worlds,
        "actions": judged.actions,
        "options": rows,
    }


def _review_job(job: tuple[dict[str, Any], int, DecisionPoint, Method, Callable[[], object] | None]) -> dict[str, Any]:
    return review_point(*job)


def review_points(
    record: dict[str, Any],
    seat: int,
    points: Sequence[DecisionPoint],
    method: Method,
    jobs: int = 1,
    give_way: Callable[[], object] | None = None,
    beat: Callable[[], object] | None = None,
) -> Iterator[dict[str, Any]]:
    """Each decision's figures as soon as it is done (a caller may store it), worked out in ``jobs`` processes.

    In one process they come in the points' order; in several, the decisions of most choices
    (the budget is per choice, so the longest) start first, so no process is left with a long
    one at the end while the others wait, and each comes when it is done. ``give_way`` (picklable:
    it travels to the processes) is called before every rollout (``policies``); ``beat`` here, while the
    processes work and nothing comes (``kwx.processes.as_done``: a heartbeat).
    """
    if jobs > 1:
        points = sorted(points, key=lambda p: -len(view_for(p.state, seat).decision.choices))
    yield from as_done(_review_job, [(record, seat, point, method, give_way) for point in points], jobs, beat)


def summary(seat: int, decisions: list[dict[str, Any]], method: Method) -> dict[str, Any]:
    """A hand's review: its decisions in the hand's order, how many were the best choice, and the clearly costly ones with what they gave away in all (± from their paired errors).

    Only clearly costly decisions are added up: a small cost is measured against the choice
    that came out best on the same deals, so by itself it leans high, and summed over a hand
    that lean would be read as a loss.
    """
    decisions = sorted(decisions, key=lambda d: d["step"])
    costly = [d for d in decisions if d["costly"]]
    return {
        "method": method.as_dict(),
        "seat": seat,
        "decisions": decisions,
        "agree": sum(1 for d in decisions if d["same"]),
        "costly": len(costly),
        "costly_cost": sum(d["cost"] for d in costly),
        "costly_cost_se": sum(d["cost_se"] ** 2 for d in costly) ** 0.5,
    }


def review_hand(record: dict[str, Any], seat: int, method: Method, jobs: int = 1) -> dict[str, Any]:
    """Every decision of ``seat`` in a record, reviewed at once (the background task stores them one by one instead)."""
    points = decision_points(record, seat)
    return summary(seat, list(review_points(record, seat, points, method, jobs)), method)


def judge(decision_figures: dict[str, Any], choice: Any) -> bool:
    """Whether an answer to a review item (a seats.Choice) is right: it is not clearly costly against the best choice."""
    key = _key(choice.action)
    for row in decision_figures["options"]:
        if (row["verb"], row["tile"], row["liang_dao"]) == (key["verb"], key["tile"], key["liang_dao"]):
            return not row["clear"]
    return False

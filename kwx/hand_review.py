"""The review (复盘) of one hand from one seat: each decision judged, what it cost, and why.

Each decision is selected on one set of deals and confirmed on another.

Pure Python over the engine. A decision is a state where the seat had more than one
choice (its own turn with a discard to pick, a kong or a win on offer; or a claim on
another seat's tile, where 过 is one choice). Every choice is played out on worlds dealt from
what the seat could see, twice (``kwx.table.review.review_decision``, the rollout policy named by
the caller): the first set of deals selects the best and flags the choices clearly behind it,
the second — independent — confirms; every figure shown is the second set's. The **cost** of the
seat's choice is the selected best's result minus its own, world by world, on the second set,
with the standard error of that paired difference and the deals it rests on. A choice is
**clearly worse** only when both sets say so (the one margin rule's ``CLEAR``), **costly** only
when both sets find the gap clear and at least half a stake (``COSTLY``); a decision is
**decided** only when the seat's choice is clearly worse or the second set names the best (at
most two choices level at the top), and the agreement rate counts only decided decisions. Every
clearly worse choice says why in words (:func:`reasons`). Each decision's worlds come from a
seed derived from the record, the seat and the step (:func:`decision_seed`), so the same record
gives the same figures on any machine, and the decisions of one hand are independent:
:func:`review_points` may work them out in several processes at once and gives the same figures.
A record comes in typed (:class:`Reviewed`: the record, whole or one seat's view, and the key of its
seeds, the record's JSON as it was stored).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from kwx.bots.control import world_control
from kwx.bots.registry import policy_factory
from kwx.bots.strong import danger
from kwx.hand.efficiency import Efficiency, discard_options, efficiency
from kwx.hand.tiles import TILE_IDS
from kwx.numbers import seed_of
from kwx.processes import as_done
from kwx.table import seats
from kwx.table.advice import COSTLY, sample_world
from kwx.table.record import Record, Replay
from kwx.table.review import ChoiceReviewed, DecisionReviewed, review_decision
from kwx.table.seat_record import SeatRecord
from kwx.table.selfplay import Policy
from kwx.table.table import Action, Table, claim_win
from kwx.table.view import SeatView, view_for

COSTLY_MARGIN = COSTLY.sigmas
"""A choice is costly only when its gap to the best exceeds this many paired standard errors on both sets …"""
COSTLY_FLOOR = COSTLY.money
"""… and is at least this many base stakes (a smaller gap is not worth a player's review)."""
VERSION = 3
"""Figures of version 1 were the strong bot's own ``worth_of`` guesses; 2 paired rollouts on one set of deals; 3 selected on one set and confirmed on another."""
LIKELY = 0.15
"""A hidden hand's wait counts as the reason a discard cost when at least this share of the worlds deals in on it."""
REASON_WORLDS = 64
"""Worlds dealt (never played out) to see how often a discard or a kong's tile meets a hidden wait."""


@dataclass(frozen=True, slots=True)
class Method:
    """How a review is worked out: the rollout policy (a bot name of ``kwx.bots.registry``) and the work budget per choice."""

    policy: str
    work_per_choice: int

    def as_dict(self) -> dict[str, Any]:
        """The method as stored beside the figures."""
        return {"version": VERSION, "policy": self.policy, "work_per_choice": self.work_per_choice}


def policies(name: str, give_way: Callable[[], object] | None = None) -> Callable[[], list[Policy]]:
    """What makes the three seats' rollout policies for one rollout: fresh bots named ``name``.

    ``name`` is a key of ``kwx.bots.registry``.

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
class Reviewed:
    """A record to review: the record (the whole hand, or one seat's view) and the key of its decisions' seeds."""

    record: Record | SeatRecord
    key: str
    """The record's JSON as it was stored, canonical (sorted keys, no spaces, ASCII): an upload's own keys count, so its figures never change."""

    @classmethod
    def from_json(cls, data: Any) -> Reviewed:
        """A stored record's JSON read (raises RecordError), keyed by that JSON."""
        return cls(seats.read_record(data), json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True))


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A state where the seat had a choice, and the record's next action (what was done)."""

    step: int
    state: Table
    taken: Action


def choice_key(action: Action | None) -> dict[str, Any]:
    """A choice as the figures name it: verb, tile, 亮倒, and under 半亮 the triplets kept face down.

    ``kou`` is there only when some triplets are kept."""
    if action is None:
        return {"verb": seats.PASS, "tile": "", "liang_dao": False}
    key: dict[str, Any] = {"verb": action.verb, "tile": action.tile, "liang_dao": action.liang_dao}
    if action.kou:
        key["kou"] = [TILE_IDS[k] for k in sorted(action.kou)]
    return key


def _chosen(state: Table, action: Action, seat: int) -> Action | None:
    """What ``seat`` did in ``state`` given the record's next action (a claim not taken is 过)."""
    if state.phase in ("claim", "rob") and (action.seat != seat or action.verb == "draw"):
        return None  # another seat claimed, or everybody passed (the next draw may be this seat's own)
    return action


def chosen_at(done: Replay, step: int, seat: int) -> Action | None:
    """What ``seat`` chose at ``step`` of a replayed record (None: 过, a claim not taken)."""
    return _chosen(done.states[step], done.actions[step], seat)


def decision_points(record: Record | SeatRecord, seat: int) -> list[DecisionPoint]:
    """Every state of the record where ``seat`` had more than one choice."""
    done = seats.replayed(record)
    out = []
    for step, action in enumerate(done.actions):
        state = done.states[step]
        if len(view_for(state, seat).decision.choices) > 1:
            out.append(DecisionPoint(step, state, action))
    return out


def decision_seed(key: str, seat: int, step: int) -> int:
    """The seed of one decision's worlds: from the record's key (its canonical JSON, ``Reviewed.key``), the seat and the step."""
    return seed_of(key, seat, step, sep="|", bits=64)


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


def _row(choice: ChoiceReviewed, shape: dict[str, Any], mine: Action | None, judged: DecisionReviewed) -> dict[str, Any]:
    return {
        **choice_key(choice.action),
        "mean": choice.mean,
        "se": choice.stderr,
        "deals": choice.deals,
        "gap": choice.gap,
        "gap_se": choice.gap_se,
        "gap_deals": choice.gap_deals,
        "flagged": choice.flagged,
        "clear": choice.worse,
        **shape,
        "mine": choice.action == mine,
        "selected": choice.action == judged.selected,
        "best": judged.named and not choice.worse,
    }


def costly(judged: DecisionReviewed, choice: Action | None) -> bool:
    """Whether a choice is costly: both sets find its gap to the selected best clear by COSTLY.

    COSTLY: more than 3 paired errors and half a stake."""
    c = judged.of(choice)
    return c.worse and judged.first_worlds >= COSTLY.deals and COSTLY.clear(c.first_gap, c.first_gap_se) and c.gap_deals >= COSTLY.deals and COSTLY.clear(c.gap, c.gap_se)


def _relative(view: SeatView, other: int) -> int:
    """Another seat from the reviewed seat's chair: 1 下家 (the next seat), 2 上家 (the seat before)."""
    return (other - view.seat) % 3


def _hits(view: SeatView, kind: int, phase: Literal["claim", "rob"]) -> dict[int, float]:
    """For each hidden opponent, the share of worlds in which ``kind`` lets it win.

    The worlds are dealt with ``progress``; the seat throws ``kind`` (``claim``) or adds it to a pong (``rob``)."""
    rng = random.Random(kind)
    hits = dict.fromkeys((o for o in view.others() if not view.seats[o].liang_dao), 0)
    for _ in range(REASON_WORLDS):
        world = sample_world(view, random.Random(rng.getrandbits(64)), progress=True)
        offer = replace(world, phase=phase, turn=view.seat, tile=kind, wins=())
        for other in hits:
            if kind in world.seats[other].ready_on and claim_win(offer, other) is not None:
                hits[other] += 1
    return {o: n / REASON_WORLDS for o, n in hits.items()}


def _likely(view: SeatView, kind: int, phase: Literal["claim", "rob"]) -> tuple[int, float] | None:
    """The hidden opponent most likely to win on ``kind`` and how likely, when it is at least LIKELY."""
    hits = _hits(view, kind, phase)
    if not hits:
        return None
    other = max(hits, key=lambda o: (hits[o], -o))
    return (other, hits[other]) if hits[other] >= LIKELY else None


def reasons(view: SeatView, mine: Action | None, best: Action | None, shape: Callable[[Action | None], dict[str, Any]]) -> list[dict[str, Any]]:
    """Why the seat's choice cost against the best, in codes the page puts in words.

    The deal-in it walked into (a revealed wait, 包胡; a hidden hand's likely wait), the kong that gets
    robbed, the 亮倒 that costs double (or the one given up), the kong money given up, the shanten, fan
    or waits given up; else that it is later play."""
    out: list[dict[str, Any]] = []
    revealed = {o: view.seats[o].waits for o in view.others() if view.seats[o].liang_dao}
    if mine is not None and mine.verb in ("discard", "kong"):
        robbing = mine.verb == "kong" and view.phase != "claim" and view.concealed[mine.kind] != 4  # a 蓄杠 shows its tile: it may be robbed
        if mine.verb == "discard" or robbing:
            code = "deal_in" if mine.verb == "discard" else "robbed"
            hit = next((o for o, waits in revealed.items() if mine.kind in waits), None)
            if hit is not None:
                out.append({"code": code, "seat": _relative(view, hit), "tile": mine.tile, "revealed": True})
            else:
                likely = _likely(view, mine.kind, "claim" if mine.verb == "discard" else "rob")
                if likely is not None:
                    out.append({"code": code, "seat": _relative(view, likely[0]), "tile": mine.tile, "revealed": False, "share": round(likely[1], 2)})
    declares, best_declares = bool(mine is not None and mine.liang_dao), bool(best is not None and best.liang_dao)
    if declares and not best_declares:
        out.append({"code": "declare_cost"})
    elif best_declares and not declares:
        out.append({"code": "declare_gain"})
    if best is not None and best.verb == "kong" and (mine is None or mine.verb != "kong"):
        out.append({"code": "kong_money", "tile": best.tile})
    if best is not None and best.verb == "win" and (mine is None or mine.verb != "win"):
        out.append({"code": "win", "tile": best.tile})
    elif mine is None or mine.verb != "win":
        a, b = shape(mine), shape(best)
        if a.get("shanten") is not None and b.get("shanten") is not None:
            if a["shanten"] > b["shanten"]:
                out.append({"code": "shanten", "mine": a["shanten"], "best": b["shanten"]})
            elif a["shanten"] == b["shanten"] == 0 and (a.get("value") or 0) < (b.get("value") or 0):
                out.append({"code": "value", "mine": a.get("value") or 0, "best": b["value"]})
            elif a["shanten"] == b["shanten"] and (a.get("ukeire") or 0) < (b.get("ukeire") or 0):
                out.append({"code": "waits", "mine": a.get("ukeire") or 0, "best": b["ukeire"]})
    return out or [{"code": "later"}]


def review_point(reviewed: Reviewed, seat: int, point: DecisionPoint, method: Method, give_way: Callable[[], object] | None = None) -> dict[str, Any]:
    """One decision's figures from its confirming deals, its verdict and its reasons.

    Every choice's worth (mean ± standard error, deals), its gap to the selected best (± paired,
    deals), its §4 figures.

    ``give_way`` is called before every rollout (``policies``)."""
    state = point.state
    view = view_for(state, seat)
    header = reviewed.record.header
    mine = _chosen(state, point.taken, seat)
    factory = policy_factory(method.policy)
    policy = factory()
    own = policy.claim(view) if view.decision.may_pass else policy.act(view)
    judged = review_decision(
        view,
        policies(method.policy, give_way),
        seed=decision_seed(reviewed.key, seat, point.step),
        work_per_choice=method.work_per_choice,
        focus=(mine, own),
        control=world_control(seat),
        base=header.base,
        piao=header.piao,
        costly=COSTLY,
    )
    shape = _shapes(view)
    rows = [_row(choice, shape(choice.action), mine, judged) for choice in judged.choices]
    figures = judged.of(mine)
    dear = costly(judged, mine)
    return {
        "step": point.step,
        "phase": state.phase,
        "claim": view.decision.may_pass,
        "tile": TILE_IDS[state.tile] if view.decision.may_pass and state.tile is not None else "",
        "mine": choice_key(mine),
        "best": choice_key(judged.selected),
        "policy_choice": choice_key(own),
        "decided": judged.decided(mine),
        "named": judged.named,
        "same": judged.agrees(mine),
        "worse": figures.worse,
        "cost": figures.gap,
        "cost_se": figures.gap_se,
        "cost_deals": figures.gap_deals,
        "costly": dear,
        "reasons": reasons(view, mine, judged.selected, shape) if figures.worse else [],
        "worlds": judged.worlds,
        "first_worlds": judged.first_worlds,
        "actions": judged.actions,
        "beta": round(judged.beta, 3),
        "options": rows,
    }


def _review_job(job: tuple[Reviewed, int, DecisionPoint, Method, Callable[[], object] | None]) -> dict[str, Any]:
    return review_point(*job)


def review_points(
    reviewed: Reviewed,
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
    yield from as_done(_review_job, [(reviewed, seat, point, method, give_way) for point in points], jobs, beat)


def summary(seat: int, decisions: list[dict[str, Any]], method: Method) -> dict[str, Any]:
    """A hand's review: its decisions in order, how many were decided and among the best, the costly ones and their cost.

    The cost in all is given ± from the costly decisions' paired errors.

    Only costly decisions are added up, each confirmed on deals apart from those that picked
    the best; the agreement rate counts only decided decisions (a decision too close to call
    grades nothing).
    """
    decisions = sorted(decisions, key=lambda d: d["step"])
    dear = [d for d in decisions if d["costly"]]
    return {
        "method": method.as_dict(),
        "seat": seat,
        "decisions": decisions,
        "decided": sum(1 for d in decisions if d["decided"]),
        "agree": sum(1 for d in decisions if d["same"]),
        "costly": len(dear),
        "costly_cost": sum(d["cost"] for d in dear),
        "costly_cost_se": sum(d["cost_se"] ** 2 for d in dear) ** 0.5,
    }


def review_hand(reviewed: Reviewed, seat: int, method: Method, jobs: int = 1) -> dict[str, Any]:
    """Every decision of ``seat`` in a record, reviewed at once (the background task stores them one by one instead)."""
    points = decision_points(reviewed.record, seat)
    return summary(seat, list(review_points(reviewed, seat, points, method, jobs)), method)


def judge(decision_figures: dict[str, Any], choice: seats.Choice) -> bool:
    """Whether an answer to a review item is right: both sets of deals do not find it clearly worse than the best."""
    key = choice_key(choice.action)
    for row in decision_figures["options"]:
        if (row["verb"], row["tile"], row["liang_dao"], row.get("kou", [])) == (key["verb"], key["tile"], key["liang_dao"], key.get("kou", [])):
            return not row["clear"]
    return False

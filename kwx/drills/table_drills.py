"""Table drills: decisions met in self-play, kept when playing the hand out shows a clear best choice.

Four kinds (docs/drills.md): 碰不碰 (``pong``: pong an offered tile or pass), 杠不杠 (``kong``:
kong or not), 亮不亮 (``declare``: with the chosen discard, declare 亮倒 or keep the hand hidden),
and defence (``defence``: an opponent has declared 亮倒; which safe tile to throw).

Drill ``index`` of a kind comes from its own seeds (:func:`drill_seed`): attempt 0, 1, … each
deal a hand (:func:`~kwx.table.selfplay.seeded_deal`) that three strong bots play; every
decision of the kind met on the way is a candidate, verified by :func:`verify` — the choices
played out on the same sampled worlds (:func:`~kwx.table.advice.sample_world`, common
random numbers) with the strong bot for every seat afterwards — and the first candidate that
passes the :class:`MarginRule` is the drill. So a new drill is found from its index alone (a
shipped one, selected by an earlier strong bot, is not rebuilt from its seeds: docs/drills.md).

A record stores the choices its drill played, in the order played (``choices``: each in the
record form of ``kwx-hand/1``), so reading, confirming or re-checking a drill needs no bot.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kwx.bots.registry import policy_factory
from kwx.bots.strong import StrongBot, danger
from kwx.drills.record import AnswerRow, Figures, Source, TableDrill, answer_of
from kwx.hand.danger import revealed_rules
from kwx.hand.efficiency import Efficiency, discard_options, efficiency
from kwx.hand.notation import format_counts
from kwx.hand.rules import Rules, make_rules
from kwx.hand.scoring import score_win
from kwx.hand.shapes import shanten
from kwx.hand.tiles import TILE_IDS, Hand, add
from kwx.numbers import seed_of
from kwx.table.advice import CONFIRM, HOPELESS, PASS, Margin, mean_se, paired, played_worlds, sample_world
from kwx.table.selfplay import Waiting, advance, seeded_deal
from kwx.table.table import Action, apply, deal
from kwx.table.view import SeatView, view_for

KINDS = ("pong", "kong", "declare", "defence")
PREFIX = {"pong": "p", "kong": "k", "declare": "l", "defence": "f"}
"""The first letter of a drill's key (``p00001``: 碰不碰 drill 1)."""
MIN_WALL = 6
"""Decisions with fewer tiles left in the wall are not asked (the hand is all but over)."""
MAX_ATTEMPTS = 60
"""Deals tried for one drill before giving up on that index."""
CANDIDATES_PER_HAND = 3
"""Decisions of one hand verified at most (then the next deal), so drills spread over many hands."""
DEFENCE_CANDIDATES = 4
"""Safe discards played out in a defence drill: the strong bot's best four."""
REFUSALS_FROM = 300
"""杠不杠 drills from this index on are sought where refusing the kong is the clear best (docs/drills.md)."""
REFUSAL_ATTEMPTS = 600
"""Deals tried for one such drill: self-play meets a clear refusal about once in a hundred deals."""
SHARP_DEFENCE_FROM = 300
"""Defence drills from this index on are kept only when at most SHARP_SAFE of the safe tiles are right (docs/drills.md)."""
SHARP_SAFE = 2


@dataclass(frozen=True, slots=True)
class MarginRule:
    """When a candidate's best choice is clear enough to be a drill (docs/drills.md).

    A choice is *clearly worse* than the best (the highest mean) when the best beats it by the
    one margin rule's ``margin`` (:data:`~kwx.table.advice.CONFIRM`: 3 standard errors of the
    world-by-world difference and 0.25 base stakes a hand). After ``min_worlds`` worlds and every
    ``step`` more the candidate is kept once every choice but the best is clearly worse (a
    defence drill: every dangerous tile and at least one safe one; the safe tiles not clearly
    worse are accepted answers too). At every look, a choice that must separate but that the
    best does not beat even by ``hopeless`` ends the candidate, as does reaching ``max_worlds``.
    """

    margin: Margin = CONFIRM
    min_worlds: int = 16
    step: int = 8
    max_worlds: int = 64
    hopeless: Margin = HOPELESS

    @property
    def sigmas(self) -> float:
        """The margin's standard errors (as the records write it)."""
        return self.margin.sigmas

    @property
    def money(self) -> float:
        """The margin's base stakes (as the records write it)."""
        return self.margin.money


RULE = MarginRule()


def drill_seed(kind: str, index: int, attempt: int) -> int:
    """The deal seed of attempt ``attempt`` of drill ``index`` of ``kind`` (a stable 63-bit number)."""
    return seed_of("kwx-drill", kind, index, attempt)


def _ranked(results: Sequence[Sequence[float]]) -> list[int]:
    """Choice indices, highest mean first (ties: the earlier choice)."""
    means = [sum(r) / len(r) for r in results]
    return sorted(range(len(results)), key=lambda i: (-means[i], i))


def _best(results: Sequence[Sequence[float]]) -> int:
    """The choice with the highest mean (ties: the earlier one)."""
    return _ranked(results)[0]


def clearly_worse(results: Sequence[Sequence[float]], rule: MarginRule = RULE) -> frozenset[int]:
    """The choices the best beats by the rule's margin."""
    best = _best(results)
    return frozenset(i for i, r in enumerate(results) if i != best and rule.margin.between(results[best], r))


@dataclass(frozen=True, slots=True)
class Verdict:
    """The rollouts of one candidate: each choice's results world by world, and whether it was kept.

    ``dangerous`` are the choices that deal into a revealed hand (defence drills; otherwise none).
    """

    choices: tuple[Action | None, ...]
    results: tuple[tuple[float, ...], ...]
    kept: bool
    rollouts: int
    dangerous: frozenset[int] = frozenset()

    @property
    def worlds(self) -> int:
        """Worlds played (every choice in each)."""
        return len(self.results[0]) if self.results else 0

    def order(self) -> list[int]:
        """Choice indices, highest mean first (ties: the earlier choice)."""
        return _ranked(self.results)

    def accepted(self, rule: MarginRule = RULE) -> list[int]:
        """The right answers, best first: the best and every choice not clearly worse than it."""
        worse = clearly_worse(self.results, rule)
        return [i for i in self.order() if i not in worse]

    def margin(self, rule: MarginRule = RULE) -> tuple[float, float]:
        """The best choice minus the best of the clearly worse ones: mean and standard error of the paired difference."""
        order = self.order()
        worse = clearly_worse(self.results, rule)
        second = next((i for i in order if i in worse), order[1])
        return paired(self.results[order[0]], self.results[second])


def decide(results: list[list[float]], dangerous: frozenset[int], rule: MarginRule, sharp: bool = False) -> bool | None:
    """True: clear (keep); False: hopeless or done (reject); None: play more worlds.

    ``sharp`` (defence): clear only once at most SHARP_SAFE safe tiles are not clearly worse.
    """
    n = len(results[0])
    if n < rule.min_worlds or ((n - rule.min_worlds) % rule.step and n < rule.max_worlds):
        return None
    best = _best(results)
    if best in dangerous:
        return False if n >= 2 * rule.min_worlds or n >= rule.max_worlds else None
    worse = clearly_worse(results, rule)
    others = [i for i in range(len(results)) if i != best]

    def close(i: int) -> bool:  # the best not ahead of it even by ``hopeless``
        return not rule.hopeless.between(results[best], results[i])

    if dangerous:  # defence: every dangerous tile and at least one safe one
        safe = [i for i in others if i not in dangerous]
        right = 1 + sum(1 for i in safe if i not in worse)  # the best and the safe tiles not clearly worse
        if dangerous <= worse and any(i in worse for i in safe) and (not sharp or right <= SHARP_SAFE):
            return True
        must = [i for i in dangerous if i not in worse] + ([] if any(i in worse for i in safe) else safe)
        hopeless = all(close(i) for i in safe)
    else:
        if set(others) <= worse:
            return True
        must = [i for i in others if i not in worse]
        hopeless = any(close(i) for i in must)
    if n >= rule.max_worlds or (must and hopeless):
        return False
    return None


def verify(
    view: SeatView,
    options: tuple[Action | None, ...],
    seed: int,
    rule: MarginRule = RULE,
    dangerous: frozenset[int] = frozenset(),
    sharp: bool = False,
) -> Verdict:
    """Play each option out on the same sampled worlds until the margin rule keeps or rejects the candidate.

    ``sharp``: see ``decide``."""
    bot = StrongBot()
    results: list[list[float]] = [[] for _ in options]
    for played, _predicted, _steps in played_worlds(view, options, seed, lambda: (bot, bot, bot)):
        for i, value in enumerate(played):
            results[i].append(round(value, 6))
        verdict = decide(results, dangerous, rule, sharp)
        if verdict is not None:
            return Verdict(options, tuple(tuple(r) for r in results), verdict, len(results[0]) * len(options), dangerous)
    raise AssertionError("the worlds never run out")


# ---------------------------------------------------------------- finding the decisions


def candidate_options(view: SeatView, kind: str) -> tuple[Action | None, ...] | None:
    """The choices a drill of ``kind`` asks at this decision of the view's seat, or None when it is not one."""
    options = view.options
    seat = view.seat
    if view.wall_left < MIN_WALL or view.me.liang_dao or any(a.verb == "win" for a in options):
        return None
    verbs = {a.verb for a in options}
    bot = StrongBot()
    if kind == "pong":
        if view.phase != "claim" or verbs != {"pong"}:
            return None
        return (options[0], PASS)
    if kind == "kong":
        kongs = [a for a in options if a.verb == "kong"]
        if not kongs:
            return None
        if view.phase == "claim":
            return (kongs[0], *[a for a in options if a.verb == "pong"], PASS)
        rest = tuple(a for a in options if a.verb != "kong")
        return (kongs[0], bot.act(replace(view, decision=replace(view.decision, options=rest))))
    if view.phase != "act" or "kong" in verbs:
        return None
    allowed = frozenset(a.kind for a in options if a.verb == "discard")
    if kind == "declare":
        scored = bot.discards(view, view.hand, allowed, True)
        declaring = next((c for c in scored if c.liang_dao), None)
        if declaring is None:
            return None
        return (Action(seat, "discard", declaring.kind, True), Action(seat, "discard", declaring.kind))
    if kind == "defence":
        if not any(view.seats[o].liang_dao for o in view.others()):
            return None
        _costs, bao = danger(view)
        if not any(view.concealed[k] for k in bao):
            return None  # nothing dangerous in hand: no defence to play
        safe = [c.kind for c in bot.discards(view, view.hand, allowed, False) if c.kind not in bao]
        picks = list(dict.fromkeys(safe))[:DEFENCE_CANDIDATES]
        if len(picks) < 2:
            return None
        return (*(Action(seat, "discard", k) for k in picks), Action(seat, "discard", tempting(view, bao)))
    raise ValueError(f"unknown drill kind {kind!r}")


CHAIN = ("strong", "judge", "boosted")
"""The policies (bot names of ``kwx.bots.registry``) that confirm a drill, in turn, each on its own worlds (``kwx.drills.confirm``)."""
POLICY = CHAIN[-1]
"""The policy whose confirming worlds give every figure a drill shows, and whose play its explanation shows."""


def pong_line(view: SeatView, pong: Action, policy: str = POLICY) -> Action:
    """The discard ``policy`` makes after the pong (what a pong's row shows it leaves)."""
    after = apply(sample_world(view, random.Random(0)), pong)  # the seat's own view after the pong is the same in any world
    return policy_factory(policy)().act(view_for(after, view.seat))


def tempting(view: SeatView, bao: frozenset[int]) -> int:
    """The dangerous tile a player who ignored the revealed hand would throw: the §4 best among those held."""
    options = discard_options(view.hand, view.visible, view.rules)
    return next(o.discard for o in options if o.discard in bao)


def dangerous_choices(view: SeatView, options: tuple[Action | None, ...]) -> frozenset[int]:
    """The indices of the options that throw a tile a revealed (亮倒) hand wins on (包胡)."""
    _costs, bao = danger(view)
    return frozenset(i for i, a in enumerate(options) if a is not None and a.verb == "discard" and a.kind in bao)


class _Watch:
    """The strong bot, except that a decision of the drill's kind not yet seen raises Waiting."""

    def __init__(self, kind: str) -> None:
        self.bot = StrongBot()
        self.kind = kind
        self.seen: set[tuple[Any, ...]] = set()
        self.waiting: SeatView | None = None

    def _check(self, view: SeatView) -> None:
        key = (view.drawn, view.phase, view.turn, view.kind, len(view.kongs), view.seat)
        if key not in self.seen and candidate_options(view, self.kind) is not None:
            self.seen.add(key)
            self.waiting = view
            raise Waiting(view.seat, view.options)

    def act(self, view: SeatView) -> Action:
        self._check(view)
        return self.bot.act(view)

    def claim(self, view: SeatView) -> Action | None:
        self._check(view)
        return self.bot.claim(view)


def decisions(seed: int, kind: str, rules: Rules) -> Iterator[tuple[SeatView, tuple[Action | None, ...]]]:
    """Each decision of ``kind`` met when three strong bots play the deal of ``seed``.

    The deciding seat's view and the choices.
    """
    table_deal = seeded_deal(seed, dealer=seed % 3)
    state = deal(table_deal.hands, table_deal.dealer, rules, table_deal.wall)
    watch = _Watch(kind)
    while True:
        state, _actions, over = advance(state, (watch, watch, watch))
        if over:
            return
        view = watch.waiting  # the hand paused at this seat's decision; asked again, the bot answers it
        assert view is not None
        choices = candidate_options(view, kind)
        assert choices is not None
        yield view, choices


@dataclass(frozen=True, slots=True)
class Drill:
    """A kept drill: where it came from, the position and the verdict of its rollouts."""

    kind: str
    index: int
    attempt: int
    seed: int
    view: SeatView
    verdict: Verdict


def kong_costs_shape(view: SeatView, options: tuple[Action | None, ...]) -> bool:
    """Whether the kong (``options[0]``) leaves a worse shanten than not konging.

    Not konging: passing a discard, or the other choice on one's turn.
    """
    kong = options[0]
    assert kong is not None and kong.verb == "kong"
    after = view.hand.after_kong(kong.kind)
    if view.phase == "claim":
        kept = view.hand
    else:
        other = options[1]
        assert other is not None and other.verb == "discard"
        kept = view.hand.with_tile(other.kind, -1)
    return shanten(after.concealed, len(after.melds)) > shanten(kept.concealed, len(kept.melds))


def refuses(kind: str, index: int) -> bool:
    """Whether drill ``index`` of ``kind`` is one sought for a refused kong (杠不杠 from REFUSALS_FROM on)."""
    return kind == "kong" and index >= REFUSALS_FROM


def sharp(kind: str, index: int) -> bool:
    """Whether drill ``index`` of ``kind`` must tell the safe tiles apart (defence from SHARP_DEFENCE_FROM on)."""
    return kind == "defence" and index >= SHARP_DEFENCE_FROM


def find_drill(kind: str, index: int, rule: MarginRule = RULE, rules: str = "standard") -> Drill | None:
    """Drill ``index`` of ``kind``: the first candidate of its seeded deals that the margin rule keeps.

    None: none in MAX_ATTEMPTS deals.

    A refusal drill (:func:`refuses`) looks only at kongs that cost shape (:func:`kong_costs_shape`)
    and keeps a candidate only when not konging is the best, over up to REFUSAL_ATTEMPTS deals;
    a :func:`sharp` defence drill plays on until the safe tiles are told apart.
    """
    rule_set = make_rules(rules)
    refusal = refuses(kind, index)
    for attempt in range(REFUSAL_ATTEMPTS if refusal else MAX_ATTEMPTS):
        seed = drill_seed(kind, index, attempt)
        n = 0
        for view, options in decisions(seed, kind, rule_set):
            if refusal and not kong_costs_shape(view, options):
                continue
            if n >= CANDIDATES_PER_HAND:
                break
            verdict = verify(view, options, seed + n + 1, rule, dangerous_choices(view, options), sharp(kind, index))
            n += 1
            best = verdict.choices[verdict.order()[0]] if verdict.kept else None
            if verdict.kept and not (refusal and best is not None and best.verb == "kong"):
                return Drill(kind, index, attempt, seed, view, verdict)
    return None


# ---------------------------------------------------------------- the record a drill page shows


def kong_type(view: SeatView, kind: int) -> str:
    """Which kong the seat would make of ``kind`` now: 直杠 on a discard, 暗杠 of four held, else 蓄杠."""
    if view.phase == "claim":
        return "zhi_gang"
    return "an_gang" if view.concealed[kind] == 4 else "ming_gang"


def _shape(eff: Efficiency, rules: Rules, hand: Hand, liang: bool) -> dict[str, Any]:
    """Shanten, effective tiles and, when ready, each wait with its live copies and multipliers."""
    out: dict[str, Any] = {"shanten": eff.shanten, "ukeire": eff.ukeire}
    if eff.shanten == 0:
        waits = []
        liang_rules = revealed_rules(rules) if liang else None
        for w in eff.waits:
            self_total, disc = w.self_draw.total, (w.discard.total if w.discard.allowed else 0)
            if liang_rules is not None:
                values = score_win(hand, w.kind, liang_rules)
                if values is not None:
                    self_total, disc = values[0].total, values[1].total if values[1].allowed else 0
            waits.append([TILE_IDS[w.kind], w.remaining, self_total, disc])
        out["waits"] = waits
    return out


def _after(view: SeatView, choice: Action | None, policy: str) -> tuple[Hand, Action | None]:
    """The 13-tile hand a choice leaves (a pong: after ``policy``'s discard) and that discard."""
    if choice is None:
        return view.hand, None
    if choice.verb == "discard":
        return view.hand.with_tile(choice.kind, -1), None
    if choice.verb == "pong":
        then = pong_line(view, choice, policy)
        return view.hand.after_pong(choice.kind).with_tile(then.kind, -1), then
    return view.hand.after_kong(choice.kind), None


LEAVES = ("shanten", "ukeire", "waits", "then")
"""What an answer's row says its choice leaves (the keys :func:`figures` writes)."""


def figures(view: SeatView, choice: Action | None, policy: str = POLICY) -> dict[str, Any]:
    """The hand a choice leaves, in the engine's figures: shanten, effective tiles, waits (for the explanation).

    After a pong, the hand after ``policy``'s discard.
    """
    hand, then = _after(view, choice, policy)
    seen = add(hand.held, view.visible_beside(hand))  # what was seen stays seen: a discard in the river, a claimed tile once
    eff = efficiency(hand, seen, view.rules)
    out = _shape(eff, view.rules, hand, bool(choice is not None and choice.liang_dao))
    if then is not None:
        out["then"] = then.tile
    return out


def danger_record(view: SeatView) -> tuple[tuple[str, float], ...]:
    """Each tile the seat holds that a revealed (亮倒) hand wins on, with what dealing it in costs (包胡)."""
    costs, bao = danger(view)
    return tuple((TILE_IDS[k], round(costs[k], 3)) for k in sorted(bao) if view.concealed[k])


def drill_record(drill: Drill, rule: MarginRule = RULE) -> TableDrill:
    """The bank record of a drill as its selecting worlds found it."""
    view, verdict = drill.view, drill.verdict
    accepted = set(verdict.accepted(rule))
    options = []
    for i in verdict.order():
        choice, values = verdict.choices[i], verdict.results[i]
        mean, se = mean_se(values)
        row: dict[str, Any] = {
            "answer": answer_of(choice, drill.kind),
            "mean": round(mean, 3),
            "se": round(se, 3),
            "right": i in accepted,
            **figures(view, choice),
        }
        if i in verdict.dangerous:
            row["dangerous"] = True
        if choice is not None and choice.verb == "kong":
            row["kong_type"] = kong_type(view, choice.kind)
        if choice is not None and choice.verb == "discard" and drill.kind != "defence":
            row["discard"] = choice.tile
        if choice is not None and choice.liang_dao and drill.kind != "declare":
            row["liang_dao"] = True  # the choice declares too (杠不杠's "no kong" is the bot's discard, 亮倒 or not): the page says so
        options.append(AnswerRow.from_json(row))
    diff, diff_se = verdict.margin(rule)
    melds = view.me.melds
    return TableDrill(
        key=f"{PREFIX[drill.kind]}{drill.index + 1:05d}",
        kind=drill.kind,
        hand=format_counts(view.concealed),
        melds=melds,
        visible=format_counts(view.visible),
        rules=view.rules.preset.key,
        situation=(),
        turn=len(view.me.river) + len(melds),
        wall_left=view.wall_left,
        table=SeatView.from_json(view.to_json()),  # the view as the bank stores it, what confirming it plays from
        choices=verdict.choices,
        accepted=tuple(o.answer for o in options if o.right),
        options=tuple(options),
        danger=danger_record(view),
        margin=Figures(round(diff, 3), round(diff_se, 3), verdict.worlds, verdict.rollouts, rule.sigmas, rule.money),
        source=Source(drill.index, drill.attempt, drill.seed),
        themes=(drill.kind,),
        rating=rating_of(diff, diff_se, len(melds)),
    )


def rating_of(diff: float, se: float, melds: int) -> int:
    """A drill's starting rating: harder the closer its margin is to the rule's edge (in standard errors), and with more melds."""
    rating = 1200 + int(400 * max(0.0, 1.0 - min(diff / max(se, 1e-9), 12.0) / 12.0)) + 60 * melds
    return max(800, min(2400, rating))


def select(kind: str, index: int, rule: MarginRule = RULE) -> TableDrill | None:
    """The record of drill ``index`` of ``kind`` as its selecting worlds found it, or None when its deals give none.

    Its key included.

    The bank's records are these confirmed on a second set of worlds (``kwx.drills.confirm.build``)."""
    drill = find_drill(kind, index, rule)
    if drill is None:
        return None
    return drill_record(drill, rule)

"""Table-aware advice: each choice of a seat estimated by playing the hand out many times.

For a position (a :class:`~kwx.table.view.SeatView`: what the seat to advise may know) the
hidden tiles — the opponents' concealed tiles that no 亮倒 has shown, and the wall's order —
are dealt from the tiles the seat has not seen (:func:`sample_world`, the rollout sampler; the
bots never see a world, only the seat's view that :func:`~kwx.table.view.view_for` makes of it), so
every world is consistent with what the seat can see: its own tiles, the rivers, the melds,
the revealed hands and the wall count. In each world every choice is played out (the choice first, then
a rollout policy for all three seats) and scored by the seat's net money for the hand: wins,
deal-ins, 包胡, kong money, 漂 and the 荒庄 payment of 亮倒 alike. The same worlds serve every
choice (common random numbers), so their differences are measured more precisely than their
means. :func:`advise` reports each choice's mean and standard error, stops early once the best
choice is clear, and never runs past its CPU-time budget.

This is the one rollout module: the worlds (:func:`sample_world`), the rollouts (:func:`rollout`,
:func:`played_worlds`, the loop every caller plays its worlds with), the paired results
(:func:`mean_se`, :func:`paired`, :func:`controlled`) and the one rule for "clearly better"
(:class:`Margin`, with its named instances :data:`CLEAR`, :data:`COSTLY`, :data:`CONFIRM`,
:data:`SWITCH`, :data:`STOP` and :data:`HOPELESS`). The review, the table advice, the judge, the
drills' selection, confirmation and re-check all read them from here.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from kwx.hand.ev import Budget
from kwx.hand.shapes import shanten
from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, Hand
from kwx.table.record import DEFAULT_PLAYERS, settle_table
from kwx.table.selfplay import Policy, advance
from kwx.table.table import Action, SeatState, Table, claim_win
from kwx.table.view import PublicSeat, SeatView

PASS = None
"""The choice of not claiming a discard (过)."""


@dataclass(frozen=True, slots=True)
class Margin:
    """When one choice is clearly better than another.

    Ahead by more than ``sigmas`` standard errors of the paired (world-by-world) difference and by at least
    ``money`` base stakes a hand, over at least ``deals`` worlds.
    """

    sigmas: float
    money: float = 0.0
    deals: int = 2
    """Fewer worlds than this call nothing: a standard error from a handful of worlds is itself too rough to trust."""

    def clear(self, diff: float, se: float) -> bool:
        """Whether a paired difference (mean ``diff``, standard error ``se``) is clear by this margin."""
        return diff > 0 and diff > self.sigmas * se and diff >= self.money

    def between(self, a: Sequence[float], b: Sequence[float]) -> bool:
        """Whether results ``a`` beat results ``b`` clearly on the worlds they share (the first ``min(len)``)."""
        n = min(len(a), len(b))
        return n >= max(2, self.deals) and self.clear(*paired(a[:n], b[:n]))


CLEAR = Margin(3.0, deals=8)
"""A best choice stands out (the advice API's ``clear``, the analyzer's 最佳, a review's confirmed verdicts)."""
COSTLY = Margin(3.0, 0.5, deals=8)
"""A review calls a choice costly: clear, and at least half a base stake (a smaller gap is not worth a player's review)."""
CONFIRM = Margin(3.0, 0.25)
"""A table drill's wrong answer: clear, and at least a quarter of a base stake (selection, confirmation and re-check)."""
SWITCH = Margin(2.0, 0.5)
"""A bot leaves its evaluator's choice for one its rollouts show better."""
STOP = Margin(2.0)
"""Rollouts may stop early once the best beats every other choice by this."""
HOPELESS = Margin(1.0)
"""A drill candidate whose best is not ahead of a choice that must separate by even this is dropped."""


@dataclass(frozen=True, slots=True)
class ChoiceWorth:
    """One choice's expected net money for the hand (in base stakes), its standard error and the rollouts behind it."""

    action: Action | None
    mean: float
    stderr: float
    rollouts: int


@dataclass(frozen=True, slots=True)
class Advice:
    """Every choice's worth, best first; ``clear`` when the best stood out before the budget ran out."""

    seat: int
    estimates: tuple[ChoiceWorth, ...]
    worlds: int
    clear: bool
    cpu_seconds: float
    results: tuple[tuple[Action | None, tuple[float, ...]], ...] = ()
    actions: int = 0
    """Actions played in all the rollouts (the work budget's measure)."""

    @property
    def best(self) -> Action | None:
        """The choice with the highest mean."""
        return self.estimates[0].action

    def difference(self, a: Action | None, b: Action | None) -> tuple[float, float]:
        """Mean and standard error of choice ``a``'s result minus ``b``'s, world by world."""
        found = dict(self.results)
        return paired(list(found[a]), list(found[b]))

    def gaps(self) -> tuple[tuple[float, float], ...]:
        """Each estimate's gap to the best (best minus it, world by world) and that gap's standard error, best first."""
        if not self.results or self.worlds == 0:
            return tuple((0.0, 0.0) for _ in self.estimates)
        return tuple(self.difference(self.best, e.action) for e in self.estimates)

    def ahead(self, margin: Margin = CLEAR) -> bool:
        """Whether the best beats every other choice clearly by ``margin``."""
        if len(self.estimates) <= 1:
            return True
        return self.worlds >= max(2, margin.deals) and all(margin.clear(gap, se) for gap, se in self.gaps()[1:])


KEPT_DRAWS = 12
"""At most this many past draws are replayed when a hidden hand is dealt with ``progress``."""


def _kept(counts: list[int], melds: int, draws: int, pool: list[int], rng: random.Random) -> None:
    """Improve a dealt hidden hand as its owner would have: ``draws`` times take a pool tile and return the worst one."""
    for _ in range(min(draws, KEPT_DRAWS, len(pool))):
        counts[pool.pop()] += 1
        held = [k for k in range(NUM_KINDS) if counts[k]]
        after = []
        for k in held:
            counts[k] -= 1
            after.append((shanten(tuple(counts), melds), k))
            counts[k] += 1
        low = min(a for a, _ in after)
        worst = rng.choice([k for a, k in after if a == low])
        counts[worst] -= 1
        pool.insert(0, worst)  # back under the pile, not drawn again at once


def _with_hidden_triplets(s: PublicSeat, unseen: list[int], rng: random.Random) -> tuple[Counts, frozenset[int]]:
    """A declared seat's concealed tiles with the triplets it keeps face down (半亮) dealt from the unseen tiles.

    Kinds with three unseen copies that keep its waits where there are such.
    """
    assert s.revealed is not None
    if not s.kou:
        return s.revealed, frozenset()
    counts = list(s.revealed)
    chosen: list[int] = []
    for _ in range(s.kou):
        pool = [k for k in range(NUM_KINDS) if k not in chosen and unseen.count(k) >= 3]
        keeping = [k for k in pool if _kou_keeps(counts, s, k)]
        kind = rng.choice(keeping or pool)
        chosen.append(kind)
        counts[kind] += 3
        for _copy in range(3):
            unseen.remove(kind)
    return tuple(counts), frozenset(chosen)


def _kou_keeps(counts: list[int], s: PublicSeat, kind: int) -> bool:
    """Whether a hidden triplet of ``kind`` keeps the declared waits of the whole hand."""
    trial = list(counts)
    trial[kind] += 3
    return Hand(tuple(trial), s.melds).winning_kinds() == s.waits


def sample_world(view: SeatView, rng: random.Random, progress: bool = False) -> Table:
    """A full table consistent with ``view``: the tiles the seat cannot see dealt from those it has not seen.

    The seat's own tiles, every river, meld and revealed hand, the wall count, the kongs and
    the phase are the view's; each hidden hand gets as many tiles as it holds, the wall the
    rest in a random order. With ``progress`` a hidden hand is not a uniform draw: it is
    dealt, then improved as its owner would have done over its past turns (one draw and one
    return to the pool of unseen tiles per tile in its river, at most ``KEPT_DRAWS``, keeping
    the lowest shanten), so an opponent far into the hand holds a hand about as far on as a
    real one. Another seat's 漏胡 bar is not seen: it starts at none.
    """
    seen = view.seen
    unseen = [k for k in range(NUM_KINDS) for _ in range(COPIES - seen[k])]
    rng.shuffle(unseen)
    # the triplets declared seats keep face down come out of the unseen tiles before any hidden hand is dealt
    declared = {other: _with_hidden_triplets(s, unseen, rng) for other, s in enumerate(view.seats) if other != view.seat and s.revealed is not None}
    seats: list[SeatState] = []
    taken = 0
    adding = view.kind if view.phase == "rob" else None
    for other, s in enumerate(view.seats):
        if other == view.seat:
            seats.append(SeatState(view.concealed, s.melds, s.river, s.liang_dao, s.waits, view.passed, view.ready_on, view.kou))
            continue
        if other in declared:
            concealed, kou = declared[other]
            seats.append(SeatState(concealed, s.melds, s.river, True, s.waits, 0, s.waits, kou))
            continue
        assert not (other == view.turn and view.phase in ("act", "pong")), "a world is sampled for the seat whose turn it is"
        hidden = s.tiles
        if adding is not None and other == view.turn:
            hidden -= 1  # the tile being added to the pong is shown
        counts = [0] * NUM_KINDS
        for kind in unseen[taken : taken + hidden]:
            counts[kind] += 1
        taken += hidden
        if progress:
            rest = unseen[taken:]
            _kept(counts, len(s.melds), len(s.river), rest, rng)
            rng.shuffle(rest)
            unseen[taken:] = rest
        # what the hand waits on between turns, from the dealt tiles only: for the seat adding
        # to its pong (抢杠 phase) that is its hand once the shown tile is in the kong
        ready_on = Hand(tuple(counts), s.melds).winning_kinds()
        if adding is not None and other == view.turn:
            counts[adding] += 1
        seats.append(SeatState(tuple(counts), s.melds, s.river, False, frozenset(), 0, ready_on))
    wall = tuple(unseen[taken:])
    assert len(wall) == view.wall_left, "the unseen tiles are the hidden hands and the wall"
    full_wall = (0,) * view.drawn + wall  # the wall is read from index ``drawn`` on
    dealt = tuple(COPIES - wall.count(k) for k in range(NUM_KINDS))
    return Table(
        view.rules,
        view.dealer,
        (seats[0], seats[1], seats[2]),
        view.phase,
        view.turn,
        view.kind,
        view.drawn,
        view.replacement,
        view.after_kong,
        dealt,
        view.kongs,
        view.wins,
        full_wall,
        view.declared,
        view.base,
        view.piao,
        view.dice,
        view.horses,
    )


class _Forced:
    """A seat's policy that plays ``first`` at its first decision, then defers to ``then``."""

    def __init__(self, first: Action | None, then: Policy) -> None:
        self.first: Action | None | str = first
        self.then = then

    def _take(self) -> Action | None:
        first, self.first = self.first, "done"
        assert not isinstance(first, str)
        return first

    def act(self, view: SeatView) -> Action:
        if self.first != "done":
            choice = self._take()
            assert choice is not None, "passing is a claim, not a turn"
            return choice
        return self.then.act(view)

    def claim(self, view: SeatView) -> Action | None:
        if self.first != "done":
            return self._take()
        return self.then.claim(view)


def rollout(world: Table, seat: int, choice: Action | None, policies: Sequence[Policy], base: int, piao: tuple[int, int, int]) -> tuple[float, int]:
    """``seat``'s net money (in base stakes) and the actions taken when it plays ``choice`` now.

    Everybody plays on by ``policies``.
    """
    seats = list(policies)
    seats[seat] = _Forced(choice, policies[seat])
    state, actions, _ = advance(world, seats)
    return settle_table(state, DEFAULT_PLAYERS, base, piao).nets[seat] / base, len(actions)


def deal_in_chances(view: SeatView, worlds: int = 200, seed: int = 0) -> tuple[float, ...]:
    """For each kind, the share of sampled worlds in which the seat throwing it now lets an opponent win on it.

    A revealed (亮倒) hand's waits are certain; a hidden hand is dealt from the unseen tiles as
    in :func:`sample_world`, so the figure knows the rivers, melds and wall count but not how
    opponents choose their discards. Only allowed discard wins count (屁胡 and 漏胡 refusals apply).
    """
    rng = random.Random(seed)
    hits = [0] * NUM_KINDS
    seat = view.seat
    for _ in range(worlds):
        world = sample_world(view, random.Random(rng.getrandbits(64)))
        dealt_in = set()
        for other in range(3):
            if other == seat:
                continue
            for kind in world.seats[other].ready_on:
                if kind in dealt_in:
                    continue
                offer = replace(world, phase="claim", turn=seat, tile=kind, wins=())
                if claim_win(offer, other) is not None:
                    dealt_in.add(kind)
        for kind in dealt_in:
            hits[kind] += 1
    return tuple(h / worlds for h in hits)


def _estimate(action: Action | None, values: list[float]) -> ChoiceWorth:
    if not values:  # the request's budget ran out before a single world
        return ChoiceWorth(action, 0.0, 0.0, 0)
    mean, se = mean_se(values)
    return ChoiceWorth(action, mean, se, len(values))


def played_worlds(
    view: SeatView,
    choices: Sequence[Action | None],
    seed: int,
    policy_for: Callable[[], Sequence[Policy]],
    *,
    progress: bool = False,
    base: int = 1,
    piao: tuple[int, int, int] = (0, 0, 0),
    go_on: Callable[[int, int], bool] | None = None,
    control: Callable[[Table, Action | None], float] | None = None,
    skip: int = 0,
) -> Iterator[tuple[tuple[float, ...], tuple[float, ...], int]]:
    """Every choice played out on world after world drawn from ``seed``: per world, each choice's result.

    Its ``control`` prediction (empty without one) and the actions played.

    ``go_on(worlds, work)`` is asked before every rollout (the worlds complete and the actions
    played so far); once it says no the loop ends, dropping the world cut short, so every choice
    keeps the same worlds. ``control`` predicts a choice's result from the world before it is
    played (a control variate: :func:`controlled`). ``skip`` passes over the first worlds of the
    seed (played already by other choices), so more worlds for some choices go on from there.
    """
    rng = random.Random(seed)
    worlds = work = 0
    for _ in range(skip):
        rng.getrandbits(64)  # a world played before (by other choices): its draw is passed over
    while True:
        world = sample_world(view, random.Random(rng.getrandbits(64)), progress)
        played = []
        steps_here = 0
        for choice in choices:
            if go_on is not None and not go_on(worlds, work):
                return
            value, steps = rollout(world, view.seat, choice, policy_for(), base, piao)
            played.append(value)
            work += steps
            steps_here += steps
        predicted = tuple(control(world, c) for c in choices) if control is not None else ()
        worlds += 1
        yield tuple(played), predicted, steps_here


def predicted_means(
    view: SeatView, choices: Sequence[Action | None], seed: int, control: Callable[[Table, Action | None], float], worlds: int, progress: bool = False
) -> tuple[tuple[float, ...], ...]:
    """The ``control`` prediction of each choice on ``worlds`` worlds of ``seed`` that are never played out.

    Its mean, for :func:`controlled`.
    """
    rng = random.Random(seed)
    out: list[list[float]] = [[] for _ in choices]
    for _ in range(worlds):
        world = sample_world(view, random.Random(rng.getrandbits(64)), progress)
        for i, choice in enumerate(choices):
            out[i].append(control(world, choice))
    return tuple(tuple(v) for v in out)


def advise(
    view: SeatView,
    policy_for: Callable[[], Sequence[Policy]],
    *,
    seed: int = 0,
    cpu_budget: float = 0.5,
    max_worlds: int = 400,
    min_worlds: int = 16,
    base: int = 1,
    piao: tuple[int, int, int] = (0, 0, 0),
    clock: Callable[[], float] = time.process_time,
    candidates: Sequence[Action | None] | None = None,
    max_actions: int | None = None,
    progress: bool = False,
    budget: Budget | None = None,
    margin: Margin = STOP,
) -> Advice:
    """Estimate each of the view's choices by rollouts on sampled worlds (see the module docstring).

    ``policy_for`` makes the three seats' rollout policies afresh for each world; ``candidates``
    (default: every choice) limits the choices estimated; ``progress`` deals the worlds as
    :func:`sample_world` says. Stops when
    ``max_worlds`` are played, when the work budget ``max_actions`` (actions played in all rollouts:
    the same answer for the same seed on any machine) or the CPU budget is spent — both checked
    before each rollout once two worlds are complete; a world cut short is dropped —, or,
    after ``min_worlds``, when the best choice beats every other clearly by ``margin``. ``budget``
    (a request's one CPU budget, shared with whatever else
    the request computes) is looked at before every rollout, the first ones included: once it has run
    out nothing more is played, so the answer may have fewer than two worlds, or none.
    """
    start = clock()
    seat = view.seat
    options = tuple(candidates) if candidates is not None else view.decision.choices
    if len(options) <= 1:
        only = tuple(ChoiceWorth(a, 0.0, 0.0, 0) for a in options)
        return Advice(seat, only, 0, True, clock() - start)

    def go_on(worlds: int, work: int) -> bool:
        spent = max_actions is not None and work > max_actions
        return not ((worlds >= 2 and (spent or clock() - start > cpu_budget)) or (budget is not None and budget.out_of_time()))

    values: list[list[float]] = [[] for _ in options]
    worlds = work = 0
    clear = False
    for played, _predicted, steps in played_worlds(view, options, seed, policy_for, progress=progress, base=base, piao=piao, go_on=go_on):
        for i, value in enumerate(played):
            values[i].append(value)
        worlds += 1
        work += steps
        if worlds >= min_worlds and separated(values, margin):
            clear = True
            break
        if worlds >= max_worlds:
            break
    estimates = sorted((_estimate(a, v) for a, v in zip(options, values)), key=lambda e: -e.mean)
    results = tuple((a, tuple(v)) for a, v in zip(options, values))
    return Advice(seat, tuple(estimates), worlds, clear, clock() - start, results, work)


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (0 with fewer than two values)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of ``a − b`` over the same worlds."""
    return mean_se([x - y for x, y in zip(a, b)])


def controlled(results: Sequence[float], predicted: Sequence[float], predicted_mean: float, predicted_se: float = 0.0, beta: float = 1.0) -> tuple[float, float]:
    """Mean and standard error of results with a control variate.

    Each result less ``beta`` times its prediction from the same world, plus ``beta`` times the prediction's mean
    (known apart, with its own standard error).
    """
    mean, se = mean_se([r - beta * p for r, p in zip(results, predicted)])
    return mean + beta * predicted_mean, math.sqrt(se**2 + (beta * predicted_se) ** 2)


def control_beta(results: Sequence[float], predicted: Sequence[float], low: float = 0.0, high: float = 1.5) -> float:
    """The coefficient that takes most variance out of ``results`` with ``predicted`` (least squares).

    Kept within [low, high] (0 when it cannot be fitted).
    """
    n = len(results)
    if n < 3:
        return 0.0
    mr, mp = sum(results) / n, sum(predicted) / n
    var = sum((p - mp) ** 2 for p in predicted)
    if var <= 1e-12:
        return 0.0
    cov = sum((r - mr) * (p - mp) for r, p in zip(results, predicted))
    return min(high, max(low, cov / var))


def separated(values: Sequence[Sequence[float]], margin: Margin) -> bool:
    """Whether the best choice (highest mean) beats each other clearly by ``margin``."""
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(values)), key=means.__getitem__)
    return all(margin.between(values[best], other) for i, other in enumerate(values) if i != best)

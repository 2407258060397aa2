"""Bot tournaments: many hands on seeded walls, duplicate seating, and the figures per bot.

Hands come in groups of three on one wall (:func:`schedule`): the same deal, the same
dealer, the seats rotated so every entry of the line-up plays that wall from every seat.
The dealer moves one seat per group, so each entry also deals equally. Luck of the wall
then cancels inside a group, and the groups, being independent, are the units of the
95 % confidence intervals (:func:`summarise`). Hands may be played in several processes;
the results do not depend on how many (each hand depends on its index only).
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from kwx.bots.advised import DecisionCost
from kwx.bots.registry import BOTS, policy_factory
from kwx.processes import in_processes
from kwx.table.selfplay import IllegalChoice, Policy, play, seeded_deal
from kwx.table.table import Action
from kwx.table.view import SeatView

Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True, slots=True)
class Game:
    """One hand of a tournament: its index, wall seed, dealer and which entry sits in each seat."""

    index: int
    group: int
    seed: int
    dealer: int
    entries: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one hand did to each seat (by entry of the line-up), and its record if kept."""

    game: Game
    nets: tuple[int, int, int]
    won: tuple[bool, bool, bool]
    dealt_in: tuple[bool, bool, bool]
    liang_dao: tuple[bool, bool, bool]
    result: str | None
    record: dict[str, Any] | None


def wall_seed(seed: int, group: int) -> int:
    """The seed of group ``group``'s wall in a tournament seeded ``seed``."""
    return seed * 1_000_003 + group


def schedule(hands: int, seed: int) -> Iterator[Game]:
    """The hands of a tournament: groups of three on one wall, seats rotated, dealer moving per group."""
    for index in range(hands):
        group, turn = divmod(index, 3)
        entries = ((0 - turn) % 3, (1 - turn) % 3, (2 - turn) % 3)
        yield Game(index, group, wall_seed(seed, group), group % 3, entries)


class BotFailed(Exception):
    """A bot of the line-up chose what its decision does not allow, or raised.

    The message names the hand, the bot and its seat.
    """


class Guarded:
    """A bot from outside the project, whose exceptions are reported as :class:`BotFailed` naming it and its seat."""

    def __init__(self, name: str, policy: Policy) -> None:
        self.name = name
        self.policy = policy

    def act(self, view: SeatView) -> Action:
        """The bot's own-turn choice."""
        try:
            return self.policy.act(view)
        except Exception as exc:
            raise BotFailed(f"{self.name} in seat {view.seat} raised {type(exc).__name__}: {exc} (in act)") from exc

    def claim(self, view: SeatView) -> Action | None:
        """The bot's claim choice."""
        try:
            return self.policy.claim(view)
        except Exception as exc:
            raise BotFailed(f"{self.name} in seat {view.seat} raised {type(exc).__name__}: {exc} (in claim)") from exc

    @property
    def decisions(self) -> list[DecisionCost]:
        """The decisions the bot recorded, if it records them."""
        return list(getattr(self.policy, "decisions", []))


def make_policy(name: str) -> Policy:
    """A fresh policy for a seat name; a bot from outside comes guarded (:class:`Guarded`)."""
    made = policy_factory(name)()
    return made if name in BOTS else Guarded(name, made)


def play_game(game: Game, lineup: Sequence[str], rules: str, keep_record: bool, policies: dict[str, Policy]) -> Outcome:
    """Play one scheduled hand with the named bots (:class:`BotFailed` names the hand and the bot that broke it)."""
    seated = [lineup[e] for e in game.entries]
    players = tuple(f"{e}:{lineup[e]}"[:20] for e in game.entries)
    where = f"hand {game.index} (wall seed {game.seed}, dealer {game.dealer})"
    try:
        replay = play(seeded_deal(game.seed, game.dealer), [policies[name] for name in seated], rules=rules, players=(players[0], players[1], players[2]))
    except IllegalChoice as exc:
        raise BotFailed(f"{where}: {seated[exc.seat]} in seat {exc.seat}: {exc}") from exc
    except BotFailed as exc:
        raise BotFailed(f"{where}: {exc}") from exc
    f0, f1, f2 = (replay.seat_facts(s) for s in range(3))
    return Outcome(
        game,
        (f0.net, f1.net, f2.net),
        (f0.won, f1.won, f2.won),
        (f0.dealt_in, f1.dealt_in, f2.dealt_in),
        (f0.liang_dao, f1.liang_dao, f2.liang_dao),
        replay.result,
        replay.record.to_json() if keep_record else None,
    )


Chunk = tuple[list[Outcome], float, dict[str, list[DecisionCost]]]


def _play_chunk(args: tuple[list[Game], tuple[str, ...], str, bool]) -> Chunk:
    """Play a list of hands in this process; the outcomes, the CPU seconds they took and the decisions the bots recorded."""
    games, lineup, rules, keep = args
    policies = {name: make_policy(name) for name in sorted(set(lineup))}
    start = time.process_time()
    out = [play_game(g, lineup, rules, keep, policies) for g in games]
    cpu = time.process_time() - start
    return out, cpu, {name: list(getattr(p, "decisions", [])) for name, p in policies.items()}


@dataclass(frozen=True, slots=True)
class Run:
    """The outcomes of a tournament, in hand order, and the time they took."""

    lineup: tuple[str, str, str]
    seed: int
    rules: str
    outcomes: tuple[Outcome, ...]
    cpu_seconds: float
    wall_seconds: float
    jobs: int
    decisions: tuple[tuple[str, tuple[DecisionCost, ...]], ...] = ()
    """Per bot that records them (the advice bot), every decision it made, in hand order."""


def run(hands: int, seed: int, lineup: Sequence[str], rules: str = "standard", jobs: int = 1, keep_records: bool = False, shard: tuple[int, int] = (0, 1)) -> Run:
    """Play a tournament of ``hands`` hands in ``jobs`` processes; the outcomes in hand order.

    With ``shard`` = (``k``, ``n``), only shard ``k`` of ``n``: the wall groups ``g`` with ``g mod n = k``.
    """
    names = tuple(lineup)
    if len(names) != 3:
        raise ValueError(f"a line-up is three bots, not {list(names)}")
    for name in names:
        policy_factory(name)  # an unknown name or a class that is no Policy is refused before any hand is played
    k, n = shard
    if not 0 <= k < n:
        raise ValueError(f"shard {k} of {n}: a shard is from 0 to {n - 1}")
    games = [g for g in schedule(hands, seed) if g.group % n == k]
    size = max(3, 3 * math.ceil(len(games) / (3 * max(1, jobs) * 8)))
    chunks = [(games[i : i + size], names, rules, keep_records) for i in range(0, len(games), size)]
    start = time.perf_counter()
    parts = list(in_processes(_play_chunk, chunks, jobs))
    wall = time.perf_counter() - start
    outcomes = tuple(o for part, _, _ in parts for o in part)
    decisions = tuple((name, tuple(d for _, _, made in parts for d in made[name])) for name in sorted(set(names)))
    return Run(
        (names[0], names[1], names[2]),
        seed,
        rules,
        outcomes,
        sum(cpu for _, cpu, _ in parts),
        wall,
        jobs,
        tuple((name, made) for name, made in decisions if made),
    )


def outcome_json(o: Outcome) -> list[Any]:
    """An outcome (without its record) as a JSON list, for a shard stored by a task."""
    g = o.game
    return [g.index, g.group, g.seed, g.dealer, list(g.entries), list(o.nets), list(o.won), list(o.dealt_in), list(o.liang_dao), o.result]


def outcome_from_json(data: Sequence[Any]) -> Outcome:
    """An outcome from :func:`outcome_json`'s list."""
    index, group, seed, dealer, entries, nets, won, dealt_in, liang_dao, result = data

    def three(values: Sequence[Any], kind: type) -> Any:
        a, b, c = (kind(v) for v in values)
        return (a, b, c)

    return Outcome(Game(int(index), int(group), int(seed), int(dealer), three(entries, int)), three(nets, int), three(won, bool), three(dealt_in, bool), three(liang_dao, bool), result, None)


def decisions_json(run_: Run) -> dict[str, list[list[Any]]]:
    """The decisions the bots recorded, per bot, as JSON lists (kind, CPU seconds, rollout actions, worlds, switched)."""
    return {name: [[d.kind, d.cpu_seconds, d.actions, d.worlds, d.switched] for d in made] for name, made in run_.decisions}


def merged(parts: Sequence[Run]) -> Run:
    """One run from the shards of a tournament (played apart, on other workers).

    Outcomes in hand order, CPU summed, wall time the longest shard's.
    """
    first = parts[0]
    if any((p.lineup, p.seed, p.rules) != (first.lineup, first.seed, first.rules) for p in parts):
        raise ValueError("the shards are of different tournaments")
    outcomes = tuple(sorted((o for p in parts for o in p.outcomes), key=lambda o: o.game.index))
    if len({o.game.index for o in outcomes}) != len(outcomes):
        raise ValueError("two shards played the same hand")
    names = sorted({name for p in parts for name, _ in p.decisions})
    decisions = tuple((name, tuple(d for p in parts for n, made in p.decisions if n == name for d in made)) for name in names)
    return Run(first.lineup, first.seed, first.rules, outcomes, sum(p.cpu_seconds for p in parts), max(p.wall_seconds for p in parts), len(parts), decisions)


def run_from_json(lineup: Sequence[str], seed: int, rules: str, outcomes: Sequence[Any], cpu: float, wall: float, decisions: dict[str, Any]) -> Run:
    """A shard's run from what a task stored (:func:`outcome_json`, :func:`decisions_json`)."""
    made = tuple((name, tuple(DecisionCost(str(k), float(c), int(a), int(w), bool(s)) for k, c, a, w, s in rows)) for name, rows in sorted(decisions.items()))
    a, b, c = lineup
    return Run((a, b, c), seed, rules, tuple(outcome_from_json(o) for o in outcomes), cpu, wall, 1, made)


# ---------------------------------------------------------------- statistics


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its 95 % confidence interval."""

    mean: float
    low: float
    high: float


def interval(values: Sequence[float]) -> Interval:
    """The mean of independent values and its normal 95 % interval (zero width for fewer than two)."""
    mean = statistics.fmean(values) if values else 0.0
    if len(values) < 2:
        return Interval(mean, mean, mean)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Interval(mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class BotFigures:
    """One bot's figures over its seat-hands: points per hand (95 % interval over wall groups) and rates."""

    name: str
    seat_hands: int
    points: Interval
    win_rate: float
    deal_in_rate: float
    liang_dao_rate: float


@dataclass(frozen=True, slots=True)
class Summary:
    """A tournament's figures: per bot, the margin of the first bot over the other, results, speed."""

    hands: int
    groups: int
    bots: tuple[BotFigures, ...]
    margin: tuple[str, str, Interval] | None
    results: tuple[tuple[str, float], ...]
    cpu_rate: float
    wall_rate: float


def _group_means(run_: Run, name: str) -> list[float]:
    """Per wall group, the bot's mean points over its seat-hands in that group."""
    totals: dict[int, list[int]] = {}
    for o in run_.outcomes:
        for seat, entry in enumerate(o.game.entries):
            if run_.lineup[entry] == name:
                totals.setdefault(o.game.group, []).append(o.nets[seat])
    return [statistics.fmean(v) for _, v in sorted(totals.items())]


def entry_group_means(run_: Run, entry: int) -> dict[int, float]:
    """Per wall group, the mean net of line-up entry ``entry`` over its seat-hands in that group (by entry, not by name)."""
    totals: dict[int, list[int]] = {}
    for o in run_.outcomes:
        totals.setdefault(o.game.group, []).append(o.nets[o.game.entries.index(entry)])
    return {g: statistics.fmean(v) for g, v in totals.items()}


@dataclass(frozen=True, slots=True)
class Paired:
    """Two runs on the same walls that differ only in line-up entry 0.

    ``first`` has the bot measured, ``second`` the bot it is compared with.
    """

    first: Run
    second: Run

    @property
    def difference(self) -> Interval:
        """Entry 0's points per hand in ``first`` minus in ``second``, wall group by wall group (the groups are the samples)."""
        a, b = entry_group_means(self.first, 0), entry_group_means(self.second, 0)
        return interval([a[g] - b[g] for g in sorted(a)])


def paired_run(hands: int, seed: int, lineup: Sequence[str], other: str, rules: str = "standard", jobs: int = 1) -> Paired:
    """The line-up, and the same line-up with ``other`` in entry 0's place, on the same walls and seats.

    Each wall from every seat.
    """
    first = run(hands, seed, lineup, rules, jobs)
    second = run(hands, seed, [other, *lineup[1:]], rules, jobs)
    return Paired(first, second)


def paired_lines(paired: Paired) -> list[str]:
    """The paired report: both runs' figures, then entry 0's difference per wall group with its 95 % interval."""
    a, b = paired.first, paired.second
    lines = [f"run 1 of 2 — {line}" if i == 0 else line for i, line in enumerate(report(a, summarise(a)))]
    lines += [f"run 2 of 2 — {line}" if i == 0 else line for i, line in enumerate(report(b, summarise(b)))]
    d = paired.difference
    lines.append(
        f"paired: {a.lineup[0]} − {b.lineup[0]} in the same seat on the same walls: {d.mean:+.3f} points per hand, "
        f"95 % interval [{d.low:+.3f}, {d.high:+.3f}] ({len(entry_group_means(a, 0))} walls, each from every seat)"
    )
    return lines


def summarise(run_: Run) -> Summary:
    """The figures of a run (the intervals treat each wall group as one independent sample)."""
    names = list(dict.fromkeys(run_.lineup))
    figures = []
    means: dict[str, list[float]] = {}
    for name in names:
        seats = [(o, s) for o in run_.outcomes for s, e in enumerate(o.game.entries) if run_.lineup[e] == name]
        n = len(seats) or 1
        means[name] = _group_means(run_, name)
        figures.append(
            BotFigures(
                name,
                len(seats),
                interval(means[name]),
                sum(o.won[s] for o, s in seats) / n,
                sum(o.dealt_in[s] for o, s in seats) / n,
                sum(o.liang_dao[s] for o, s in seats) / n,
            )
        )
    margin = None
    if len(names) == 2:
        a, b = names
        margin = (a, b, interval([x - y for x, y in zip(means[a], means[b])]))
    hands = len(run_.outcomes)
    kinds = ("self_draw", "discard", "rob_kong", "draw")
    results = tuple((k, sum(o.result == k for o in run_.outcomes) / (hands or 1)) for k in kinds)
    groups = len({o.game.group for o in run_.outcomes})
    return Summary(
        hands,
        groups,
        tuple(figures),
        margin,
        results,
        hands / run_.cpu_seconds if run_.cpu_seconds else 0.0,
        hands / run_.wall_seconds if run_.wall_seconds else 0.0,
    )


def _pct(x: float) -> str:
    return f"{100 * x:5.1f} %"


def report(run_: Run, summary: Summary) -> list[str]:
    """The printed report: the figures per bot, the margin, the results and the speed (last line)."""
    lines = [
        f"tournament: {summary.hands} hands on {summary.groups} walls (each wall played from every seat), seed {run_.seed}, rules {run_.rules}, seats {','.join(run_.lineup)}",
        f"{'bot':<8} {'seat-hands':>10} {'points/hand':>11}  {'95 % interval':<17} {'win':>7} {'deal-in':>7} {'亮倒':>7}",
    ]
    for f in summary.bots:
        p = f.points
        lines.append(f"{f.name:<8} {f.seat_hands:>10} {p.mean:>+11.3f}  [{p.low:+.3f}, {p.high:+.3f}] {_pct(f.win_rate):>7} {_pct(f.deal_in_rate):>7} {_pct(f.liang_dao_rate):>7}")
    if summary.margin is not None:
        a, b, m = summary.margin
        lines.append(f"margin {a} − {b}: {m.mean:+.3f} points per hand, 95 % interval [{m.low:+.3f}, {m.high:+.3f}]")
    lines.append("results: " + ", ".join(f"{k} {_pct(v).strip()}" for k, v in summary.results))
    lines.extend(decision_lines(run_))
    lines.append(
        f"speed: {summary.cpu_rate:.1f} hands per CPU second (time.process_time of the hands, summed over "
        f"{run_.jobs} job{'s' if run_.jobs != 1 else ''}), {summary.wall_rate:.1f} hands per wall second"
    )
    return lines


def ending(o: Outcome, seat: int) -> str:
    """How a hand ended for ``seat``: it won, dealt in, another won, or the hand was drawn; the seat hidden or declared (亮倒)."""
    own = "declared" if o.liang_dao[seat] else "hidden"
    if o.won[seat]:
        return f"won by {o.result}, {own}"
    if o.dealt_in[seat]:
        into = "declared" if any(o.liang_dao[w] for w in range(3) if o.won[w]) else "hidden"
        return f"dealt in while {own}, to a {into} hand"
    if any(o.won):
        return f"another won by {o.result}, {own}"
    return f"drawn hand, {own}"


@dataclass(frozen=True, slots=True)
class Ending:
    """One way hands ended for a line-up entry: how many of its seat-hands ended so, and the money they brought it."""

    ending: str
    hands: int
    money: int


def endings(run_: Run, entry: int = 0) -> tuple[Ending, ...]:
    """Line-up entry ``entry``'s seat-hands by how each ended for it (:func:`ending`), the dearest first."""
    hands: Counter[str] = Counter()
    money: Counter[str] = Counter()
    for o in run_.outcomes:
        seat = o.game.entries.index(entry)
        key = ending(o, seat)
        hands[key] += 1
        money[key] += o.nets[seat]
    return tuple(sorted((Ending(k, hands[k], money[k]) for k in hands), key=lambda e: (e.money, e.ending)))


def ending_lines(run_: Run, entry: int = 0) -> list[str]:
    """The printed :func:`endings`: per ending, its share of the entry's seat-hands, money per hand and per such hand."""
    rows = endings(run_, entry)
    total = sum(e.hands for e in rows) or 1
    lines = [f"{run_.lineup[entry]} (seat-hands {total}) by how the hand ended for it: share, money per hand, money per such hand"]
    for e in rows:
        lines.append(f"  {e.ending:<44} {_pct(e.hands / total)} {e.money / total:+8.3f} {e.money / e.hands:+8.2f}")
    lines.append(f"  {'all':<44} {_pct(1.0)} {sum(e.money for e in rows) / total:+8.3f}")
    return lines


def _quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 when empty)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)] if ordered else 0.0


def decision_lines(run_: Run) -> list[str]:
    """Per bot that records its decisions: how many, of which kind, how many switched, and their CPU time.

    The CPU time as median, p95, p99 and max.
    """
    lines = []
    for name, made in run_.decisions:
        rolled = [d for d in made if d.kind != "plain"]
        kinds = Counter(d.kind for d in rolled)
        switched = Counter(d.kind for d in rolled if d.switched)
        every = [1000 * d.cpu_seconds for d in made]
        out = [1000 * d.cpu_seconds for d in rolled]
        lines.append(
            f"{name} decisions: {len(made)}, rolled out {len(rolled)} ("
            + ", ".join(f"{k} {n}, {switched[k]} switched" for k, n in sorted(kinds.items()))
            + f"); CPU per decision median {_quantile(every, 0.5):.1f} ms, p95 {_quantile(every, 0.95):.1f} ms, "
            f"p99 {_quantile(every, 0.99):.1f} ms, max {max(every, default=0):.1f} ms; "
            f"rolled out median {_quantile(out, 0.5):.0f} ms, p95 {_quantile(out, 0.95):.0f} ms, "
            f"max {max(out, default=0):.0f} ms; rollout actions max {max((d.actions for d in rolled), default=0)}"
        )
    return lines

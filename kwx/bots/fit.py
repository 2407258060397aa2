"""``python -m kwx.bots.fit``: measure the strong bot's table figures on self-play of a pool of bots.

The strong bot (docs/bots.md) prices every choice with a few figures about the table — how
likely a hidden opponent is ready, how likely a tile wins for it, how often an opponent
throws a tile one waits on, how fast a hand that is not ready gets there. Each figure here
is counted on hands played by a pool of bots (by default the companion and the strong bot
in every mix), every feature read from a seat's :class:`~kwx.table.view.SeatView` exactly as
the bot reads it. The counts are turned into rates (:func:`tables`) and written as a small
JSON file (``kwx/bots/data/strong.json``), with the command, the seed and the hands that made
it. The hands depend on their index only, so the same seed and hands give the same file with
any number of ``--jobs``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kwx.bots.money import pay
from kwx.bots.strong import Figures, StrongBot, figures_from
from kwx.hand.efficiency import efficiency
from kwx.hand.tiles import COPIES, NUM_KINDS, Hand, add, with_tile
from kwx.processes import in_processes
from kwx.table.record import DEFAULT_PLAYERS, Replay, settle_table
from kwx.table.selfplay import Policy, play, seeded_deal
from kwx.table.table import Action, Table, win_for
from kwx.table.view import SeatView, view_for

PATH = Path(__file__).resolve().parent / "data" / "strong.json"
POOL = ("strong,companion,companion", "strong,strong,companion", "strong,strong,strong", "companion,companion,strong")
"""The line-ups played in turn (hand ``i`` takes line-up ``i mod 4``, the dealer ``i mod 3``)."""
RIVER_MAX = 18
"""River lengths from here on share a row."""
MELDS_MAX = 3
"""Meld counts from here on share a column."""
DRAWS_MAX = 15
"""Own draws left (the wall ÷ 3) from here on share a column."""
UKEIRE_STEP = 4
UKEIRE_MAX = 10
CLASSES = ("5", "19", "28", "3467", "D")
"""Tile classes of the hit table: the fives (卡五星), terminals, 2 and 8, the other middle tiles, dragons."""
FLUSH = ("-", "in", "out")
"""Whether a hidden hand shows a flush (two or more melds, all of one suit) and the tile is in that suit or outside it."""
SEED_STRIDE = 1_000_003


def tile_class(kind: int) -> str:
    """The hit table's class of a kind."""
    if kind >= 18:
        return "D"
    rank = kind % 9 + 1
    return {1: "19", 9: "19", 2: "28", 8: "28", 5: "5"}.get(rank, "3467")


def flush_of(melds: Sequence[Any], kind: int) -> str:
    """``in`` / ``out`` when the melds (two or more) are all of one suit and ``kind`` is in it or not; ``-`` otherwise."""
    suits = {m.kind // 9 for m in melds}
    if len(melds) < 2 or len(suits) != 1 or min(suits) > 1:
        return "-"
    return "in" if kind // 9 == min(suits) else "out"


def river_row(river: int) -> int:
    """The row of a river length."""
    return min(river, RIVER_MAX)


def live_waits(view: SeatView, waits: frozenset[int]) -> int:
    """Copies of ``waits`` the seat of ``view`` has not seen."""
    seen = view.seen
    return sum(COPIES - seen[k] for k in waits)


@dataclass
class Tally:
    """Counts over hands; :meth:`add` merges another (integer counts and float sums in a fixed order)."""

    counts: dict[str, defaultdict[str, float]] = field(default_factory=dict)

    def bump(self, table: str, key: str, value: float = 1.0) -> None:
        """Add ``value`` to ``table[key]``."""
        self.counts.setdefault(table, defaultdict(float))[key] += value

    def add(self, other: Tally) -> None:
        """Merge ``other`` into this tally."""
        for table, counter in other.counts.items():
            mine = self.counts.setdefault(table, defaultdict(float))
            for key, value in counter.items():
                mine[key] += value


def _hit(tally: Tally, state: Table, x: int) -> None:
    """The hit table: whether a discard is an allowed win for hidden ready ``x``.

    For each observer and each kind it has not seen all of.
    """
    s = state.seats[x]
    allowed = set()
    for kind in s.ready_on:
        win = win_for(state.rules, x, s.hand, kind, "discard", "claim", 0, state.drawn, False)
        if win is not None and win.value.allowed:
            allowed.add(kind)
    for y in range(3):
        if y == x:
            continue
        seen = view_for(state, y).seen
        for kind in range(NUM_KINDS):
            unseen = COPIES - seen[kind]
            if unseen <= 0:
                continue
            key = f"{tile_class(kind)}|{int(kind in s.river)}|{flush_of(s.melds, kind)}|{unseen}"
            tally.bump("hit_n", key)
            if kind in allowed:
                tally.bump("hit", key)


def _hand_events(tally: Tally, states: Sequence[Table]) -> None:
    """Count one hand's events (see :func:`tables` for what each table means)."""
    ready_track: dict[int, list[tuple[int, int, int]]] = {0: [], 1: [], 2: []}
    first_ready: dict[int, int] = {}
    kept: set[int] = set()  # hidden ready seats that drew a revealed hand's winning tile and must keep it
    for i in range(1, len(states)):
        prev, state = states[i - 1], states[i]
        if state.wins:
            break
        if state.phase == "act" and prev.phase in ("draw", "claim", "rob"):
            if _draw_events(tally, state):
                kept.add(state.turn)
        if state.phase != "claim" or prev.phase not in ("act", "pong"):
            continue
        x, kind = state.turn, state.tile
        assert kind is not None
        sx = state.seats[x]
        was_locked = prev.seats[x].liang_dao
        if x in kept:
            kept.discard(x)
            tally.bump("keep_n", "all")
            if sx.ready_on:
                tally.bump("keep", "all")
        # an opponent's discard onto each ready seat's waits: the throw table
        for w in range(3):
            if w == x or not prev.seats[w].ready_on:
                continue
            view = view_for(prev, w)
            waits = prev.seats[w].ready_on
            key = f"{'revealed' if prev.seats[w].liang_dao else 'hidden'}|{'locked' if was_locked else 'free'}"
            tally.bump("throw_n", key, live_waits(view, waits) / max(1, view.unseen))
            if kind in waits:
                tally.bump("throw", key)
        if not was_locked:
            row = f"{river_row(len(sx.river))}|{min(len(sx.melds), MELDS_MAX)}"
            tally.bump("reveal_n", row)
            if sx.liang_dao:
                tally.bump("reveal", row)
                for y in range(3):
                    if y != x:
                        _revealed_stats(tally, state, x, y)
            else:
                tally.bump("ready_n", row)
                if sx.ready_on:
                    tally.bump("ready", row)
                    _hit(tally, state, x)
                    _hidden_stats(tally, state, x)
        # how fast a hand that is not ready gets ready: the far table
        view = view_for(state, x)
        eff = efficiency(sx.hand, view.seen, state.rules)
        draws = min(DRAWS_MAX, state.wall_left // 3)
        if eff.shanten == 0 and x not in first_ready:
            first_ready[x] = draws
            tally.bump("first_ready_live", "sum", live_waits(view, sx.ready_on))
            tally.bump("first_ready_live", "n")
        ready_track[x].append((eff.shanten, min(eff.ukeire // UKEIRE_STEP, UKEIRE_MAX), draws))
    for track in ready_track.values():
        for j, (shanten, ukeire, draws) in enumerate(track):
            if shanten < 1:
                continue
            key = f"{min(shanten, 3)}|{ukeire}|{draws}"
            tally.bump("far_n", key)
            later = next((d for s, _, d in track[j + 1 :] if s == 0), None)
            if later is not None:
                tally.bump("far", key)
                tally.bump("far_left", key, later / max(1, draws))


def _draw_events(tally: Tally, state: Table) -> bool:
    """A seat has drawn: whether a ready hand drew one of its waits (the self-draw table).

    True when a hidden ready hand drew another hand's revealed winning tile.
    """
    x = state.turn
    s = state.seats[x]
    assert state.tile is not None
    waits = Hand(with_tile(s.concealed, state.tile, -1), s.melds).winning_kinds()
    view = view_for(state, x)
    seen = list(view.seen)
    seen[state.tile] -= 1  # the drawn tile was unseen before the draw
    unseen = view.unseen + 1
    for other in range(3):  # the draw is another hand's revealed winning tile (a locked drawer must throw it)
        o = state.seats[other]
        if other != x and o.liang_dao:
            key = "locked" if s.liang_dao else "free"
            tally.bump("draw_into_n", key, sum(COPIES - seen[k] for k in o.waits) / unseen)
            if state.tile in o.waits and state.tile not in waits:
                tally.bump("draw_into", key)
    if not waits:
        return False
    live = sum(COPIES - seen[k] for k in waits)
    key = "revealed" if s.liang_dao else "hidden"
    tally.bump("self_n", key, live / unseen)
    if state.tile in waits:
        tally.bump("self", key)
        return False
    return not s.liang_dao and any(state.tile in state.seats[o].waits for o in range(3) if o != x and state.seats[o].liang_dao)


def _revealed_stats(tally: Tally, state: Table, x: int, y: int) -> None:
    """A hand just revealed, seen from ``y``: its live copies and the 包胡 cost per live copy."""
    s = state.seats[x]
    view = view_for(state, y)
    seen = view.seen
    for kind in s.waits:
        live = COPIES - seen[kind]
        if live <= 0:
            continue
        win = win_for(state.rules, x, s.hand, kind, "discard", "claim", 0, state.drawn, True)
        cost = pay(view, win.value, s.hand, kind, self_draw=False, winner=x, payer=y) if win is not None else 0.0
        tally.bump("revealed", "live", live)
        tally.bump("revealed", "cost", live * cost)
    tally.bump("revealed", "n")


def _hidden_stats(tally: Tally, state: Table, x: int) -> None:
    """A hidden ready hand from its own seat: its live copies and what its wins pay.

    Self-draw each; a discard win when allowed.
    """
    s = state.seats[x]
    view = view_for(state, x)
    seen = view.seen
    for kind in s.ready_on:
        live = COPIES - seen[kind]
        if live <= 0:
            continue
        own = win_for(state.rules, x, s.hand, kind, "self_draw", "act", 0, state.drawn, False)
        other = win_for(state.rules, x, s.hand, kind, "discard", "claim", 0, state.drawn, False)
        tally.bump("hidden", "live", live)
        tally.bump("hidden", "self", live * (own.value.total if own is not None else 0))
        if other is not None and other.value.allowed:
            tally.bump("hidden", "discard_live", live)
            tally.bump("hidden", "discard", live * other.value.total)
    tally.bump("hidden", "n")


class Recorder(StrongBot):
    """The strong bot, noting for each of its discards the kind of hand it keeps and the model's money for it.

    Its notes are the calibration's samples.
    """

    def __init__(self, figures: Figures) -> None:
        super().__init__(figures=figures)
        self.notes: list[tuple[int, int, str, float]] = []

    def act(self, view: SeatView) -> Action:
        """The strong bot's action, noted when it is a discard of an unlocked hand."""
        action = super().act(view)
        if action.verb == "discard" and not view.me.liang_dao:
            look = self.outlook(view)
            after = Hand(with_tile(view.concealed, action.kind, -1), view.me.melds)
            kind, hidden, declared = look.raw_worth(after, efficiency(after, add(after.held, view.visible), view.rules))
            if kind == "ready":
                kind, money = ("declared", declared) if action.liang_dao else ("hidden", hidden)
                assert money is not None
            else:
                money = hidden
            self.notes.append((view.seat, view.drawn, f"{kind}|{look.revealed}", money))
        return action


def made_from(done: Replay) -> Callable[[int, int], int]:
    """What seat ``seat`` made in the hand from the first state with ``drawn`` tiles drawn on.

    Kong money made before left out.
    """
    nets = done.settlement.nets
    by_drawn: dict[int, Table] = {}
    for state in done.states:
        by_drawn.setdefault(state.drawn, state)

    def made(seat: int, drawn: int) -> int:
        state = by_drawn[drawn]
        banked = settle_table(state, DEFAULT_PLAYERS, 1, (0, 0, 0)).nets[seat] if state.kongs else 0
        return nets[seat] - banked

    return made


def _samples(tally: Tally, done: Replay, notes: list[tuple[int, int, str, float]]) -> None:
    """The calibration's samples of one hand.

    Per noted discard, the model's money against the money the seat made from then on (kong money made before left
    out; a discard won on at once left out).
    """
    final = done.final
    made = made_from(done)
    for seat, drawn, cell, money in notes:
        if done.result == "discard" and final.turn == seat and final.drawn == drawn:
            continue
        actual = made(seat, drawn)
        tally.bump("cal_n", cell)
        tally.bump("cal_x", cell, money)
        tally.bump("cal_y", cell, actual)
        tally.bump("cal_xx", cell, money * money)
        tally.bump("cal_xy", cell, money * actual)


def _chunk(args: tuple[int, int, int, tuple[str, ...], Figures | None]) -> Tally:
    """Play hands ``start`` … ``stop − 1`` of a round of the fit and count their events.

    With figures, the strong bot's calibration samples too.
    """
    start, stop, seed, pool, figures = args
    from kwx.bots.registry import policy_factory

    names = sorted({n for lineup in pool for n in lineup.split(",")})
    recorder = Recorder(figures) if figures is not None else None
    policies: dict[str, Policy] = {n: recorder if n == "strong" and recorder is not None else policy_factory(n)() for n in names}
    tally = Tally()
    for index in range(start, stop):
        lineup = pool[index % len(pool)].split(",")
        done = play(seeded_deal(seed * SEED_STRIDE + index, index % 3), [policies[n] for n in lineup])
        _hand_events(tally, done.states)
        if recorder is not None:
            _samples(tally, done, recorder.notes)
            recorder.notes.clear()
    return tally


CHUNK = 250
"""Hands per unit of work (fixed, so the sums are added in the same order with any number of jobs)."""


def count(hands: int, seed: int, pool: Sequence[str] = POOL, jobs: int = 1, figures: Figures | None = None) -> Tally:
    """Play ``hands`` hands of the pool and count their events.

    The strong bot plays with ``figures``, noting its calibration samples.
    """
    parts = in_processes(_chunk, [(i, min(hands, i + CHUNK), seed, tuple(pool), figures) for i in range(0, hands, CHUNK)], jobs)
    tally = Tally()
    for part in parts:
        tally.add(part)
    return tally


PRIOR = 20.0
"""Weight (in samples) of the coarser estimate a sparse cell is pulled towards."""


def _rate(hits: float, n: float, prior: float, weight: float = PRIOR) -> float:
    return (hits + weight * prior) / (n + weight)


def _ratio(c: defaultdict[str, float], a: str, b: str) -> float:
    return c[a] / c[b] if c[b] else 0.0


def tables(tally: Tally) -> dict[str, Any]:
    """The fitted figures (rates rounded to 4 places; each sparse cell pulled towards its row's or table's mean)."""
    c = tally.counts

    def get(name: str) -> defaultdict[str, float]:
        return c.get(name, defaultdict(float))

    out: dict[str, Any] = {}
    for name in ("ready", "reveal"):
        hits, n = get(name), get(f"{name}_n")
        rows: list[list[float]] = []
        for r in range(RIVER_MAX + 1):
            row = []
            for m in range(MELDS_MAX + 1):
                key = f"{r}|{m}"
                prior = rows[-1][m] if rows else 0.0  # the same meld count one river row earlier
                row.append(round(_rate(hits[key], n[key], prior), 4))
            rows.append(row)
        out[name] = rows
    hits, n = get("hit"), get("hit_n")
    base = sum(hits.values()) / max(1.0, sum(n.values()))
    by_class = {cl: _rate(sum(v for k, v in hits.items() if k.startswith(cl + "|")), sum(v for k, v in n.items() if k.startswith(cl + "|")), base) for cl in CLASSES}
    hit: dict[str, float] = {}
    for cl in CLASSES:
        for river in (0, 1):
            for flush in FLUSH:
                for unseen in range(1, COPIES + 1):
                    key = f"{cl}|{river}|{flush}|{unseen}"
                    hit[key] = round(_rate(hits[key], n[key], by_class[cl] * (0.15 if river else 1.0)), 5)
    out["hit"] = hit
    throw, throw_n = get("throw"), get("throw_n")
    out["throw"] = {key: round(throw[key] / throw_n[key], 4) for key in sorted(throw_n) if throw_n[key]}
    into, into_n = get("draw_into"), get("draw_into_n")
    out["draw_into"] = {key: round(into[key] / into_n[key], 4) for key in sorted(into_n) if into_n[key]}
    own, own_n = get("self"), get("self_n")
    out["self_draw"] = {key: round(own[key] / own_n[key], 4) for key in sorted(own_n) if own_n[key]}
    rev, hid = get("revealed"), get("hidden")
    out["revealed_live"] = round(_ratio(rev, "live", "n"), 3)
    out["revealed_cost"] = round(_ratio(rev, "cost", "live"), 3)
    out["hidden_live"] = round(_ratio(hid, "live", "n"), 3)
    out["hidden_self_total"] = round(_ratio(hid, "self", "live"), 3)
    out["hidden_discard_total"] = round(_ratio(hid, "discard", "discard_live"), 3)
    out["hidden_discard_share"] = round(_ratio(hid, "discard_live", "live"), 4)
    keep, keep_n = get("keep"), get("keep_n")
    out["keep_ready"] = round(keep["all"] / keep_n["all"] if keep_n["all"] else 0.0, 4)
    first = get("first_ready_live")
    out["first_ready_live"] = round(_ratio(first, "sum", "n"), 3)
    far, far_n, far_left = get("far"), get("far_n"), get("far_left")
    far_table: dict[str, list[list[float]]] = {}
    left_table: dict[str, list[list[float]]] = {}
    for s in (1, 2, 3):
        rows, lefts = [], []
        for u in range(UKEIRE_MAX + 1):
            row, left = [], []
            for d in range(DRAWS_MAX + 1):
                key = f"{s}|{u}|{d}"
                prior = row[-1] if row else 0.0  # one draw fewer
                if rows:
                    prior = max(prior, rows[-1][d]) if d else prior  # fewer effective tiles get ready no sooner
                row.append(round(_rate(far[key], far_n[key], prior, 5.0), 4))
                left.append(round(_rate(far_left[key], far[key], 0.5, 5.0), 4))
            rows.append(row)
            lefts.append(left)
        far_table[str(s)] = rows
        left_table[str(s)] = lefts
    out["far"] = far_table
    out["far_left"] = left_table
    return out


BOOTSTRAP = ("companion,companion,companion",)
"""Round 0's line-up: the companion alone, so the first figures need no strong bot."""
CAL_PRIOR = 200.0
"""Weight (in samples) pulling a calibration cell towards no change (intercept 0, slope 1)."""


def calibration(tally: Tally) -> dict[str, list[float]]:
    """Per cell, the intercept and slope of the measured money on the model's (least squares, pulled towards 0 and 1)."""
    c = tally.counts
    n, x, y, xx, xy = (c.get(k, defaultdict(float)) for k in ("cal_n", "cal_x", "cal_y", "cal_xx", "cal_xy"))
    out = {}
    for cell in sorted(n):
        a11, a12, a22 = n[cell] + CAL_PRIOR, x[cell], xx[cell] + CAL_PRIOR
        b1, b2 = y[cell], xy[cell] + CAL_PRIOR
        det = a11 * a22 - a12 * a12
        out[cell] = [round((b1 * a22 - a12 * b2) / det, 4), round((a11 * b2 - a12 * b1) / det, 4)]
    return out


def fit(hands: int, seed: int, rounds: int = 2, pool: Sequence[str] = POOL, jobs: int = 1, log: Any = None) -> dict[str, Any]:
    """The figures and calibration, from ``rounds`` + 1 rounds of ``hands`` hands each.

    Round ``r`` on walls of seed ``seed + r``.

    Round 0 plays the companion alone and counts the first figures; each later round plays
    the pool with the strong bot using the figures and calibration of the round before,
    counts the next figures and fits the calibration of the figures it played with. The last
    round's calibration and the figures it played with are the result.
    """
    made = tables(count(hands, seed, BOOTSTRAP, jobs))
    made["calibration"] = {}
    for r in range(1, rounds + 1):
        if log is not None:
            print(f"round {r} of {rounds}", file=log, flush=True)
        tally = count(hands, seed + r, pool, jobs, figures_from(made))
        cal = calibration(tally)
        if r < rounds:
            made = tables(tally)
        made["calibration"] = cal
    made["meta"] = {
        "command": f"python -m kwx.bots.fit --hands {hands} --seed {seed} --rounds {rounds}" + ("" if tuple(pool) == POOL else f" --pool {'/'.join(pool)}"),
        "hands": hands,
        "seed": seed,
        "rounds": rounds,
        "pool": list(pool),
    }
    return made


def dumps(data: dict[str, Any]) -> str:
    """The JSON text of a fit: one figure or table a line, keys sorted."""
    lines = [f"{json.dumps(key)}: {json.dumps(data[key], sort_keys=True, ensure_ascii=False)}" for key in sorted(data)]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``--hands N --seed S [--jobs J] [--out PATH] [--pool L1/L2/…]``."""
    parser = argparse.ArgumentParser(prog="python -m kwx.bots.fit", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2400)
    parser.add_argument("--rounds", type=int, default=2, help="rounds with the strong bot after the companion's round 0")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pool", default="/".join(POOL), help="line-ups separated by '/', each three bot names")
    parser.add_argument("--out", default=str(PATH))
    args = parser.parse_args(argv)
    pool = tuple(args.pool.split("/"))
    if args.hands < 1 or args.rounds < 1 or any(len(p.split(",")) != 3 for p in pool):
        parser.error("--hands and --rounds must be at least 1 and each --pool line-up three bots")
    data = fit(args.hands, args.seed, args.rounds, pool, args.jobs, log=sys.stderr)
    Path(args.out).write_text(dumps(data), encoding="utf-8")
    print(f"wrote {args.out}: {args.hands} hands, seed {args.seed}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

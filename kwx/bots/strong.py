"""The strong bot: plays for money, pricing each choice with figures measured on self-play (docs/bots.md).

Every choice is scored in money (units of the base stake) from what its seat can see, by
one model of the rest of the hand, round by round (:class:`Outlook`): in each round the
seat draws (a self-draw with a measured chance per live copy of its waits), each opponent
draws and throws (one of the seat's waits with a measured chance that depends on whether
the seat has revealed its hand and whether the opponent is locked by 亮倒), an opponent may
win first (a revealed one from its known waits, a hidden one as likely as the measured
share of hidden hands ready at its river length and melds), and a hidden opponent may
reveal (the measured share that declares at that point). A locked (亮倒) seat throws every
tile it draws, into the revealed waits and, with the measured chance, into hidden ready
hands. The figures come from ``kwx/bots/data/strong.json``, fitted by ``python -m
kwx.bots.fit`` on hands of a pool of bots (the companion and this bot in every mix).

- **a ready hand** (:meth:`Outlook.ready_worth`) is worth its expected wins (self-draw: both
  opponents pay; discard: the discarder pays, 屁胡 never on a discard while hidden; 亮倒
  doubles every win and makes a discard win 包胡) less its forced deal-ins when locked, plus
  the payments to the opponents' self-draws its own win prevents, and the 荒庄 payment of 亮倒;
- **a hand not yet ready** (:meth:`Outlook.far_worth`) is worth the measured chance that a
  hand of its shanten and live effective tiles gets ready in the draws left, times the worth
  of a typical ready hand (the measured live copies of a first ready hand; ×4 toward 清一色) at
  the measured point of the hand it gets there;
- **a discard** costs the chance it wins for a hidden opponent (the measured share of hidden
  hands ready × the measured chance a tile of its class, seen or not in that opponent's
  river, wins there); a tile a revealed opponent wins on is never thrown while another
  discard is allowed;
- **亮倒, kongs and pongs** compare the same worths of the hands they leave (a kong adds its
  money, less the chance the tile is robbed and the 杠上炮 risk of the discard after it).

It takes every win it is allowed (a self-draw always; a discard win whenever the table
allows it: 漏胡 is the table's to refuse). It uses no randomness, so a seed fixes its play.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from math import ceil
from pathlib import Path
from typing import Any

from kwx.bots.money import pay
from kwx.hand.danger import revealed_rules
from kwx.hand.efficiency import Efficiency, discard_options, efficiency, ready_discards
from kwx.hand.money import KONG_MONEY
from kwx.hand.rules import Rules
from kwx.hand.scoring import score_win
from kwx.hand.tiles import COPIES, NUM_KINDS, Hand, with_tile
from kwx.table.table import Action
from kwx.table.view import SeatView

DATA = Path(__file__).resolve().parent / "data" / "strong.json"


@dataclass(frozen=True, eq=False)
class Figures:
    """The measured figures the model uses (``python -m kwx.bots.fit`` writes them; docs/bots.md lists them)."""

    ready: tuple[tuple[float, ...], ...]
    """Share of hidden hands that are ready, by river length (row) and melds (column)."""
    reveal: tuple[tuple[float, ...], ...]
    """Share of hidden hands that declare 亮倒 with the discard that makes their river this long, by melds."""
    hit: dict[str, float]
    """Chance a kind is an allowed discard win for a hidden ready hand, by ``class|in its river|flush|copies unseen``."""
    throw: dict[str, float]
    """Chance per opponent turn that it throws one of a seat's waits, per live copy ÷ unseen tiles, by ``hidden|free`` …"""
    self_draw: dict[str, float]
    """Chance per own draw of a self-draw, per live copy ÷ unseen tiles, ``hidden`` / ``revealed``."""
    draw_into: dict[str, float]
    """Chance per draw of drawing a revealed hand's winning tile (not one's own), per live copy ÷ unseen tiles, by ``locked`` / ``free`` drawer."""
    revealed_live: float
    """Live copies of a newly revealed hand's waits, seen from an opponent."""
    revealed_cost: float
    """What dealing into a revealed hand costs, per live copy (包胡: 2 × its discard total)."""
    hidden_live: float
    """Live copies of a hidden ready hand's waits (its own count)."""
    hidden_self_total: float
    """The self-draw total of a hidden ready hand's wins, per live copy."""
    hidden_discard_total: float
    """The discard total of a hidden ready hand's allowed discard wins, per live copy."""
    hidden_discard_share: float
    """Share of a hidden ready hand's live copies on which a discard win is allowed (it needs a fan)."""
    first_ready_live: float
    """Live copies of a hand's waits when it first gets ready."""
    keep_ready: float
    """Share of hidden ready hands still ready after drawing a revealed hand's winning tile (kept, not thrown)."""
    far: dict[str, tuple[tuple[float, ...], ...]]
    """Chance to get ready before the hand ends, by shanten, effective tiles ÷ 4 (row) and own draws left (column)."""
    far_left: dict[str, tuple[tuple[float, ...], ...]]
    """Share of those draws still left when it gets ready."""
    calibration: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Per kind of hand (``far1`` … ``far3``, ``hidden``, ``declared``) and revealed opponents (``|0`` … ``|2``): intercept and slope mapping the model's money to the money measured on self-play."""


def _tuple2(rows: Any) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(x) for x in row) for row in rows)


@lru_cache(maxsize=4)
def load_figures(path: str = str(DATA)) -> Figures:
    """The fitted figures shipped with the bot (or another fit's file)."""
    return figures_from(json.loads(Path(path).read_text(encoding="utf-8")))


def figures_from(data: dict[str, Any]) -> Figures:
    """Figures from their JSON form (what ``python -m kwx.bots.fit`` writes)."""
    return Figures(
        ready=_tuple2(data["ready"]),
        reveal=_tuple2(data["reveal"]),
        hit={k: float(v) for k, v in data["hit"].items()},
        throw={k: float(v) for k, v in data["throw"].items()},
        self_draw={k: float(v) for k, v in data["self_draw"].items()},
        draw_into={k: float(v) for k, v in data.get("draw_into", {}).items()},
        revealed_live=float(data["revealed_live"]),
        revealed_cost=float(data["revealed_cost"]),
        hidden_live=float(data["hidden_live"]),
        hidden_self_total=float(data["hidden_self_total"]),
        hidden_discard_total=float(data["hidden_discard_total"]),
        hidden_discard_share=float(data["hidden_discard_share"]),
        first_ready_live=float(data["first_ready_live"]),
        keep_ready=float(data.get("keep_ready", 0.0)),
        far={k: _tuple2(v) for k, v in data["far"].items()},
        far_left={k: _tuple2(v) for k, v in data["far_left"].items()},
        calibration={k: (float(v[0]), float(v[1])) for k, v in data.get("calibration", {}).items()},
    )


@dataclass(frozen=True, slots=True)
class Weights:
    """The strong bot's switches (the figures themselves are measured: :class:`Figures`)."""

    declare: bool = True
    """Declare 亮倒 at all (off only to measure what it is worth)."""
    flush_total: float = 4.0
    """The multiplier of a hand all in one suit (清一色, kwx-rules §3), for hands not yet ready."""
    pass_margin: float = float("inf")
    """Pass a discard win when keeping the hand is worth this many times the win (inf: never pass)."""
    figures: str = str(DATA)
    """The fitted figures' file."""


DEFAULT = Weights()


@lru_cache(maxsize=32)
def _liang_rules(rules: Rules) -> Rules:
    return revealed_rules(rules)


def tile_class(kind: int) -> str:
    """The hit table's class of a kind: ``5``, ``19``, ``28``, ``3467`` or ``D`` (dragons)."""
    if kind >= 18:
        return "D"
    rank = kind % 9 + 1
    return {1: "19", 9: "19", 2: "28", 8: "28", 5: "5"}.get(rank, "3467")


_CLASS = tuple(tile_class(k) for k in range(NUM_KINDS))


def flush_of(melds: tuple[Any, ...], kind: int) -> str:
    """``in`` / ``out`` when two or more melds are all of one suit and ``kind`` is in that suit or not; ``-`` otherwise."""
    suits = {m.kind // 9 for m in melds}
    if len(melds) < 2 or len(suits) != 1 or min(suits) > 1:
        return "-"
    return "in" if kind // 9 == min(suits) else "out"


def _bilinear(table: tuple[tuple[float, ...], ...], row: float, column: float) -> float:
    """``table`` read between its cells: rows and columns at whole numbers, clamped at the edges."""
    r = min(max(row, 0.0), len(table) - 1.0)
    c = min(max(column, 0.0), len(table[0]) - 1.0)
    r0, c0 = int(r), int(c)
    r1, c1 = min(r0 + 1, len(table) - 1), min(c0 + 1, len(table[0]) - 1)
    fr, fc = r - r0, c - c0
    top = table[r0][c0] * (1 - fc) + table[r0][c1] * fc
    bottom = table[r1][c0] * (1 - fc) + table[r1][c1] * fc
    return top * (1 - fr) + bottom * fr


@lru_cache(maxsize=64)
def _columns(figures: Figures, melds: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The ready and reveal tables' columns for a meld count (by river length)."""
    ready = tuple(row[min(melds, len(row) - 1)] for row in figures.ready)
    reveal = tuple(row[min(melds, len(row) - 1)] for row in figures.reveal)
    return ready, reveal


def _row(table: tuple[tuple[float, ...], ...], river: int, melds: int) -> float:
    row = table[min(river, len(table) - 1)]
    return row[min(melds, len(row) - 1)]


@dataclass(frozen=True, slots=True)
class Rival:
    """One opponent as the seat sees it.

    Revealed with its live waits, 包胡 cost and self-draw pay per live copy, or hidden with its river and melds.
    """

    revealed: bool
    live: float
    cost: float
    self_pay: float
    river: int
    melds: int


def _rival(view: SeatView, other: int, figures: Figures) -> Rival:
    s = view.seats[other]
    if not s.liang_dao or s.revealed is None:
        return Rival(False, 0.0, 0.0, 0.0, len(s.river), len(s.melds))
    seen = view.seen
    hand = view.revealed_hand(other)
    assert hand is not None
    rules = _liang_rules(view.rules)
    live = cost = paid = 0.0
    for kind in s.waits:
        n = COPIES - seen[kind]
        if n <= 0:
            continue
        values = score_win(hand, kind, rules)
        if values is None:
            continue
        live += n
        cost += n * pay(view, values[1], hand, kind, self_draw=False, winner=other, payer=view.seat)
        paid += n * pay(view, values[0], hand, kind, self_draw=True, winner=other, payer=view.seat)
    return Rival(True, live, cost / live if live else 0.0, paid / live if live else 0.0, len(s.river), len(s.melds))


@dataclass(frozen=True, slots=True)
class Round:
    """What one round of the rest of the hand holds, before the seat's own choice.

    The weight of the round (a last partial one), how often the opponents throw the seat's waits (hidden,
    revealed), the seat's forced deal-in chance and cost when locked, the opponents' wins that end the hand (all,
    and what the seat pays on them), a hidden seat's chance of drawing a revealed wait that breaks it.
    """

    weight: float
    throw_hidden: float
    throw_revealed: float
    lock_chance: float
    lock_cost: float
    end: float
    end_pay: float
    broken: float


@dataclass
class Outlook:
    """The model of the rest of the hand for one view (see the module docstring).

    Worths are relative to the seat never winning.
    """

    view: SeatView
    weights: Weights
    figures: Figures
    unseen: int
    draws: float
    rivals: tuple[Rival, Rival]
    rounds: tuple[Round, ...]
    huang: tuple[float, tuple[float, float], tuple[float, float]]
    """The drawn hand's money for the seat (by the rules' ``hua_zhuang``): not ready; ready and hidden; ready and declared — each of
    the last two as ``a + b × own pay`` (查大叫 collects the hand's best win from each lower-ranked seat). Legacy: +1 from each
    declarer, −1 to each non-declarer."""
    _cache: dict[Any, float] = field(default_factory=dict)
    _cache_lists: dict[str, list[float]] = field(default_factory=dict)
    _cache_steps: dict[str, list[tuple[float, float, float, float, float, float, float]]] = field(default_factory=dict)

    # ------------------------------------------------------------ ready hands

    def baseline(self) -> float:
        """The seat's expected money if it never wins: its payments to the opponents' self-draws and the 荒庄 money of a hidden hand."""
        return self._never(0)

    def path(self, self_rate: float, own_pay: float, disc_rate: float, disc_pay: float, declared: bool, start: int = 0) -> float:
        """Expected money from round ``start`` on of a ready hand.

        Per round a self-draw chance ``self_rate`` paying ``own_pay`` from each opponent, discards onto it at
        ``disc_rate`` × the opponents' throw factor paying ``disc_pay``; less the baseline of never winning.
        """
        gain = self_rate * 2 * own_pay
        alive = 1.0
        money = 0.0
        for w, throw, lose, lose_cost, broken, end, end_pay in self._steps(declared)[start:]:
            thrown = throw * disc_rate
            money += alive * w * (gain + thrown * disc_pay - lose_cost - end_pay)
            alive *= 1.0 - w * min(1.0, self_rate + thrown + lose + end + broken)
        a, b = self.huang[2] if declared else self.huang[1]
        money += alive * (a + b * own_pay)
        return money - self._never(start)

    def _steps(self, declared: bool) -> list[tuple[float, float, float, float, float, float, float]]:
        """Per round, what :meth:`path` reads of it for a hidden or a declared hand.

        Weight, throw factor, forced deal-in chance and cost, breaking chance, end chance and payment.
        """
        key = "declared" if declared else "hidden"
        if key not in self._cache_steps:
            self._cache_steps[key] = [
                (r.weight, r.throw_revealed, r.lock_chance, r.lock_cost, 0.0, r.end, r.end_pay) if declared else (r.weight, r.throw_hidden, 0.0, 0.0, r.broken, r.end, r.end_pay) for r in self.rounds
            ]
        return self._cache_steps[key]

    def _never(self, start: int) -> float:
        """The baseline of never winning from round ``start`` on (what :meth:`path` subtracts)."""
        key = ("never", start)
        if key not in self._cache:
            alive, money = 1.0, 0.0
            for r in self.rounds[start:]:
                money -= alive * r.weight * r.end_pay
                alive *= 1.0 - r.weight * min(1.0, r.end)
            self._cache[key] = money + alive * self.huang[0]
        return self._cache[key]

    def ready_worth(self, hand: Hand, eff: Efficiency, declared: bool, start: int = 0) -> float:
        """The worth of a ready 13-tile hand, kept hidden or declared (亮倒: every win ×2, a discard win 包胡)."""
        u = float(self.unseen)
        f = self.figures
        view = self.view
        live = own = disc_live = disc = 0.0
        rules = _liang_rules(view.rules) if declared else None
        me, (one, two) = view.seat, view.others()
        for wait in eff.waits:
            n = wait.remaining
            if not n:
                continue
            if rules is not None:
                values = score_win(hand, wait.kind, rules)
                assert values is not None
                self_value, disc_value = values
            else:
                self_value, disc_value = wait.self_draw, wait.discard
            kind = wait.kind
            self_total = (
                pay(view, self_value, hand, kind, self_draw=True, winner=me, payer=one, winner_declared=declared)
                + pay(view, self_value, hand, kind, self_draw=True, winner=me, payer=two, winner_declared=declared)
            ) / 2
            disc_total = (
                pay(view, disc_value, hand, kind, self_draw=False, winner=me, payer=one, winner_declared=declared)
                + pay(view, disc_value, hand, kind, self_draw=False, winner=me, payer=two, winner_declared=declared)
            ) / 2
            live += n
            own += n * self_total
            if disc_total:
                disc_live += n
                disc += n * disc_total
        if not live:
            return self.path(0.0, 0.0, 0.0, 0.0, declared, start)
        key = "revealed" if declared else "hidden"
        self_rate = f.self_draw.get(key, 1.0) * live / u
        return self.path(self_rate, own / live, disc_live / u, disc / disc_live if disc_live else 0.0, declared, start)

    def typical_worth(self, total: float, start: int) -> float:
        """The worth of a typical hand that gets ready at round ``start``: the measured live copies, ×``total``.

        Hidden or declared, the better.
        """
        key = ("typical", total, start)
        if key not in self._cache:
            f = self.figures
            u = float(self.unseen)
            live = f.first_ready_live
            self_rate_h = f.self_draw.get("hidden", 1.0) * live / u
            self_rate_r = f.self_draw.get("revealed", 1.0) * live / u
            if total > 1:  # a flush wins on a discard too
                hidden = self.path(self_rate_h, total, live / u, total, False, start)
            else:
                share = f.hidden_discard_share
                hidden = self.path(self_rate_h, f.hidden_self_total, share * live / u, f.hidden_discard_total, False, start)
            big = max(total, f.hidden_self_total)
            declared = self.path(self_rate_r, 2 * big, live / u, 4 * big, True, start) if self.weights.declare else hidden
            self._cache[key] = max(hidden, declared)
        return self._cache[key]

    def far_worth(self, hand: Hand, eff: Efficiency) -> float:
        """The worth of a hand not yet ready: the measured chance to get ready in the draws left, times a typical ready hand then."""
        chance, start = self.far_chance(eff)
        if chance <= 0:
            return 0.0
        return chance * self.typical_worth(far_total(hand, self.weights), start)

    def far_chance(self, eff: Efficiency) -> tuple[float, int]:
        """The measured chance that a hand not yet ready gets ready in the draws left, and the round it gets there then."""
        if eff.ukeire == 0 or not self.rounds:
            return 0.0, 0
        f = self.figures
        table, lefts = f.far[str(min(eff.shanten, 3))], f.far_left[str(min(eff.shanten, 3))]
        chance = _bilinear(table, (eff.ukeire - 1.5) / 4, self.draws - 0.5)
        left = self.draws * _bilinear(lefts, (eff.ukeire - 1.5) / 4, self.draws - 0.5)
        return chance, max(0, min(len(self.rounds) - 1, int(len(self.rounds) - ceil(left))))

    def drawn_worth(self, hand: Hand, eff: Efficiency, start: int) -> float:
        """The worth at round ``start`` of the ready hands a hand one tile from ready makes.

        Each live effective draw's best ready discard (hidden or 亮倒), weighted by its live copies (the judge's
        evaluator reads it).
        """
        key = ("drawn", hand.concealed, hand.melds, eff.left, start)
        if key not in self._cache:
            visible = tuple(COPIES - h - n for h, n in zip(hand.held, eff.left))
            rules = self.view.rules
            total = weight = 0.0
            for kind in eff.kinds:
                n = eff.left[kind]
                if n <= 0:
                    continue
                drawn = Hand(with_tile(hand.concealed, kind, 1), hand.melds)
                best = 0.0
                for option in ready_discards(drawn, visible, rules):
                    best = max(best, self._best_ready(Hand(with_tile(drawn.concealed, option.discard, -1), hand.melds), option.result, start))
                total += n * best
                weight += n
            self._cache[key] = total / weight if weight else 0.0
        return self._cache[key]

    def _best_ready(self, hand: Hand, eff: Efficiency, start: int) -> float:
        """The better of a ready hand's worths at round ``start``, hidden and declared.

        Kept per hand and live copies of its waits: the draws of several discards reach the same hands.
        """
        key = ("ready", hand.concealed, tuple(w.remaining for w in eff.waits), start)
        if key not in self._cache:
            worth = self.ready_worth(hand, eff, False, start)
            if self.weights.declare:
                worth = max(worth, self.ready_worth(hand, eff, True, start))
            self._cache[key] = worth
        return self._cache[key]

    def raw_worth(self, hand: Hand, eff: Efficiency) -> tuple[str, float, float | None]:
        """The model's money for a 13-tile hand (the seat's whole expected money from now).

        Kept hidden and declared 亮倒 (None: not ready), with the kind of hand it is (``far1`` … ``far3``, ``ready``).
        """
        base = self.baseline()
        if eff.shanten > 0:
            return f"far{min(eff.shanten, 3)}", self.far_worth(hand, eff) + base, None
        if eff.shanten < 0 or not eff.waits:
            return "far1", base, None
        return "ready", self.ready_worth(hand, eff, False) + base, self.ready_worth(hand, eff, True) + base

    def calibrated(self, kind: str, money: float) -> float:
        """The model's money for a hand of ``kind`` mapped by the measured calibration (identity where none is fitted)."""
        a, b = self.figures.calibration.get(f"{kind}|{self.revealed}", (0.0, 1.0))
        return a + b * money

    @property
    def revealed(self) -> int:
        """How many opponents have revealed their hands."""
        return sum(r.revealed for r in self.rivals)

    def hand_worth(self, hand: Hand, eff: Efficiency) -> tuple[float, float | None]:
        """The seat's expected money with a 13-tile hand kept hidden, and declared 亮倒 (None: not ready), calibrated."""
        kind, hidden, declared = self.raw_worth(hand, eff)
        if kind != "ready":
            return self.calibrated(kind, hidden), None
        assert declared is not None
        return self.calibrated("hidden", hidden), self.calibrated("declared", declared)

    def locked_worth(self, hand: Hand, eff: Efficiency) -> float:
        """The seat's expected money with its locked (亮倒) hand, calibrated."""
        if eff.shanten != 0 or not eff.waits:
            return self.baseline()
        return self.calibrated("declared", self.ready_worth(hand, eff, True) + self.baseline())

    # ------------------------------------------------------------ discards

    def mean_danger(self) -> float:
        """The mean over kinds of what a discard now costs in deal-ins to hidden hands."""
        if "danger" not in self._cache:
            self._cache["danger"] = sum(self.chances()) * self.hidden_cost / NUM_KINDS
        return self._cache["danger"]

    def deal_in(self, kind: int) -> tuple[float, float]:
        """The chance that throwing ``kind`` now is a discard win for a hidden opponent, and what it costs then."""
        return self.chances()[kind], self.hidden_cost

    @property
    def hidden_cost(self) -> float:
        """What a discard win of a hidden hand costs (the measured mean), doubled right after the seat's kong (杠上炮)."""
        return (2.0 if self.view.after_kong else 1.0) * self.figures.hidden_discard_total

    def chances(self) -> list[float]:
        """Per kind, the chance that throwing it now is a discard win for a hidden opponent."""
        if "chances" not in self._cache_lists:
            f = self.figures
            seen = self.view.seen
            out = [0.0] * NUM_KINDS
            for other, rival in zip(self.view.others(), self.rivals):
                if rival.revealed:
                    continue
                s = self.view.seats[other]
                ready = _row(f.ready, rival.river, rival.melds)
                if not ready:
                    continue
                river = set(s.river)
                for kind in range(NUM_KINDS):
                    unseen = COPIES - seen[kind]
                    if unseen > 0:
                        key = f"{_CLASS[kind]}|{int(kind in river)}|{flush_of(s.melds, kind)}|{unseen}"
                        out[kind] += ready * f.hit.get(key, 0.0)
            self._cache_lists["chances"] = out
        return self._cache_lists["chances"]


def far_total(hand: Hand, weights: Weights) -> float:
    """The multiplier a hand not yet ready can expect.

    ×``flush_total`` when all its tiles are of one suit (清一色), a quarter of that more when all but one are.
    """
    held = hand.held
    if any(held[18:21]):
        return 1.0
    off = min(sum(held[0:9]), sum(held[9:18]))
    if off == 0:
        return weights.flush_total
    if off == 1:
        return 1 + (weights.flush_total - 1) / 4
    return 1.0


def outlook(view: SeatView, weights: Weights = DEFAULT, figures: Figures | None = None) -> Outlook:
    """The round-by-round model of the rest of the hand for a seat's view."""
    f = figures or load_figures(weights.figures)
    u = max(1, view.unseen)
    rivals = (_rival(view, view.others()[0], f), _rival(view, view.others()[1], f))
    draws = view.wall_left / 3
    n = ceil(draws)
    th = f.throw
    hf, hl = th.get("hidden|free", 0.0), th.get("hidden|locked", 0.0)
    rf, rl = th.get("revealed|free", 0.0), th.get("revealed|locked", 0.0)
    sr, sh = f.self_draw.get("revealed", 1.0), f.self_draw.get("hidden", 1.0)
    into = f.draw_into.get("locked", 1.0)
    hidden_hit = f.hidden_live * f.hidden_discard_share / u
    hidden_end = sh * f.hidden_live / u
    hidden_pay = hidden_end * f.hidden_self_total
    lock_hidden = hidden_hit * f.hidden_discard_total
    rounds = []
    # per rival and round: the chance it has revealed, and that it is hidden and ready
    per: list[tuple[list[float], list[float], float, float, float]] = []
    for r in rivals:
        if r.revealed:
            per.append(([1.0] * n, [0.0] * n, r.live / u, r.cost, r.self_pay))
            continue
        ready_col, reveal_col = _columns(f, r.melds)
        last = len(ready_col) - 1
        rho, hidden, p = [], [], 0.0
        for t in range(n):
            rho.append(p)
            hidden.append((1 - p) * ready_col[min(r.river + t, last)])
            p += (1 - p) * reveal_col[min(r.river + t + 1, last)]
        per.append((rho, hidden, f.revealed_live / u, f.revealed_cost, f.revealed_cost / 2))
    (rho0, hid0, live0, cost0, pay0), (rho1, hid1, live1, cost1, pay1) = per
    for t in range(n):
        a, b, ha, hb = rho0[t], rho1[t], hid0[t], hid1[t]
        ends = a * sr * live0 + b * sr * live1 + (ha + hb) * hidden_end
        ends += a * b * rl * (live0 + live1) + (ha * (b * hl + (1 - b) * hf) + hb * (a * hl + (1 - a) * hf)) * hidden_hit
        rounds.append(
            Round(
                min(1.0, draws - t),
                (a + b) * hl + (2 - a - b) * hf,
                (a + b) * rl + (2 - a - b) * rf,
                into * (a * live0 + b * live1) + (ha + hb) * hidden_hit,
                into * (a * live0 * cost0 + b * live1 * cost1) + (ha + hb) * lock_hidden,
                ends,
                sr * (a * live0 * pay0 + b * live1 * pay1) + (ha + hb) * hidden_pay,
                (a * live0 + b * live1) * (1 - f.keep_ready),
            )
        )
    end0 = 1.0 if rivals[0].revealed else (rho0[-1] if n else 0.0)
    end1 = 1.0 if rivals[1].revealed else (rho1[-1] if n else 0.0)
    ready_end = (hid0[-1] if n else 0.0, hid1[-1] if n else 0.0)
    return Outlook(view, weights, f, u, draws, rivals, tuple(rounds), drawn_money(view, rivals, (end0, end1), ready_end, f))


def drawn_money(view: SeatView, rivals: tuple[Rival, Rival], declared: tuple[float, float], hidden_ready: tuple[float, float], f: Figures) -> tuple[float, tuple[float, float], tuple[float, float]]:
    """What a drawn hand pays the seat by the rules' 流局 rule (town-rules.md §1.7).

    Given each rival's chance to have declared and to be hidden and ready at the end.

    Returns (not ready, hidden ready, declared ready), the last two as ``(a, b)``: ``a + b × own pay``.
    """
    rules = view.rules.options
    declarers = declared[0] + declared[1]
    rule = rules.hua_zhuang
    if rule == "each_declarer":
        return declarers, (declarers, 0.0), (-(2 - declarers), 0.0)
    if rule == "none":
        return 0.0, (0.0, 0.0), (0.0, 0.0)
    if rule == "first_declarer":
        due = float(rules.hua_zhuang_first_pays)
        someone = min(1.0, declarers)
        first = not any(r.revealed for r in rivals)
        return due * someone, (due * someone, 0.0), (-2 * due if first else due, 0.0)
    double = 2.0 if rules.liang_dao_double == "winner_or_payer" else 1.0
    never = hidden_b = declared_b = declared_a = 0.0
    for rival, p_declared, p_ready in zip(rivals, declared, hidden_ready, strict=True):
        p_not = max(0.0, 1.0 - p_declared - p_ready)
        declared_best = rival.self_pay if rival.revealed else f.revealed_cost / 2
        never -= p_declared * declared_best + p_ready * f.hidden_self_total
        hidden_b += p_declared * double + p_not
        declared_b += p_not
        declared_a -= p_ready * f.hidden_self_total * double
    return never, (0.0, hidden_b), (declared_a, declared_b)


# ---------------------------------------------------------------- reading the others


def _revealed_cost(view: SeatView, other: int, kind: int) -> float:
    """What dealing ``kind`` into ``other``'s revealed hand costs the seat (包胡 where the rules have it), 0 if it does not win."""
    hand = view.revealed_hand(other)
    if kind not in view.seats[other].waits or hand is None:
        return 0.0
    values = score_win(hand, kind, _liang_rules(view.rules))
    if values is None:
        return 0.0
    return pay(view, values[1], hand, kind, self_draw=False, winner=other, payer=view.seat)


def danger(view: SeatView, weights: Weights = DEFAULT) -> tuple[tuple[float, ...], frozenset[int]]:
    """Expected cost of the seat discarding each kind now, and the kinds a revealed opponent wins on (包胡)."""
    look = outlook(view, weights)
    costs = [0.0] * NUM_KINDS
    bao: set[int] = set()
    double = 2.0 if view.after_kong else 1.0  # 杠上炮
    for other in view.others():
        s = view.seats[other]
        if s.liang_dao:
            for kind in s.waits:
                cost = _revealed_cost(view, other, kind)
                if cost:
                    bao.add(kind)
                    costs[kind] += double * cost
    for kind in range(NUM_KINDS):
        chance, cost = look.deal_in(kind)
        costs[kind] += chance * cost
    return tuple(costs), frozenset(bao)


# ---------------------------------------------------------------- the bot


def kong_money(view: SeatView, kind: int) -> int:
    """The kong money a kong of ``kind`` now earns the seat in all (kwx-rules §6; before any 杠上杠 doubling).

    暗杠 and 蓄杠 from both others, 直杠 from the discarder.
    """
    if view.phase == "claim":
        return KONG_MONEY["zhi_gang"]
    if view.concealed[kind] == 4:
        return 2 * KONG_MONEY["an_gang"]
    return 2 * KONG_MONEY["ming_gang"]


@dataclass(frozen=True, slots=True)
class Choice:
    """A scored discard: its kind, whether it declares 亮倒, and its worth."""

    kind: int
    liang_dao: bool
    worth: float


class StrongBot:
    """Plays for money: each choice priced by a round-by-round model of the hand with measured figures.

    See the module docstring.
    """

    name = "strong"

    def __init__(self, weights: Weights = DEFAULT, figures: Figures | None = None) -> None:
        self.weights = weights
        self.figures = figures or load_figures(weights.figures)
        self._look: tuple[SeatView, Outlook] | None = None

    def outlook(self, view: SeatView) -> Outlook:
        """The model for ``view`` (kept for the view being decided)."""
        if self._look is None or self._look[0] is not view:
            self._look = (view, outlook(view, self.weights, self.figures))
        return self._look[1]

    # ------------------------------------------------------------ discards

    def discards(self, view: SeatView, hand: Hand, allowed: frozenset[int], may_declare: bool) -> list[Choice]:
        """Every allowed discard of a 14-tile hand, scored, best first (包胡 tiles only when nothing else is left)."""
        look = self.outlook(view)
        bao = _bao(view)
        options = discard_options(hand, view.visible_beside(hand), view.rules)  # a ponged tile is seen once, not twice
        choices = []
        for option in options:
            kind = option.discard
            if kind not in allowed:
                continue
            after = Hand(with_tile(hand.concealed, kind, -1), hand.melds)
            hidden, declared = look.hand_worth(after, option.result)
            chance, cost = look.deal_in(kind)
            if kind in bao:
                chance, cost = 1.0, _bao_cost(view, kind)
            keep = 1.0 - min(1.0, chance)
            lost = chance * cost  # a deal-in ends the hand: the seat pays, and nothing more
            choices.append(Choice(kind, False, keep * hidden - lost))
            if may_declare and self.weights.declare and declared is not None:
                choices.append(Choice(kind, True, keep * declared - lost))
        safe = [c for c in choices if c.kind not in bao]
        pool = safe or choices
        pool.sort(key=lambda c: (-c.worth, c.kind, c.liang_dao))
        return pool

    def _worth13(self, view: SeatView, hand: Hand) -> float:
        """The worth of a 13-tile-equivalent hand waiting for its next draw.

        The better of hidden and 亮倒; a locked hand's as declared.
        """
        look = self.outlook(view)
        eff = efficiency(hand, view.seen, view.rules)  # what the seat has seen stays seen, whatever it chose
        if view.me.liang_dao:
            return look.locked_worth(hand, eff)
        hidden, declared = look.hand_worth(hand, eff)
        return hidden if declared is None or not self.weights.declare else max(hidden, declared)

    # ------------------------------------------------------------ the Policy

    def act(self, view: SeatView) -> Action:
        """Win if possible; else the best of the scored discards and kongs."""
        options = view.options
        for action in options:
            if action.verb == "win":
                return action
        hand = view.hand
        allowed = frozenset(a.kind for a in options if a.verb == "discard")
        may_declare = any(a.liang_dao for a in options)
        locked = view.me.liang_dao
        if locked:
            best = Choice(view.kind if view.kind is not None else min(allowed), False, 0.0)
        else:
            best = self.discards(view, hand, allowed, may_declare)[0]
        kongs = [a for a in options if a.verb == "kong"]
        if kongs:
            view_worth = best.worth if not locked else self._worth13(view, Hand(with_tile(hand.concealed, best.kind, -1), hand.melds))
            for kong in kongs:
                if self._kong_worth(view, kong.kind) >= view_worth:
                    return kong
        return view.discard(best.kind, best.liang_dao)

    def _kong_worth(self, view: SeatView, kind: int) -> float:
        """The hand after a kong of ``kind`` plus its money, less the chance it is robbed or feeds a 杠上炮."""
        after = view.hand.after_kong(kind)
        chain = 2**view.after_kong if view.after_kong else 1
        worth = self._worth13(view, after) + kong_money(view, kind) * chain
        if view.phase == "act" and view.concealed[kind] != 4:  # a 蓄杠 may be robbed
            if kind in _bao(view):
                return float("-inf")
            chance, cost = self.outlook(view).deal_in(kind)
            worth -= chance * cost
        worth -= self.outlook(view).mean_danger()  # the discard after the replacement is a 杠上炮
        return worth

    def claim(self, view: SeatView) -> Action | None:
        """Win if allowed (unless keeping the hand is worth ``pass_margin`` times more); kong or pong when it beats passing."""
        options = view.options
        for action in options:
            if action.verb == "win":
                if self.weights.pass_margin == float("inf") or not self._worth_passing(view):
                    return action
        calls = [a for a in options if a.verb in ("pong", "kong")]
        if not calls:
            return None
        now = self._worth13(view, view.hand)
        best: Action | None = None
        best_worth = now
        for action in calls:
            if action.verb == "kong":
                worth = self._kong_worth(view, action.kind)
            else:
                worth = self._pong_worth(view, action.kind)
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def _pong_worth(self, view: SeatView, kind: int) -> float:
        """The best discard's worth after ponging ``kind``."""
        hand = view.hand.after_pong(kind)
        allowed = frozenset(k for k in range(NUM_KINDS) if hand.concealed[k])
        return self.discards(view, hand, allowed, True)[0].worth

    def _worth_passing(self, view: SeatView) -> bool:
        """Whether the hand kept is worth ``pass_margin`` times the discard win on offer (漏胡 then bars smaller wins)."""
        win = view.win()
        if win is None:
            return False
        taken = pay(view, win.value, win.hand, win.kind, self_draw=False, winner=view.seat, payer=view.turn)
        if not taken:
            return False
        look = self.outlook(view)
        eff = efficiency(view.hand, view.seen, view.rules)
        keep = look.ready_worth(view.hand, eff, view.me.liang_dao) if eff.shanten == 0 else 0.0
        return keep > self.weights.pass_margin * taken

    # ------------------------------------------------------------ figures for a review (复盘)

    def worth_of(self, view: SeatView, action: Action | None) -> float:
        """What the bot reckons one of the seat's options is worth, in base stakes (None: 过, passing the claim).

        The same figures ``act`` and ``claim`` compare: a discard's scored worth (a 包胡 tile
        included, its cost counted), a kong's worth with its money, a pong's best discard after
        it, the hand as it stands for a pass; a win is its money (both others on a self-draw).
        """
        hand = view.hand
        if action is None:
            return self._worth13(view, hand)
        if action.verb == "win":
            win = view.win()
            assert win is not None
            payers = view.others() if win.side == "self_draw" else (view.turn,)
            return sum(pay(view, win.value, win.hand, win.kind, self_draw=win.side == "self_draw", winner=view.seat, payer=p) for p in payers)
        if action.verb == "kong":
            return self._kong_worth(view, action.kind)
        if action.verb == "pong":
            return self._pong_worth(view, action.kind)
        if view.me.liang_dao:
            return self._worth13(view, Hand(with_tile(hand.concealed, action.kind, -1), hand.melds))
        scored = self.discards(view, hand, frozenset({action.kind}), action.liang_dao)
        return next(c.worth for c in scored if c.liang_dao == action.liang_dao)


def _bao(view: SeatView) -> frozenset[int]:
    """The kinds a revealed opponent wins on (包胡 if thrown)."""
    out: set[int] = set()
    for other in view.others():
        s = view.seats[other]
        if s.liang_dao:
            out.update(k for k in s.waits if _revealed_cost(view, other, k))
    return frozenset(out)


def _bao_cost(view: SeatView, kind: int) -> float:
    """What throwing ``kind`` into the revealed hands costs (包胡), doubled right after the seat's kong (杠上炮)."""
    double = 2.0 if view.after_kong else 1.0
    return double * sum(_revealed_cost(view, o, kind) for o in view.others() if view.seats[o].liang_dao)

"""Scoring one win (kwx-rules §3): every reading is scored, the best one counts.

The hand fans of a reading ask only a few things of it (``_Shape``: seven pairs and
how many fours, all triplets, dragon triplets and pair, a 4-5-6 run under a winning
five) and of the win (``_Facts``: one suit, four melds, the fours for 四归一 and 杠翻, the
坎 count). The fans' values, the cap and the allowances come from the rules' options
(town-rules.md §1.2, §1.4, §1.8). ``score_by_readings``
is the definition: every reading of the complete hand (``shapes.readings``) scored.
``score_win`` / ``score_wins`` read the same shapes off per-block tables
(``shapes.suit_split_facts``, ``shapes.DRAGON_SPLITS``) and memoise the values of each
distinct win key per rules; the tests check the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from math import prod
from typing import NamedTuple

from kwx.hand.fans import HAND_FANS, SIDES, SITUATIONAL_FANS, Side, fan
from kwx.hand.rules import Rules
from kwx.hand.shapes import ALL_TRIPLETS, DRAGON_SPLITS, RUN_456, Reading, readings, suit_split_facts
from kwx.hand.tables import KIND_BLOCK, POW5, block_indices
from kwx.hand.tiles import COPIES, DRAGONS, FIVES, NUM_KINDS, Hand, MeldType
from kwx.rules import RuleSet

BIG_HANDS = frozenset({"peng_peng_hu", "qing_yi_se", "da_san_yuan", "xiao_san_yuan", "shou_zhua_yi"})
"""Fans that make a 大胡 for the rule option ``si_gui_yi_big_hand``."""
_HAND_FAN_ORDER = {f.key: i for i, f in enumerate(HAND_FANS)}


@dataclass(frozen=True, slots=True)
class FanHit:
    """A fan a win scores; ``kind`` names the tile for a 四归一."""

    key: str
    multiplier: int
    kind: int | None = None


@dataclass(frozen=True, slots=True)
class WinValue:
    """What one way of winning is worth: allowed or not, capped total, the fans behind it.

    ``total`` is the capped multiplier a payer who did not declare 亮倒 pays (the winner's own
    亮倒 included, no 上楼), ``product`` the same before the cap, ``fan_product`` F of
    town-rules.md §2.1 (every fan but 亮倒), ``cap`` the reading's cap (None: none) and ``kan``
    its 坎 count (0 unless 数坎 or 跑恰摸八 counts it). ``reason`` says why a win is not
    allowed: ``pinghu`` (屁胡 on a discard), ``rob_kong_off`` (抢杠 with the rule option off)
    or ``min_2`` (an undeclared self-draw under ×2 where ``self_draw_min_2`` is on).
    """

    allowed: bool
    total: int
    product: int
    fans: tuple[FanHit, ...]
    reason: str | None = None
    fan_product: int = 1
    cap: int | None = None
    kan: int = 0


@dataclass(frozen=True, slots=True)
class _Win:
    """What every reading of one win shares: the final tiles and the melds."""

    hand: Hand
    win: int
    held: tuple[int, ...]
    one_suit: bool
    pongs: frozenset[int]
    kongs: frozenset[int]


def _win_facts(hand: Hand, final: Hand, win: int) -> _Win:
    held = final.held
    one_suit = not any(held[18:21]) and (not any(held[0:9]) or not any(held[9:18]))
    return _Win(
        hand,
        win,
        held,
        one_suit,
        frozenset(m.kind for m in hand.melds if m.type is MeldType.PONG),
        frozenset(m.kind for m in hand.melds if m.type is not MeldType.PONG),
    )


def _hit(key: str, rules: Rules, kind: int | None = None) -> FanHit:
    return FanHit(key, fan(key).multiplier(rules.options), kind)


class _Shape(NamedTuple):
    """What the hand fans ask of one reading."""

    fours: int  # a seven-pairs reading: the kinds held four times; −1 for four sets and a pair
    all_triplets: bool
    dragon_sets: int
    dragon_pair: bool
    ka_wu_xing: bool


class _Facts(NamedTuple):
    """What the hand fans ask of the win itself, the same for every reading."""

    one_suit: bool
    four_melds: bool
    si_gui_yi: tuple[str, int] | None  # (fan key, kind) when the winning tile is a fourth copy
    fourths: tuple[tuple[str, int], ...]  # other kinds held four times, not kongs (only when an option reads them)
    kan: int = 0  # the 坎 of a four-sets reading (kongs and kinds held three or more), when an option counts it


SEVEN_PAIRS_KEYS = ("qi_dui", "long_qi_dui", "shuang_long_qi_dui", "san_long_qi_dui")
"""The seven-pairs fan by its number of fours (under the legacy tiers three fours are 双龙七对)."""


def _seven_pairs_key(fours: int, rules: Rules) -> str:
    if fours >= 3 and rules.options.qi_dui_scale == "4-8-16":
        return "shuang_long_qi_dui"
    return SEVEN_PAIRS_KEYS[min(fours, 3)]


def _reads_fourths(rules: Rules, one_suit: bool) -> bool:
    """Whether a win's other fours matter under these options (全频道, 大胡四归, 杠翻 in one suit)."""
    o = rules.options
    return o.si_gui_yi == "all_fours" or o.si_gui_yi_big_hand or (o.qing_yi_se_fours and one_suit)


def _counts_kan(rules: Rules) -> bool:
    """Whether the 坎 count is worth anything under these options (数坎 or 跑恰摸八)."""
    return rules.options.shu_kan or rules.options.pao_qia_mo_ba


def _hand_fans(shape: _Shape, facts: _Facts, rules: Rules) -> tuple[FanHit, ...]:
    """The hand fans (not situational) of a reading with this shape."""
    options = rules.options
    hits: list[FanHit] = [_hit("qing_yi_se", rules)] if facts.one_suit else []
    if shape.fours >= 0:
        hits.append(_hit(_seven_pairs_key(shape.fours, rules), rules))
        return tuple(hits)
    if shape.all_triplets and (not facts.four_melds or options.shou_zhua_yi_with_peng_peng_hu):
        hits.append(_hit("peng_peng_hu", rules))
    if shape.dragon_sets == 3:
        hits.append(_hit("da_san_yuan", rules))
    elif shape.dragon_sets == 2 and shape.dragon_pair:
        hits.append(_hit("xiao_san_yuan", rules))
    if facts.four_melds:
        hits.append(_hit("shou_zhua_yi", rules))
    if shape.ka_wu_xing:
        hits.append(_hit("ka_wu_xing", rules))
    if facts.si_gui_yi is not None:
        key, kind = facts.si_gui_yi
        hits.append(_hit(key, rules, kind))
    counted = 1 if facts.si_gui_yi is not None else 0
    if options.si_gui_yi == "all_fours" or (options.si_gui_yi_big_hand and any(h.key in BIG_HANDS for h in hits)):
        hits.extend(_hit(key, rules, kind) for key, kind in facts.fourths)
        counted += len(facts.fourths)
    if options.qing_yi_se_fours and facts.one_suit:
        uncounted = (1 if facts.si_gui_yi is not None else 0) + len(facts.fourths) - counted
        hits.extend(_hit("gang_fan", rules, kind) for _, kind in facts.fourths[len(facts.fourths) - uncounted :])
    hits.sort(key=lambda h: _HAND_FAN_ORDER[h.key])
    return tuple(hits)


def _reading_shape(reading: Reading, win: int) -> _Shape:
    """The shape of one reading of a win, read off its groups."""
    if reading.is_seven_pairs:
        fours = sum(1 for k in set(reading.pairs) if reading.pairs.count(k) == 2)
        return _Shape(fours, False, 0, False, False)
    triplets = {g.kind for g in reading.groups if g.shape == "triplet"}
    return _Shape(
        -1,
        len(triplets) == 4,
        sum(1 for d in DRAGONS if d in triplets),
        reading.pair in DRAGONS,
        win in FIVES and any(g.shape == "run" and g.kind == win - 1 for g in reading.groups),
    )


def _reading_facts(w: _Win, rules: Rules) -> _Facts:
    """The facts of a win, read off its final tiles and melds."""
    if w.win in w.pongs:
        si_gui_yi: tuple[str, int] | None = ("ming_si_gui_yi", w.win)
    elif w.hand.concealed[w.win] == 3:
        si_gui_yi = ("an_si_gui_yi", w.win)
    else:
        si_gui_yi = None
    fourths = (
        tuple(("ming_si_gui_yi" if kind in w.pongs else "an_si_gui_yi", kind) for kind in range(NUM_KINDS) if kind != w.win and w.held[kind] == COPIES and kind not in w.kongs)
        if _reads_fourths(rules, w.one_suit)
        else ()
    )
    kan = kan_count(w.hand, w.win) if _counts_kan(rules) else 0
    return _Facts(w.one_suit, len(w.hand.melds) == 4, si_gui_yi, fourths, kan)


def kan_count(hand: Hand, win: int) -> int:
    """坎 of a four-sets win (town-rules.md §1.6).

    Every kong, and every kind the concealed tiles hold three or four of, the winning tile included.
    """
    kongs = sum(1 for m in hand.melds if m.type is not MeldType.PONG)
    return kongs + sum(1 for kind, n in enumerate(hand.concealed) if n + (kind == win) >= 3)


def _reading_fans(reading: Reading, w: _Win, rules: Rules) -> tuple[tuple[FanHit, ...], int]:
    """The hand fans (not situational) of one reading of a win, and its 坎 (a seven-pairs reading has none)."""
    facts = _reading_facts(w, rules)
    return _hand_fans(_reading_shape(reading, w.win), facts, rules), 0 if reading.is_seven_pairs else facts.kan


def situation_counts(key: str, options: RuleSet) -> bool:
    """Whether a situational fan counts under these options (抢杠胡 with ``rob_kong``, 海底 by ``hai_di``)."""
    if key == "qiang_gang_hu":
        return options.rob_kong
    if key == "hai_di_lao":
        return options.hai_di != "none"
    if key == "hai_di_pao":
        return options.hai_di == "lao_and_pao"
    return True


def _applies(key: str, rules: Rules) -> bool:
    """Whether a situational fan counts under the rules' options (``situation_counts``)."""
    return situation_counts(key, rules.options)


@lru_cache(maxsize=256)
def _situational(rules: Rules, side: Side) -> tuple[tuple[FanHit, ...], int]:
    """The situational fans that apply to one side under these rules, and their product without 亮倒."""
    hits = tuple(FanHit(f.key, f.multiplier(rules.options)) for f in SITUATIONAL_FANS if f.key in rules.situation and side in f.sides and _applies(f.key, rules))
    return hits, prod(h.multiplier for h in hits if h.key != "liang_dao")


def _side_value(hand_fans: tuple[FanHit, ...], hand_product: int, cap: int | None, kan: int, side: Side, rules: Rules) -> WinValue:
    """Add the situational fans of one side, apply the cap and the allowance rules (屁胡, 抢杠, 自摸至少 2 番)."""
    extra, extra_product = _situational(rules, side)
    hits = hand_fans + extra
    fan_product = hand_product * extra_product
    declared = "liang_dao" in rules.situation
    product = fan_product * 2 if declared else fan_product
    total = product if cap is None or product <= cap else cap
    if side == "discard" and "qiang_gang_hu" in rules.situation and not rules.options.rob_kong:
        return WinValue(False, 0, product, hits, "rob_kong_off", fan_product, cap, kan)
    if side == "discard" and product == 1 and rules.options.pinghu_selfdraw_only:
        return WinValue(False, 0, product, hits, "pinghu", fan_product, cap, kan)
    if side == "self_draw" and not declared and fan_product < 2 and rules.options.self_draw_min_2:
        return WinValue(False, 0, product, hits, "min_2", fan_product, cap, kan)
    return WinValue(True, total, product, hits, None, fan_product, cap, kan)


def _best(readings_fans: Iterable[tuple[tuple[FanHit, ...], int]], rules: Rules) -> tuple[WinValue, WinValue]:
    """Per side, the best of the readings' values: the highest capped total, then product, then 坎; the first of equals."""
    best: dict[Side, WinValue] = {}
    for hand_fans, kan in readings_fans:
        hand_product = prod(h.multiplier for h in hand_fans)
        cap = rules.options.cap_for(tuple(h.key for h in hand_fans))
        for side in SIDES:
            value = _side_value(hand_fans, hand_product, cap, kan, side, rules)
            current = best.get(side)
            if current is None or (value.total, value.product, value.kan) > (current.total, current.product, current.kan):
                best[side] = value
    return best["self_draw"], best["discard"]


def reading_fans(hand: Hand, win: int, rules: Rules) -> tuple[tuple[FanHit, ...], ...]:
    """The hand fans (not situational) of each reading of a win, in ``shapes.readings`` order (none: no win)."""
    final = hand.with_tile(win)
    facts = _win_facts(hand, final, win)
    return tuple(_reading_fans(reading, facts, rules)[0] for reading in readings(final))


def score_by_readings(hand: Hand, win: int, rules: Rules) -> tuple[WinValue, WinValue] | None:
    """``score_win`` by its definition: every reading of the complete hand (``shapes.readings``) scored."""
    final = hand.with_tile(win)
    found = readings(final)
    if not found:
        return None
    facts = _win_facts(hand, final, win)
    return _best((_reading_fans(reading, facts, rules) for reading in found), rules)


_FIVE_BLOCK = tuple(0 if kind == FIVES[0] else 1 if kind == FIVES[1] else -1 for kind in range(NUM_KINDS))
"""For each kind, the suit (0 筒, 1 条) whose 4-5-6 run makes it a 卡五星, or −1."""
_MEMO_LIMIT = 100_000
WinKey = tuple[
    "tuple[int, ...] | None",
    "tuple[int, ...] | None",
    "tuple[int, bool] | None",
    int,
    int,
    int,
    "tuple[bool, bool, tuple[str, int] | None, tuple[tuple[str, int], ...], int]",
]
"""What decides a win's values under given rules: the split facts of the 筒 and 条 blocks, the dragon
block's split, the 卡五星 suit, the dragon melds, the seven-pairs fours (−1: none) and the ``_Facts``."""
Memo = dict[WinKey, "tuple[WinValue, WinValue] | None"]


@lru_cache(maxsize=32)
def _memo_of(rules: Rules) -> Memo:
    """The values already worked out under these rules, by win key (few keys recur)."""
    return {}


_recent: tuple[Rules | None, Memo] = (None, {})
"""The rules asked about last and their memo: the same Rules value is usually asked again."""


def _memo(rules: Rules) -> Memo:
    """``_memo_of(rules)``, found by identity first (hashing a Rules value is not free)."""
    global _recent
    last, memo = _recent
    if last is not rules:
        memo = _memo_of(rules)
        _recent = (rules, memo)
    return memo


def _values(key: WinKey, rules: Rules) -> tuple[WinValue, WinValue] | None:
    """The best (self-draw, discard) values of a win described by its ``_key``."""
    pins, sous, dragons, five, dragon_melds, seven, win_facts = key
    facts = _Facts(*win_facts)
    shapes: list[_Shape] = []
    if dragons is not None:
        assert pins is not None and sous is not None, "the dragons are read only when both suits split"
        sets, pair = dragons
        for a in pins:
            for b in sous:
                ka = (a if five == 0 else b if five == 1 else 0) & RUN_456
                shape = _Shape(-1, bool(a & b & ALL_TRIPLETS), sets + dragon_melds, pair, bool(ka))
                if shape not in shapes:
                    shapes.append(shape)
    if seven >= 0:
        shapes.append(_Shape(seven, False, 0, False, False))
    if not shapes:
        return None
    return _best(((_hand_fans(shape, facts, rules), facts.kan if shape.fours < 0 else 0) for shape in shapes), rules)


def score_wins(hand: Hand, wins: Iterable[int], rules: Rules) -> tuple[tuple[WinValue, WinValue] | None, ...]:
    """``score_win`` of one hand on each of several tiles, the hand read once (not memoised).

    A win is described by a key (the split facts of its three blocks, from
    ``shapes.suit_split_facts`` and ``shapes.DRAGON_SPLITS``, its seven-pairs reading and
    the facts of ``_Facts``) whose values are memoised per rules; equal to
    ``score_by_readings`` (tested), which it falls back to for a hand no player can hold.
    """
    counts = hand.concealed
    melds = hand.melds
    held = hand.held
    if max(held) > COPIES or sum(counts) + 3 * len(melds) != 13:
        return tuple(score_by_readings(hand, win, rules) for win in wins)
    memo = _memo(rules)
    splits = suit_split_facts()
    pin0, sou0, dragon0 = block_indices(counts)
    counts_kan = _counts_kan(rules)
    kan_base = sum(1 for n in counts if n >= 3) + sum(1 for m in melds if m.type is not MeldType.PONG) if counts_kan else 0
    pongs: tuple[int, ...] = ()
    used = [False, False, False]
    dragon_melds = 0
    if melds:
        pongs = tuple(m.kind for m in melds if m.type is MeldType.PONG)
        for m in melds:
            used[KIND_BLOCK[m.kind]] = True
        dragon_melds = sum(1 for m in melds if m.kind in DRAGONS)
    out: list[tuple[WinValue, WinValue] | None] = []
    for win in wins:
        n = counts[win]
        if held[win] >= COPIES:
            out.append(score_by_readings(hand, win, rules))
            continue
        p, s, d = pin0, sou0, dragon0
        if win < 9:
            p += POW5[win]
        elif win < 18:
            s += POW5[win - 9]
        else:
            d += POW5[win - 18]
        pins = splits.get(p)
        sous = splits.get(s)
        dragons = DRAGON_SPLITS[d] if pins and sous else None
        seven = -1
        if n & 1 and not melds and counts.count(1) + counts.count(3) == 1:
            seven = counts.count(COPIES) + (n == 3)  # six pairs and this odd kind; a four is two pairs
        if dragons is None and seven < 0:
            out.append(None)
            continue
        one_suit = not (d or used[2]) and not ((p or used[0]) and (s or used[1]))
        si_gui_yi = ("ming_si_gui_yi", win) if win in pongs else ("an_si_gui_yi", win) if n == 3 else None
        fourths = (
            tuple(("ming_si_gui_yi" if kind in pongs else "an_si_gui_yi", kind) for kind, c in enumerate(held) if c == COPIES and kind != win and (kind in pongs or counts[kind] == COPIES))
            if _reads_fourths(rules, one_suit)
            else ()
        )
        kan = kan_base + (n == 2) if counts_kan else 0
        key: WinKey = (pins, sous, dragons, _FIVE_BLOCK[win], dragon_melds, seven, (one_suit, len(melds) == 4, si_gui_yi, fourths, kan))
        try:
            values = memo[key]
        except KeyError:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            values = memo[key] = _values(key, rules)
        out.append(values)
    return tuple(out)


@lru_cache(maxsize=65536)
def score_win(hand: Hand, win: int, rules: Rules) -> tuple[WinValue, WinValue] | None:
    """(self-draw, discard) values of winning ``hand`` (13 tiles) on ``win``; None if it does not win."""
    return score_wins(hand, (win,), rules)[0]

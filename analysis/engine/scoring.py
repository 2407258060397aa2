"""Scoring one win (kwx-rules §3): every reading is scored, the best one counts."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import prod

from .fans import HAND_FANS, SIDES, SITUATIONAL_FANS, Side, fan
from .rules import Rules
from .shapes import Reading, readings
from .tiles import DRAGONS, FIVES, Hand, MeldType

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

    ``reason`` says why a win is not allowed: ``pinghu`` (屁胡 on a discard) or
    ``rob_kong_off`` (抢杠 with the rule option off).
    """

    allowed: bool
    total: int
    product: int
    fans: tuple[FanHit, ...]
    reason: str | None = None


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
        hand, win, held, one_suit,
        frozenset(m.kind for m in hand.melds if m.type is MeldType.PONG),
        frozenset(m.kind for m in hand.melds if m.type is not MeldType.PONG),
    )


def _hit(key: str, preset: str, kind: int | None = None) -> FanHit:
    return FanHit(key, fan(key).multiplier(preset), kind)


def _reading_fans(reading: Reading, w: _Win, rules: Rules) -> list[FanHit]:
    """The hand fans (not situational) of one reading of a win."""
    preset = rules.preset.key
    hits: list[FanHit] = [_hit("qing_yi_se", preset)] if w.one_suit else []
    if reading.is_seven_pairs:
        fours = sum(1 for k in set(reading.pairs) if reading.pairs.count(k) == 2)
        hits.append(_hit("qi_dui" if fours == 0 else "long_qi_dui" if fours == 1 else "shuang_long_qi_dui", preset))
        return hits
    triplets = {g.kind for g in reading.groups if g.shape == "triplet"}
    if len(triplets) == 4:
        hits.append(_hit("peng_peng_hu", preset))
    dragon_sets = sum(1 for d in DRAGONS if d in triplets)
    if dragon_sets == 3:
        hits.append(_hit("da_san_yuan", preset))
    elif dragon_sets == 2 and reading.pair in DRAGONS:
        hits.append(_hit("xiao_san_yuan", preset))
    if len(w.hand.melds) == 4:
        hits.append(_hit("shou_zhua_yi", preset))
    if w.win in FIVES and any(g.shape == "run" and g.kind == w.win - 1 for g in reading.groups):
        hits.append(_hit("ka_wu_xing", preset))
    if w.win in w.pongs:
        hits.append(_hit("ming_si_gui_yi", preset, w.win))
    elif w.hand.concealed[w.win] == 3:
        hits.append(_hit("an_si_gui_yi", preset, w.win))
    if rules.options.si_gui_yi_big_hand and any(h.key in BIG_HANDS for h in hits):
        for kind in range(21):
            if kind != w.win and w.held[kind] == 4 and kind not in w.kongs:
                hits.append(_hit("ming_si_gui_yi" if kind in w.pongs else "an_si_gui_yi", preset, kind))
    hits.sort(key=lambda h: _HAND_FAN_ORDER[h.key])
    return hits


@lru_cache(maxsize=256)
def _situational(rules: Rules, side: Side) -> tuple[tuple[FanHit, ...], int]:
    """The situational fans that apply to one side under these rules, and their product."""
    hits = tuple(
        FanHit(f.key, f.multiplier(rules.preset.key))
        for f in SITUATIONAL_FANS
        if f.key in rules.situation and side in f.sides and not (f.key == "qiang_gang_hu" and not rules.options.rob_kong)
    )
    return hits, prod(h.multiplier for h in hits)


def _side_value(hand_fans: tuple[FanHit, ...], hand_product: int, cap: int | None, side: Side, rules: Rules) -> WinValue:
    """Add the situational fans of one side, apply the cap and the 屁胡 and 抢杠 rules."""
    extra, extra_product = _situational(rules, side)
    hits = hand_fans + extra
    product = hand_product * extra_product
    total = product if cap is None or product <= cap else cap
    if side == "discard" and "qiang_gang_hu" in rules.situation and not rules.options.rob_kong:
        return WinValue(False, 0, product, hits, "rob_kong_off")
    if side == "discard" and product == 1 and rules.options.pinghu_selfdraw_only:
        return WinValue(False, 0, product, hits, "pinghu")
    return WinValue(True, total, product, hits)


@lru_cache(maxsize=65536)
def score_win(hand: Hand, win: int, rules: Rules) -> tuple[WinValue, WinValue] | None:
    """(self-draw, discard) values of winning ``hand`` (13 tiles) on ``win``; None if it does not win."""
    final = hand.with_tile(win)
    found = readings(final)
    if not found:
        return None
    facts = _win_facts(hand, final, win)
    best: dict[Side, WinValue] = {}
    for reading in found:
        hand_fans = tuple(_reading_fans(reading, facts, rules))
        hand_product = prod(h.multiplier for h in hand_fans)
        cap = rules.preset.cap_for(h.key for h in hand_fans)
        for side in SIDES:
            value = _side_value(hand_fans, hand_product, cap, side, rules)
            current = best.get(side)
            if current is None or (value.total, value.product) > (current.total, current.product):
                best[side] = value
    return best["self_draw"], best["discard"]

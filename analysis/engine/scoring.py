"""Scoring one win (kwx-rules §3): every reading is scored, the best one counts."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import prod

from .fans import HAND_FANS, SITUATIONAL_FANS, Side, fan
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


def _reading_fans(reading: Reading, hand: Hand, win: int, rules: Rules) -> list[FanHit]:
    """The hand fans (not situational) of one reading of ``hand`` + ``win``."""
    hits: list[FanHit] = []
    preset = rules.preset.key
    final = hand.with_tile(win)
    held = final.held
    suits = {k // 9 for k in range(21) if held[k]}
    if 2 not in suits and len(suits) == 1:
        hits.append(FanHit("qing_yi_se", fan("qing_yi_se").multiplier(preset)))
    if reading.is_seven_pairs:
        fours = sum(1 for k in set(reading.pairs) if reading.pairs.count(k) == 2)
        key = "qi_dui" if fours == 0 else "long_qi_dui" if fours == 1 else "shuang_long_qi_dui"
        hits.append(FanHit(key, fan(key).multiplier(preset)))
        return hits
    triplets = {g.kind for g in reading.groups if g.shape == "triplet"}
    if len(triplets) == 4:
        hits.append(FanHit("peng_peng_hu", fan("peng_peng_hu").multiplier(preset)))
    dragon_sets = sum(1 for d in DRAGONS if d in triplets)
    if dragon_sets == 3:
        hits.append(FanHit("da_san_yuan", fan("da_san_yuan").multiplier(preset)))
    elif dragon_sets == 2 and reading.pair in DRAGONS:
        hits.append(FanHit("xiao_san_yuan", fan("xiao_san_yuan").multiplier(preset)))
    if len(hand.melds) == 4:
        hits.append(FanHit("shou_zhua_yi", fan("shou_zhua_yi").multiplier(preset)))
    if win in FIVES and any(g.shape == "run" and g.kind == win - 1 for g in reading.groups):
        hits.append(FanHit("ka_wu_xing", fan("ka_wu_xing").multiplier(preset)))
    pongs = {m.kind for m in hand.melds if m.type is MeldType.PONG}
    kongs = {m.kind for m in hand.melds if m.type is not MeldType.PONG}
    if win in pongs:
        hits.append(FanHit("ming_si_gui_yi", fan("ming_si_gui_yi").multiplier(preset), win))
    elif hand.concealed[win] == 3:
        hits.append(FanHit("an_si_gui_yi", fan("an_si_gui_yi").multiplier(preset), win))
    if rules.options.si_gui_yi_big_hand and any(h.key in BIG_HANDS for h in hits):
        for kind in range(21):
            if kind == win or held[kind] != 4 or kind in kongs:
                continue
            key = "ming_si_gui_yi" if kind in pongs else "an_si_gui_yi"
            hits.append(FanHit(key, fan(key).multiplier(preset), kind))
    hits.sort(key=lambda h: _HAND_FAN_ORDER[h.key])
    return hits


def _side_value(hand_fans: list[FanHit], side: Side, rules: Rules) -> WinValue:
    """Add the situational fans of one side, apply the cap and the 屁胡 and 抢杠 rules."""
    preset = rules.preset
    hits = list(hand_fans)
    robbing = side == "discard" and "qiang_gang_hu" in rules.situation
    for f in SITUATIONAL_FANS:
        if f.key in rules.situation and side in f.sides and not (f.key == "qiang_gang_hu" and not rules.options.rob_kong):
            hits.append(FanHit(f.key, f.multiplier(preset.key)))
    product = prod(h.multiplier for h in hits)
    cap = preset.cap_for(h.key for h in hits)
    total = product if cap is None else min(product, cap)
    if robbing and not rules.options.rob_kong:
        return WinValue(False, 0, product, tuple(hits), "rob_kong_off")
    if side == "discard" and product == 1 and rules.options.pinghu_selfdraw_only:
        return WinValue(False, 0, product, tuple(hits), "pinghu")
    return WinValue(True, total, product, tuple(hits))


@lru_cache(maxsize=65536)
def score_win(hand: Hand, win: int, rules: Rules) -> tuple[WinValue, WinValue] | None:
    """(self-draw, discard) values of winning ``hand`` (13 tiles) on ``win``; None if it does not win."""
    found = readings(hand.with_tile(win))
    if not found:
        return None
    best: dict[Side, WinValue] = {}
    for reading in found:
        hand_fans = _reading_fans(reading, hand, win, rules)
        for side in ("self_draw", "discard"):
            value = _side_value(hand_fans, side, rules)
            current = best.get(side)
            if current is None or (value.total, value.product) > (current.total, current.product):
                best[side] = value
    return best["self_draw"], best["discard"]

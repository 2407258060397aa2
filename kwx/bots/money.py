"""What a win is worth between two seats of a view, priced by the settlement's own functions (town-rules.md §2).

The bots never do the money's arithmetic themselves: a payment is ``kwx.hand.money.win_parts`` under
the view's rules and stakes (the payer's and the winner's 亮倒 under ``liang_dao_double``, 对亮对番,
上楼's dice, 包胡 in each of its forms, 漂, 坎, 跑恰摸八), and 马 is its expected score over the
tiles the seat has not seen (``kwx.hand.money.expected_horse_score``). Amounts are in base stakes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from kwx.hand.money import bao_hu_applies, bao_hu_halves, discard_allowed, expected_horse_score, payer_multiplier, win_extras, win_parts
from kwx.hand.scoring import WinValue
from kwx.hand.tiles import COPIES, NUM_KINDS, Hand
from kwx.rules import RuleSet
from kwx.table.view import SeatView


@lru_cache(maxsize=65536)
def _amount(
    value: WinValue,
    hand: Hand,
    kind: int,
    rules: RuleSet,
    self_draw: bool,
    flags: tuple[bool, bool, bool],
    piao: tuple[int, int, int],
    dice: tuple[int, int] | None,
) -> tuple[int, bool]:
    """The whole-number part of one payment (no horses) and whether it buys horses.

    ``flags``: winner, payer and third declared.
    """
    winner_declared, payer_declared, third_declared = flags
    extras = win_extras(value, hand, kind, rules, self_draw=self_draw, winner_declared=winner_declared, discarder_declared=payer_declared)
    parts = win_parts(
        value,
        replace(extras, ma=None),
        rules,
        self_draw=self_draw,
        winner_declared=winner_declared,
        payer_declared=payer_declared,
        third_declared=third_declared,
        piao=piao,
        dice=dice,
    )
    return sum(p.amount for p in parts), extras.ma is not None


def unseen_counts(view: SeatView) -> tuple[int, ...]:
    """The copies of each kind the seat has not seen (what a horse may turn up)."""
    seen = view.seen
    return tuple(max(0, COPIES - seen[k]) for k in range(NUM_KINDS))


def pay(view: SeatView, value: WinValue, hand: Hand, kind: int, *, self_draw: bool, winner: int, payer: int, winner_declared: bool | None = None) -> float:
    """What ``payer`` pays ``winner`` when ``hand`` (13 tiles) wins on ``kind`` (``value``: that side's value).

    0 when the rules refuse that win from that payer.

    ``winner_declared`` overrides the view (a seat weighing its own 亮倒); the others' 亮倒, the
    dice and the 漂 are the view's.
    """
    options = view.rules.options
    declared = view.seats[winner].liang_dao if winner_declared is None else winner_declared
    payer_declared = view.seats[payer].liang_dao
    if self_draw:
        if not value.allowed:
            return 0.0
    elif not discard_allowed(value, payer_declared, options):
        return 0.0
    third = 3 - winner - payer
    third_declared = view.seats[third].liang_dao
    piao = (view.piao[winner], view.piao[payer], view.piao[third])
    if not (options.shu_kan or options.pao_qia_mo_ba or options.buys_horses or any(piao)):  # the multiplier alone: steps 2–5
        if not self_draw and bao_hu_applies(options, declared, payer_declared):
            return float(bao_hu_halves(value, payer_declared, third_declared, options, view.dice)[2])
        return float(payer_multiplier(value, declared, payer_declared, options, view.dice))
    amount, horses = _amount(value, hand, kind, options, self_draw, (declared, payer_declared, third_declared), piao, view.dice)
    if horses:
        return amount + expected_horse_score(kind, unseen_counts(view), options)
    return float(amount)

"""The words of a payment state the engine's arithmetic: each win reason's formula multiplies out to its amount."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from kwx.hand.money import WIN_PARTS
from kwx.table.settlement import parse_input, settle
from settlement.text import part_formula, result_label

WIN = {"hand": "4556p123s789sZZZ", "tile": "5p"}
HANDS = {
    "self_draw": {"result": "self_draw", "winners": [{"player": 0, **WIN}]},
    "discard": {"result": "discard", "discarder": 2, "winners": [{"player": 1, **WIN}]},
    "bao_hu": {"result": "discard", "discarder": 2, "liang_dao": [1], "winners": [{"player": 1, **WIN}]},
    "qiang_gang_hu": {"result": "rob_kong", "discarder": 2, "winners": [{"player": 1, "hand": "12p456p789s11sZZZ", "tile": "3p"}]},
}


@pytest.mark.parametrize("key", sorted(WIN_PARTS))
@pytest.mark.parametrize("base", [1, 3])
def test_a_win_reasons_formula_multiplies_out_to_its_amount(key, base):
    result = settle(parse_input({"players": ["甲", "乙", "丙"], "base": base, **HANDS[key]}))
    parts = [part for payment in result.payments for part in payment.parts if part.key == key]
    assert parts
    with translation.override("en"):
        for part in parts:
            left, right = part_formula(part).split("=")
            factors = [int(n) for n in re.findall(r"\d+", left)]
            assert int(right) == part.amount
            assert factors[0] == part.number("multiplier") and len(factors) == 1 + (WIN_PARTS[key] > 1) + (base > 1)
            assert eval("*".join(map(str, factors))) == part.amount  # noqa: S307 (whole numbers only)


DOUBLE_ON_LIANG_DAO = {"result": "discard", "discarder": 2, "liang_dao": [1], "winners": [{"player": 0, "hand": "46p123s789s11sBBB", "tile": "5p"}, {"player": 1, **WIN}]}


@pytest.mark.parametrize(
    ("hand", "heading"),
    [
        (HANDS["discard"], "点炮 (discard win)"),
        (HANDS["bao_hu"], "包胡 (a discard won on a 亮倒 hand: the discarder pays double)"),
        (HANDS["self_draw"], "自摸 (self-draw)"),
        (DOUBLE_ON_LIANG_DAO, "一炮双响 (one discard, two winners) · 包胡 (a discard won on a 亮倒 hand: the discarder pays double)"),
        ({**HANDS["qiang_gang_hu"], "liang_dao": [1]}, "抢杠胡 (robbing a kong) · 包胡 (a discard won on a 亮倒 hand: the discarder pays double)"),
    ],
    ids=["discard", "bao_hu", "self_draw", "double_bao_hu", "rob_kong_bao_hu"],
)
def test_the_result_heading_names_bao_hu_whenever_a_liang_dao_hand_wins_on_a_discard(hand, heading):
    result = settle(parse_input({"players": ["甲", "乙", "丙"], "base": 1, **hand}))
    with translation.override("en"):
        assert result_label(result) == heading

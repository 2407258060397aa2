"""The words of a payment state the engine's arithmetic: each win reason's formula multiplies out to its amount."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from kwx.table.settlement import WIN_PARTS, parse_input, settle
from settlement.text import part_formula

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

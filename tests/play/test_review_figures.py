"""The review's one formatter: two decimals, a real minus sign, never "−0.00"; a cost that rounds to zero says so."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from play.templatetags.review_figures import MINUS, cost, fixed, reason_text, worth


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.0, "0.00"), (-0.0, "0.00"), (-0.004, "0.00"), (0.004, "0.00"), (-1e-17, "0.00"), (-0.005001, MINUS + "0.01"), (1.235, "1.24"), (-2.5, MINUS + "2.50")],
)
def test_fixed_never_writes_a_signed_zero(value, text):
    assert fixed(value) == text


def test_a_cost_that_rounds_to_zero_is_no_cost_and_any_other_has_its_plus_minus():
    with translation.override("en"):
        assert cost(0.0, 0.0) == cost(0.004, 0.3) == cost(-1e-12, 0.0) == "no cost"
        assert cost(0.566, 0.575) == f"{MINUS}0.57 ± 0.57"
        assert cost(0.57, 0.584) == f"{MINUS}0.57 ± 0.58"
    with translation.override("zh-hans"):
        assert cost(0.0, 0.0) == "无损失"
    assert worth(-0.003, 0.2) == "0.00 ± 0.20" and worth(1.5, 0.25) == "+1.50 ± 0.25" and worth(-1.5, 0.25) == f"{MINUS}1.50 ± 0.25"


@given(st.floats(-50, 50, allow_nan=False), st.floats(0, 10, allow_nan=False))
def test_no_figure_is_ever_minus_zero(value, se):
    for text in (fixed(value), worth(value, se), cost(abs(value), se)):
        assert f"{MINUS}0.00" not in text and "-0.0" not in text


def test_each_reason_has_its_words_in_both_languages():
    codes = [
        {"code": "deal_in", "seat": 1, "tile": "5p", "revealed": True},
        {"code": "deal_in", "seat": 2, "tile": "5p", "revealed": False, "share": 0.31},
        {"code": "robbed", "seat": 1, "tile": "3p", "revealed": True},
        {"code": "robbed", "seat": 1, "tile": "3p", "revealed": False, "share": 0.2},
        {"code": "declare_cost"},
        {"code": "declare_gain"},
        {"code": "kong_money", "tile": "7s"},
        {"code": "shanten", "mine": 2, "best": 1},
        {"code": "value", "mine": 2, "best": 4},
        {"code": "waits", "mine": 8, "best": 28},
        {"code": "win", "tile": "Z"},
        {"code": "later"},
    ]
    for lang in ("zh-hans", "en"):
        with translation.override(lang):
            texts = [reason_text(r) for r in codes]
        assert len(set(texts)) == len(texts) and all(texts)
    with translation.override("zh-hans"):
        assert "下家" in reason_text(codes[0]) and "包胡" in reason_text(codes[0]) and "31 %" in reason_text(codes[1])
        assert "抢杠" in reason_text(codes[2])

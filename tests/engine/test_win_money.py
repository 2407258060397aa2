"""win_money(): what one wait collects (自摸, 点炮, 包胡) is exactly what settle() pays for that win."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx import EngineError, build_hand
from kwx.hand.rules import PRESETS, make_rules
from kwx.hand.tiles import KIND_OF_ID
from kwx.table.settlement import MAX_BASE, PIAO_CHOICES, check_stakes, settle_json, win_money

PLAYERS = ["我", "下家", "上家"]
READY = [  # (hand, winning tile): ×1 屁胡, ×2 卡五星, ×16 清七对, a cap under 襄阳
    ("123456p789s11sZZ", "Z"),
    ("4556p123s789sZZZ", "5p"),
    ("1122334456677p", "5p"),
    ("46p111s222s333sFF", "5p"),
]


def settled(hand: str, tile: str, rules: str, situation: list[str], base: int, piao: int, result: str, liang: bool) -> int | None:
    """What the winner 我 collects in win payments when settle() is asked directly (None when it refuses the win)."""
    data = {
        "players": PLAYERS,
        "base": base,
        "piao": [piao] * 3,
        "rules": rules,
        "result": result,
        "liang_dao": ["我"] if liang else [],
        "discarder": None if result == "self_draw" else "下家",
        "winners": [{"player": "我", "hand": hand, "tile": tile, "situation": situation}],
        "dice": [1, 2],
        "wall_left": 0,
    }
    try:
        out = settle_json(data)
    except EngineError:
        return None
    return out.nets[0]


@given(st.sampled_from(READY), st.sampled_from(sorted(PRESETS)), st.integers(1, MAX_BASE), st.sampled_from(PIAO_CHOICES), st.sampled_from([[], ["liang_dao"]]))
def test_each_way_matches_settle(shape, rules, base, piao, situation):
    text, tile = shape
    hand, _ = build_hand(text)
    money = win_money(hand, KIND_OF_ID[tile], make_rules(rules, situation), base, piao)
    liang = "liang_dao" in situation
    user = [s for s in situation if s != "liang_dao"]
    assert money.self_draw == settled(text, tile, rules, user, base, piao, "self_draw", liang)
    assert money.discard == settled(text, tile, rules, user, base, piao, "discard", liang)
    assert money.bao_hu == settled(text, tile, rules, user, base, piao, "discard", True)
    if money.self_draw is not None:
        assert money.self_draw == 2 * money.self_draw_each


def test_worked_numbers_for_ka_wu_xing():
    hand, _ = build_hand("4556p123s789sZZZ")
    money = win_money(hand, KIND_OF_ID["5p"], make_rules(), base=5, piao=1)
    # ×2 at base 5 is 10; each payment adds both players' 漂 (1 + 1) × 5 = 10
    assert (money.self_draw_each, money.self_draw, money.discard) == (20, 40, 20)
    assert money.bao_hu == 2 * 5 * 4 + 10  # 亮倒 doubles the win to ×4, and 包胡 pays it twice


def test_a_pinghu_cannot_be_won_on_a_discard_but_bao_hu_can():
    hand, _ = build_hand("123456p789s11sZZ")
    money = win_money(hand, KIND_OF_ID["Z"], make_rules())
    assert money.discard is None
    assert money.self_draw == 2 and money.bao_hu == 4


def test_no_win_no_money():
    hand, _ = build_hand("4556p123s789sZZZ")
    assert win_money(hand, KIND_OF_ID["9p"], make_rules()) is None


@pytest.mark.parametrize("base, piao, field", [(0, 0, "base"), (MAX_BASE + 1, 0, "base"), (True, 0, "base"), (1, 3, "piao"), (1, True, "piao")])
def test_stakes_are_checked(base, piao, field):
    with pytest.raises(EngineError) as caught:
        check_stakes(base, piao)
    assert caught.value.field == field

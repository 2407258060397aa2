"""Settlement by town-rules.md §2 for the options the public vectors leave out, and its invariants (kwx.table.settlement)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx import EngineError
from kwx.hand.money import expected_horse_score, horse_score
from kwx.hand.tiles import KIND_OF_ID
from kwx.rules import OPTIONS, PRESETS, resolve
from kwx.table.settlement import settle_json

PLAYERS = ["甲", "乙", "丙"]
KA_WU_XING = "4556p123s789sZZZ"
PENG = {"hand": "111p999p22s77s", "melds": [{"type": "pong", "tile": "Z"}]}


def settle(**body):
    """Settle a request (seats by index) and return (nets, [(payer, payee, kind, amount)])."""
    done = settle_json({"players": PLAYERS, **body})
    return done.nets, sorted((p.payer, p.payee, p.kind, p.amount) for p in done.payments)


def winner(seat, hand, tile, **more):
    base = hand if isinstance(hand, dict) else {"hand": hand}
    return {"player": seat, **base, "tile": tile, **more}


def test_dui_liang_dui_fan_doubles_again_when_both_declared():
    nets, _ = settle(rules="xiaogan", options={"dui_liang_dui_fan": True}, result="self_draw", liang_dao=[0, 1], winners=[winner(0, KA_WU_XING, "5p")])
    # F 4 (卡五星 ×4): seat 1 (declared too) 4×2×2 = 16 capped 16, seat 2 4×2 = 8; 坎 2 each
    assert nets == (16 + 2 + 8 + 2, -18, -10)


def test_a_declared_payer_pays_double_only_under_winner_or_payer():
    town, _ = settle(rules="xiangyang_town", result="self_draw", liang_dao=[1], winners=[winner(0, KA_WU_XING, "5p")])
    legacy, _ = settle(rules="xiangyang", result="self_draw", liang_dao=[1], winners=[winner(0, KA_WU_XING, "5p")])
    assert town == (6, -4, -2) and legacy == (4, -2, -2)


def test_a_pinghu_may_win_on_a_declared_discarders_tile_under_winner_or_payer():
    plain = {"hand": "123p456p789p23sFF", "tile": "1s"}
    nets, payments = settle(rules="xiaogan", result="discard", discarder=1, liang_dao=[1], winners=[winner(0, plain["hand"], "1s")])
    assert nets == (2, -2, 0) and payments == [(1, 0, "win", 2)]
    with pytest.raises(EngineError, match="屁胡"):
        settle(rules="xiaogan", result="discard", discarder=2, liang_dao=[1], winners=[winner(0, plain["hand"], "1s")])
    with pytest.raises(EngineError, match="屁胡"):
        settle(rules="standard", result="discard", discarder=1, liang_dao=[1], winners=[winner(0, plain["hand"], "1s")])


def test_bao_hu_off_on_and_capped_sum():
    args = {"result": "discard", "discarder": 1, "liang_dao": [0], "winners": [winner(0, PENG, "7s")]}
    assert settle(rules="standard", **args)[0] == (8, -8, 0)  # on: 4 + 4
    assert settle(rules="xiaogan", **args)[0][0] == 8 + 3  # off: 碰碰胡 4 × 亮倒 2, + 坎 3
    assert settle(rules="xiangyang_town", **args)[0] == (8, -8, 0)  # capped_sum: min(8, 4 + 4)
    assert settle(rules="standard", options={"bao_hu": "capped_sum", "cap": 8}, **args)[0] == (8, -8, 0)
    # capped_sum does not apply when the discarder declared too: an ordinary payment, doubled for the payer's 亮倒 once
    both = {**args, "liang_dao": [1, 0]}
    assert settle(rules="xiangyang_town", **both)[0] == (4, -4, 0)


def test_bao_hu_piao_both_and_kan_double():
    args = {"result": "discard", "discarder": 1, "liang_dao": [0], "piao": [1, 2, 5], "winners": [winner(0, PENG, "7s")]}
    options = {"bao_hu": "on", "bao_hu_piao": "both", "bao_hu_kan": "double", "shu_kan": True}
    nets, _ = settle(rules="standard", options=options, **args)
    assert nets[0] == 8 + (1 + 2) + (1 + 5) + 2 * 3


def test_drawn_hand_first_declarer_and_none():
    base = {"result": "draw", "liang_dao": [2, 0]}
    assert settle(rules="xiangyang_town", options={"hua_zhuang": "first_declarer"}, **base)[0] == (1, 1, -2)
    assert settle(rules="shiyan_town", options={"hua_zhuang": "first_declarer"}, dice=[1, 2], **base)[0] == (2, 2, -4)
    assert settle(rules="xiangyang_town", options={"hua_zhuang": "none"}, **base)[0] == (0, 0, 0)
    assert settle(rules="standard", **base)[0] == (-1, 2, -1)


def test_cha_da_jiao_needs_every_hand_and_a_ready_declarer():
    hands = ["4556p123s789sZZZ", "11p33p55s77sFFBB9s", "123p456p789p1s5sFB"]
    with pytest.raises(EngineError) as caught:
        settle(rules="xiaogan", result="draw", liang_dao=[0])
    assert caught.value.field == "hands"
    with pytest.raises(EngineError) as caught:
        settle(rules="xiaogan", result="draw", liang_dao=[2], hands=hands)
    assert caught.value.field == "hands" and "丙" in str(caught.value)
    nets, _ = settle(rules="xiaogan", result="draw", liang_dao=[0], hands=hands)
    assert nets == (2, 12, -14)  # W7


def test_three_ready_non_declarers_pay_nothing():
    hands = ["4556p123s789sZZZ", "11p33p55s77sFFBB9s", "222p678p234s66sBB"]
    assert settle(rules="xiaogan", result="draw", hands=hands)[0] == (0, 0, 0)


def test_horses_count_and_score():
    ld = {"rules": "suizhou", "result": "self_draw", "liang_dao": [0], "winners": [winner(0, "123p456p789p23sFF", "1s")]}
    assert settle(horses=["7s"], **ld)[0] == (18, -9, -9)
    with pytest.raises(EngineError) as caught:
        settle(horses=["7s", "8s"], **ld)
    assert caught.value.field == "horses"
    with pytest.raises(EngineError) as caught:
        settle(**ld)
    assert caught.value.field == "horses"
    assert settle(horses=[], wall_left=0, **ld)[0] == (4, -2, -2)
    undeclared = {**ld, "liang_dao": [], "winners": [winner(0, KA_WU_XING, "5p")]}
    with pytest.raises(EngineError, match="No horses"):
        settle(horses=["7s"], **undeclared)
    rules = resolve("standard", {"mai_ma": "six"})
    five, dragon = KIND_OF_ID["5p"], KIND_OF_ID["Z"]
    assert horse_score(tuple(KIND_OF_ID[t] for t in ("1p", "3s", "4p", "6s", "7p", "9p")), five, rules) == 6  # no hit among six
    assert horse_score(tuple(KIND_OF_ID[t] for t in ("1p", "3s")), five, rules) == 0  # two left in the wall, none hits
    assert horse_score(tuple(KIND_OF_ID[t] for t in ("2p", "5s", "8s", "B", "1p", "1s")), dragon, rules) == 1  # a dragon win: dragons only
    assert horse_score((dragon,), five, resolve("standard", {"mai_ma": "one"})) == 10
    assert expected_horse_score(five, (4,) * 21, resolve("standard", {"mai_ma": "one"})) == pytest.approx((2 * 45 + 30) / 21)


def test_dice_and_piao_are_required_or_refused_by_the_rules():
    win = {"result": "self_draw", "winners": [winner(0, KA_WU_XING, "5p")]}
    with pytest.raises(EngineError) as caught:
        settle(rules="shiyan_town", **win)
    assert caught.value.field == "dice"
    assert settle(rules="shiyan_town", dice=[3, 3], **win)[0] == (16, -8, -8)  # 卡五星 4 × 上楼 2, capped 8
    with pytest.raises(EngineError) as caught:
        settle(rules="xiaogan", options={"piao_mode": "off"}, piao=[1, 0, 0], **win)
    assert caught.value.field == "piao"


def test_an_an_gang_of_tiles_held_before_takes_no_chain_factor_under_the_town_rule():
    kongs = [{"who": 0, "type": "an_gang", "tile": "3s", "chain": 1}, {"who": 0, "type": "an_gang", "tile": "4s", "chain": 2, "drawn": False}]
    _, payments = settle(rules="xiaogan", result="draw", hands=["1234567p{3333s}{4444s}", "11p33p55s77sFFBB9s", "123p456p789p1s5sFB"], kongs=kongs)
    assert [p for p in payments if p[2] == "kong"] == [(1, 0, "kong", 2)] * 2 + [(2, 0, "kong", 2)] * 2
    legacy = settle(rules="standard", result="draw", kongs=kongs)[0]
    assert legacy == (12, -6, -6)


def test_fan_options_change_f():
    four_melds = {"hand": "5s", "melds": [{"type": "pong", "tile": "2p"}, {"type": "pong", "tile": "7s"}, {"type": "pong", "tile": "F"}, {"type": "concealed_kong", "tile": "B"}]}
    kong = [{"who": 0, "type": "an_gang", "tile": "B"}]
    win = {"result": "self_draw", "kongs": kong, "winners": [winner(0, four_melds, "5s")]}
    assert settle(rules="standard", **win)[0][0] == 2 * 8 + 4
    assert settle(rules="standard", options={"shou_zhua_yi_fan": 2}, **win)[0][0] == 2 * 4 + 4
    assert settle(rules="standard", options={"shou_zhua_yi_with_peng_peng_hu": False}, **win)[0][0] == 2 * 4 + 4
    three_fours = {"result": "self_draw", "winners": [winner(0, "1111222233334p", "4p")]}
    assert settle(rules="standard", **three_fours)[0][0] == 2 * 16 * 4  # 三龙 counts as 双龙 ×16, × 清一色 4
    assert settle(rules="standard", options={"qi_dui_scale": "4-8-16-32"}, **three_fours)[0][0] == 2 * 32 * 4
    assert settle(rules="standard", options={"qi_dui_scale": "4-8-32-128"}, **three_fours)[0][0] == 2 * 128 * 4


def test_self_draw_min_2_spares_a_declared_hand():
    plain = {"result": "self_draw", "winners": [winner(0, "123p456p789p23sFF", "1s")]}
    with pytest.raises(EngineError, match="×2"):
        settle(rules="yingcheng", **plain)
    assert settle(rules="yingcheng", liang_dao=[0], **plain)[0] == (4, -2, -2)


def test_a_declared_hand_cannot_rob_a_kong_under_no_feed_xu_gang():
    rob = {"result": "rob_kong", "discarder": 1, "liang_dao": [0], "winners": [winner(0, "23s789s22pZZZ", "4s", melds=[{"type": "pong", "tile": "F"}])]}
    assert settle(rules="shiyan", **rob)[0] == (8, -8, 0)
    with pytest.raises(EngineError, match="no_feed_xu_gang"):
        settle(rules="shiyan_town", dice=[1, 2], **rob)


SIMPLE_WINS = [(KA_WU_XING, "5p"), ("111p999p22s77sZZZ", "7s"), ("1122p334sZZFFBB", "4s"), ("2245556p123789s", "5p"), ("123p456p789p23sFF", "1s"), ("1112345678999p", "5p")]


@given(
    st.sampled_from(list(PRESETS)),
    st.fixed_dictionaries({}, optional={o.key: st.sampled_from(o.values) for o in OPTIONS if o.step in ("fans", "multiplier", "cap", "bao_hu", "extras") and o.key not in ("mai_ma", "shang_lou")}),
    st.sampled_from(SIMPLE_WINS),
    st.sampled_from(["self_draw", "discard"]),
    st.lists(st.integers(0, 2), unique=True, max_size=3),
    st.lists(st.sampled_from([0, 1, 2, 5]), min_size=3, max_size=3),
    st.integers(1, 50),
)
def test_every_settlement_balances_and_every_payment_is_its_parts(rules, options, shape, result, declared, piao, base):
    hand, tile = shape
    body = {"players": PLAYERS, "rules": rules, "options": {**options, "mai_ma": "none", "shang_lou": False}, "base": base, "piao": piao, "result": result, "liang_dao": declared}
    body["winners"] = [{"player": 0, "hand": hand, "tile": tile}]
    if result == "discard":
        body["discarder"] = 1
    try:
        done = settle_json(body)
    except EngineError as exc:
        assert exc.field == "winners"  # a win the rules refuse (屁胡 on a discard, ×1 self-draw where ×2 is needed)
        return
    assert sum(done.nets) == 0
    for payment in done.payments:
        assert payment.amount == sum(p.amount for p in payment.parts) and payment.amount % base == 0 and payment.amount > 0
    value = done.wins[0].value
    if not done.extras[0].bao_hu:
        for payment in done.payments:
            fan = payment.grouped()["fan"] // base
            assert fan >= value.fan_product if value.cap is None else fan <= value.cap


@given(
    st.sampled_from(["standard", "xiangyang", "shiyan"]),
    st.sampled_from(SIMPLE_WINS),
    st.sampled_from(["self_draw", "discard"]),
    st.booleans(),
    st.lists(st.sampled_from([0, 1, 2, 5]), min_size=3, max_size=3),
)
def test_the_legacy_path_is_kwx_rules_section_6(rules, shape, result, declared, piao):
    """Under a legacy preset a win payment is V (2·V for 包胡) plus both players' 漂 (kwx-rules §6)."""
    hand, tile = shape
    body = {"players": PLAYERS, "rules": rules, "piao": piao, "result": result, "liang_dao": [0] if declared else [], "winners": [{"player": 0, "hand": hand, "tile": tile}]}
    if result == "discard":
        body["discarder"] = 1
    try:
        done = settle_json(body)
    except EngineError:
        return
    v = done.wins[0].value.total
    expected = {1: v + piao[0] + piao[1], 2: v + piao[0] + piao[2]} if result == "self_draw" else {1: (2 * v if declared else v) + piao[0] + piao[1]}
    assert {p.payer: p.amount for p in done.payments} == expected


def test_a_declared_hand_that_sha_ma_broke_ranks_as_not_ready():
    """Under 杀马 a forced kong may drop a declared hand's waits; at a drawn hand it is then not ready (rank 0), not an error."""
    hands = ["123p456p789p1s5sFB", "11p33p55s77sFFBB9s", "4556p123s789sZZZ"]
    nets, payments = settle(rules="suizhou", result="draw", liang_dao=[0, 1], hands=hands)
    assert (0, 1, "cha_da_jiao", 8) in payments and (0, 2, "cha_da_jiao", 4) in payments  # the broken declarer pays both ready seats (its own 亮倒 doubles what it pays)
    assert sum(nets) == 0
    with pytest.raises(EngineError, match="not ready"):
        settle(rules="xiaogan", result="draw", liang_dao=[0, 1], hands=hands)  # without 杀马 a declared hand is always ready

"""Settlement (kwx-rules §6): one test per rule with worked numbers, the checks, and zero-sum as a property."""

from __future__ import annotations

from itertools import permutations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx import EngineError
from kwx.hand.tiles import KIND_OF_ID
from kwx.table.settlement import PIAO_CHOICES, Settlement, double_win_partner, next_dealer, settle_json

PLAYERS = ["甲", "乙", "丙"]
KA_WU_XING = {"hand": "4556p123s789sZZZ", "tile": "5p"}  # ×2 (卡五星), self-draw or discard
KA_WU_XING_2 = {"hand": "46p111s222s333sFF", "tile": "5p"}  # ×2, compatible with the one above
PINGHU = {"hand": "123456p789s11sZZ", "tile": "Z"}  # ×1: self-draw only
QING_QI_DUI = {"hand": "1122334456677p", "tile": "5p"}  # 清一色 × 七对 = ×16


def hand(**fields: Any) -> dict[str, Any]:
    """A hand's JSON with the three players filled in."""
    return {"players": PLAYERS, **fields}


def won(player: str, shape: dict[str, str], *situation: str) -> dict[str, Any]:
    """A winner entry."""
    return {"player": player, **shape, "situation": list(situation)}


def pays(result: Settlement) -> dict[tuple[int, int], int]:
    """Total paid per (payer, payee)."""
    out: dict[tuple[int, int], int] = {}
    for p in result.payments:
        out[(p.payer, p.payee)] = out.get((p.payer, p.payee), 0) + p.amount
    return out


# ---- win payments ----------------------------------------------------------------------------


def test_self_draw_both_others_pay_v():
    result = settle_json(hand(base=5, result="self_draw", winners=[won("甲", KA_WU_XING)]))
    assert result.wins[0].value.total == 2
    assert pays(result) == {(1, 0): 10, (2, 0): 10}
    assert result.nets == (20, -10, -10)
    assert [p.key for p in result.payments[0].parts] == ["self_draw"]


def test_discard_win_discarder_alone_pays_v():
    result = settle_json(hand(result="discard", discarder="丙", winners=[won("甲", KA_WU_XING)]))
    assert pays(result) == {(2, 0): 2}
    assert result.nets == (2, 0, -2)


def test_bao_hu_discarder_pays_twice_v_which_includes_liang_dao():
    result = settle_json(hand(result="discard", discarder="丙", liang_dao=["甲"], winners=[won("甲", KA_WU_XING)]))
    assert result.wins[0].value.total == 4  # 卡五星 ×2 · 亮倒 ×2
    assert pays(result) == {(2, 0): 8}  # 2 · V
    assert result.payments[0].parts[0].key == "bao_hu"


def test_liang_dao_self_draw_is_v_from_each_not_more():
    result = settle_json(hand(result="self_draw", liang_dao=["甲"], winners=[won("甲", KA_WU_XING)]))
    assert pays(result) == {(1, 0): 4, (2, 0): 4}


def test_double_win_discarder_pays_each_winner():
    result = settle_json(hand(result="discard", discarder="丙", winners=[won("甲", KA_WU_XING), won("乙", KA_WU_XING_2)]))
    assert pays(result) == {(2, 0): 2, (2, 1): 2}
    assert result.nets == (2, 2, -4)


def test_double_win_with_one_bao_hu():
    result = settle_json(hand(result="discard", discarder="丙", liang_dao=["乙"], winners=[won("甲", KA_WU_XING), won("乙", KA_WU_XING_2)]))
    assert pays(result) == {(2, 0): 2, (2, 1): 8}


def test_rob_kong_robbed_player_pays_v_with_qiang_gang_hu():
    result = settle_json(hand(result="rob_kong", discarder="乙", winners=[won("甲", KA_WU_XING_2)]))
    assert [f.key for f in result.wins[0].value.fans] == ["ka_wu_xing", "qiang_gang_hu"]
    assert pays(result) == {(1, 0): 4}
    assert result.payments[0].parts[0].key == "qiang_gang_hu"


def test_cap_of_the_preset_applies_to_v():
    standard = settle_json(hand(result="self_draw", winners=[won("甲", QING_QI_DUI)]))
    capped = settle_json(hand(rules="xiangyang", result="self_draw", winners=[won("甲", QING_QI_DUI)]))
    assert pays(standard) == {(1, 0): 16, (2, 0): 16}
    assert pays(capped) == {(1, 0): 8, (2, 0): 8}


def test_piao_is_added_per_win_payment_as_the_sum_of_both():
    result = settle_json(hand(piao=[1, 2, 5], result="self_draw", winners=[won("甲", KA_WU_XING)], kongs=[{"who": "乙", "type": "an_gang", "tile": "F"}]))
    assert pays(result) == {(1, 0): 2 + 3, (2, 0): 2 + 6, (0, 1): 2, (2, 1): 2}
    piao = result.payments[0].parts[1]
    assert (piao.key, piao.amount, piao.number("winner"), piao.number("payer")) == ("piao", 3, 1, 2)


def test_piao_is_added_once_to_bao_hu_and_scales_with_the_base():
    result = settle_json(hand(base=2, piao=[2, 0, 1], result="discard", discarder="丙", liang_dao=["甲"], winners=[won("甲", KA_WU_XING)]))
    assert pays(result) == {(2, 0): 2 * 4 * 2 + (2 + 1) * 2}


# ---- kong money -------------------------------------------------------------------------------


def test_kong_money_each_type():
    result = settle_json(
        hand(
            kongs=[
                {"who": "甲", "type": "an_gang", "tile": "Z"},
                {"who": "乙", "type": "ming_gang", "tile": "F"},
                {"who": "丙", "type": "zhi_gang", "tile": "B", "fed_by": "甲"},
            ]
        )
    )
    assert pays(result) == {(1, 0): 2, (2, 0): 2, (0, 1): 1, (2, 1): 1, (0, 2): 2}
    assert result.nets == (4 - 1 - 2, 2 - 2, -2 - 1 + 2)


def test_gang_shang_gang_doubles_later_kongs_of_a_chain():
    result = settle_json(
        hand(
            kongs=[
                {"who": "甲", "type": "an_gang", "tile": "Z"},  # 2 each
                {"who": "甲", "type": "ming_gang", "tile": "F", "chain": 2},  # 1 × 2 each
                {"who": "乙", "type": "zhi_gang", "tile": "B", "fed_by": "甲", "chain": 3},  # 2 × 4 from 甲
            ]
        )
    )
    assert [p.amount for p in result.payments] == [2, 2, 2, 2, 8]
    assert result.nets == (8 - 8, -2 - 2 + 8, -4)


def test_kong_money_is_paid_on_a_drawn_hand_and_besides_a_win():
    kongs = [{"who": "乙", "type": "an_gang", "tile": "F"}]
    draw = settle_json(hand(kongs=kongs))
    win = settle_json(hand(kongs=kongs, result="discard", discarder="丙", winners=[won("甲", KA_WU_XING)]))
    assert draw.nets == (-2, 4, -2)
    assert win.nets == (-2 + 2, 4, -2 - 2)


def test_kong_money_is_not_doubled_by_liang_dao_nor_given_piao():
    result = settle_json(hand(piao=[5, 5, 5], liang_dao=["乙"], kongs=[{"who": "乙", "type": "ming_gang", "tile": "F"}], result="self_draw", winners=[won("甲", KA_WU_XING)]))
    kong_payments = [p for p in result.payments if p.parts[0].key == "ming_gang"]
    assert [p.amount for p in kong_payments] == [1, 1]


# ---- drawn hand (荒庄) with 亮倒 -----------------------------------------------------------------


@pytest.mark.parametrize(
    "declared, nets",
    [
        ([], (0, 0, 0)),
        (["甲"], (-2, 1, 1)),
        (["甲", "乙"], (-1, -1, 2)),
        (["甲", "乙", "丙"], (0, 0, 0)),
    ],
)
def test_drawn_hand_each_declarer_pays_each_non_declarer_one(declared, nets):
    result = settle_json(hand(base=1, piao=[5, 5, 5], liang_dao=declared))
    assert result.nets == nets
    assert all(p.parts[0].key == "huang_zhuang" for p in result.payments)


def test_drawn_hand_with_liang_dao_and_kong_money_together():
    result = settle_json(hand(base=3, liang_dao=["丙"], kongs=[{"who": "丙", "type": "an_gang", "tile": "B"}]))
    assert result.nets == (3 - 6, 3 - 6, -3 - 3 + 6 + 6)


# ---- dealer -----------------------------------------------------------------------------------


def test_next_dealer_winner_discarder_after_double_and_same_after_draw():
    single = settle_json(hand(result="discard", discarder="丙", winners=[won("乙", KA_WU_XING)]))
    double = settle_json(hand(result="discard", discarder="丙", winners=[won("甲", KA_WU_XING), won("乙", KA_WU_XING_2)]))
    draw = settle_json(hand())
    assert next_dealer(single, 0) == 1
    assert next_dealer(double, 0) == 2
    assert next_dealer(draw, 1) == 1


# ---- refused input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body, field, words",
    [
        (hand(result="self_draw", winners=[won("丁", KA_WU_XING)]), "winners", "丁"),
        (hand(result="self_draw", winners=[won("甲", {"hand": "4556p123s789sZZZ", "tile": "6p"})]), "winners", "does not win on 6p"),
        (hand(result="discard", discarder="乙", winners=[won("甲", PINGHU)]), "winners", "屁胡"),
        (hand(result="self_draw", winners=[won("甲", {"hand": "4556p123s789sZZ", "tile": "5p"})]), "winners", "12 tiles"),
        (hand(result="self_draw", winners=[won("甲", {"hand": "4556p123s789sZZX", "tile": "5p"})]), "winners", "甲"),
        (hand(kongs=[{"who": "乙", "type": "an_gang", "tile": "Z"}], result="self_draw", winners=[won("甲", KA_WU_XING)]), "kongs", "need 7 copies"),
        (hand(kongs=[{"who": "乙", "type": "zhi_gang", "tile": "F"}]), "kongs", "discarded the fourth"),
        (hand(kongs=[{"who": "乙", "type": "zhi_gang", "tile": "F", "fed_by": "乙"}]), "kongs", "discarded the fourth"),
        (hand(kongs=[{"who": "乙", "type": "an_gang", "tile": "F"}, {"who": "甲", "type": "an_gang", "tile": "F"}]), "kongs", "already konged"),
        (hand(kongs=[{"who": "乙", "type": "an_gang", "tile": "F"}, {"who": "甲", "type": "an_gang", "tile": "B", "chain": 2}]), "kongs", "杠上杠"),
        (hand(kongs=[{"who": "乙", "type": "an_gang", "tile": "F", "chain": 2}]), "kongs", "杠上杠"),
        (hand(kongs=[{"who": "乙", "type": "kong", "tile": "F"}]), "kongs", "unknown type"),
        (hand(result="self_draw", winners=[won("甲", {"hand": "4556p123s[7777s]ZZZ", "tile": "5p"})]), "kongs", "not in the kong list"),
        (hand(kongs=[{"who": "甲", "type": "an_gang", "tile": "7s"}], result="self_draw", winners=[won("甲", {"hand": "4556p123s[7777s]ZZZ", "tile": "5p"})]), "kongs", "暗杠"),
        (hand(kongs=[{"who": "甲", "type": "an_gang", "tile": "F"}], result="self_draw", winners=[won("甲", KA_WU_XING)]), "kongs", "no such kong"),
        (hand(result="discard", winners=[won("甲", KA_WU_XING)]), "discarder", "discarded"),
        (hand(result="discard", discarder="甲", winners=[won("甲", KA_WU_XING)]), "discarder", "甲"),
        (hand(result="self_draw", discarder="乙", winners=[won("甲", KA_WU_XING)]), "discarder", "discarder"),
        (hand(result="self_draw"), "winners", "0 given"),
        (hand(result="discard", discarder="丙", winners=[won("甲", KA_WU_XING), won("乙", {"hand": "46p111s222s333sFF", "tile": "F"})]), "winners", "same"),
        (hand(result="rob_kong", discarder="乙", options={"rob_kong": False}, winners=[won("甲", KA_WU_XING_2)]), "winners", "抢杠胡"),
        (hand(result="self_draw", winners=[won("甲", KA_WU_XING, "gang_shang_kai_hua")]), "winners", "杠上开花"),
        (hand(result="discard", discarder="乙", winners=[won("甲", KA_WU_XING, "gang_shang_pao")]), "winners", "杠上炮"),
        (hand(result="discard", discarder="乙", winners=[won("甲", KA_WU_XING, "hai_di_lao")]), "winners", "hai_di_lao"),
        (hand(result="self_draw", winners=[won("甲", KA_WU_XING, "liang_dao")]), "winners", "亮倒 list"),
        (hand(piao=[3, 0, 0]), "piao", "0, 1, 2 or 5"),
        (hand(base=0), "base", "1 to"),
        (hand(base="²"), "base", "whole number"),  # a digit to str.isdigit, not to int()
        ({"players": ["甲", "甲", "丙"]}, "players", "different"),
        (hand(liang_dao=["丁"]), "liang_dao", "丁"),
        (hand(rules="wuhan"), "rules", "wuhan"),
        (hand(result="win"), "result", "win"),
        (hand(extra=1), "extra", "extra"),
    ],
)
def test_impossible_or_non_winning_input_is_refused(body, field, words):
    with pytest.raises(EngineError) as info:
        settle_json(body)
    assert info.value.field == field
    assert words in str(info.value)


def test_situational_fans_the_user_sets_count():
    body = hand(result="self_draw", kongs=[{"who": "甲", "type": "an_gang", "tile": "7s"}], winners=[won("甲", {"hand": "4556p123s{7777s}ZZZ", "tile": "5p"}, "gang_shang_kai_hua")])
    result = settle_json(body)
    assert [f.key for f in result.wins[0].value.fans] == ["ka_wu_xing", "gang_shang_kai_hua"]
    assert pays(result) == {(1, 0): 4 + 2, (2, 0): 4 + 2}


def test_gang_shang_pao_makes_a_pinghu_discard_win_allowed():
    body = hand(result="discard", discarder="乙", kongs=[{"who": "乙", "type": "an_gang", "tile": "F"}], winners=[won("甲", PINGHU, "gang_shang_pao")])
    assert pays(settle_json(body))[(1, 0)] == 2


# ---- zero-sum property ---------------------------------------------------------------------------

SINGLE_WINS = [KA_WU_XING, KA_WU_XING_2, PINGHU, QING_QI_DUI, {"hand": "1122p3344sZZFFB", "tile": "B"}]


def _held(shapes: list[dict[str, str]]) -> set[int]:
    """Kinds a winner holds or wins on (no kong may use them)."""
    from kwx import build_hand

    kinds = {KIND_OF_ID[s["tile"]] for s in shapes}
    for s in shapes:
        held = build_hand(s["hand"])[0].held
        kinds |= {k for k, n in enumerate(held) if n}
    return kinds


@st.composite
def hands(draw: st.DrawFn) -> dict[str, Any]:
    """Random valid hands: any result, 漂, 亮倒, base and chains of kongs by non-winners."""
    result = draw(st.sampled_from(["draw", "self_draw", "discard", "double", "rob_kong"]))
    order = draw(st.permutations([0, 1, 2]))
    liang = draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=3))
    body = hand(
        base=draw(st.integers(1, 50)),
        piao=draw(st.lists(st.sampled_from(PIAO_CHOICES), min_size=3, max_size=3)),
        rules=draw(st.sampled_from(["standard", "xiangyang", "shiyan"])),
        liang_dao=liang,
        result=result,
    )
    shapes: list[dict[str, str]] = []
    if result == "double":
        shapes = [KA_WU_XING, KA_WU_XING_2]
        body.update(result="discard", discarder=PLAYERS[order[2]])
    elif result == "rob_kong":
        shapes = [KA_WU_XING_2]
        body.update(discarder=PLAYERS[order[2]])
    elif result != "draw":
        pool = SINGLE_WINS if result == "self_draw" or PLAYERS[order[0]] in liang else [s for s in SINGLE_WINS if s is not PINGHU]
        shapes = [draw(st.sampled_from(pool))]
        if result == "discard":
            body["discarder"] = PLAYERS[order[2]]
    body["winners"] = [won(PLAYERS[order[i]], s) for i, s in enumerate(shapes)]
    winners = {order[i] for i in range(len(shapes))}
    free = [k for k in range(21) if k not in _held(shapes)]
    kinds = draw(st.lists(st.sampled_from(free), unique=True, max_size=4))
    kongs: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for kind in kinds:
        who = draw(st.sampled_from([p for p in range(3) if p not in winners] or [None]))
        if who is None:
            break
        kong_type = draw(st.sampled_from(["an_gang", "ming_gang", "zhi_gang"]))
        kong: dict[str, Any] = {"who": PLAYERS[who], "type": kong_type, "tile": f"{kind % 9 + 1}{'ps'[kind // 9]}" if kind < 18 else "ZFB"[kind - 18]}
        if kong_type == "zhi_gang":
            kong["fed_by"] = PLAYERS[draw(st.sampled_from([p for p in range(3) if p != who]))]
        if previous is not None and draw(st.booleans()):
            linked = kong.get("fed_by") == previous["who"] if kong_type == "zhi_gang" else kong["who"] == previous["who"]
            if linked:
                kong["chain"] = previous.get("chain", 1) + 1
        kongs.append(kong)
        previous = kong
    body["kongs"] = kongs
    return body


@given(hands())
def test_nets_always_sum_to_zero_and_scale_with_the_base(body):
    result = settle_json(body)
    assert sum(result.nets) == 0
    assert all(p.amount > 0 and p.payer != p.payee and p.amount == sum(x.amount for x in p.parts) for p in result.payments)
    unit = settle_json({**body, "base": 1})
    assert result.nets == tuple(body["base"] * n for n in unit.nets)


def test_the_double_win_partner_is_the_player_neither_winner_nor_discarder():
    for winner, discarder in permutations(range(3), 2):
        assert {winner, discarder, double_win_partner(winner, discarder)} == {0, 1, 2}
    assert double_win_partner(1, 1) is None

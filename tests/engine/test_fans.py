"""Every fan, preset, situation and rule option of kwx-rules §3."""

from __future__ import annotations

import pytest

from kwx import EngineError, analyze
from kwx.hand.fans import FAN_BY_KEY, FANS, HAND_FANS, SITUATIONAL_FANS
from kwx.rules import LEGACY, LEGACY_PRESETS, PRESETS
from tests.engine.helpers import fan_keys, win

# ---- hand fans, one by one


def test_peng_peng_hu():
    side = win("111p333555s[ZZZ]F", "F")
    assert fan_keys(side) == ["peng_peng_hu"] and side["total"] == 2


def test_peng_peng_hu_needs_every_set_a_triplet():
    assert fan_keys(win("123p333555s[ZZZ]F", "F")) == []


def test_ming_si_gui_yi_on_an_exposed_pong():
    side = win("46p11s[555p][FFF][BBB]", "5p")
    assert "ming_si_gui_yi" in fan_keys(side) and "an_si_gui_yi" not in fan_keys(side)


def test_an_si_gui_yi_by_discard_too():
    for side in ("self_draw", "discard"):
        assert "an_si_gui_yi" in fan_keys(win("1112345678999p", "1p", side))


def test_an_si_gui_yi_not_from_a_kong():
    # the fourth copy of a kong can't be drawn; a concealed triplet of another kind gives nothing
    assert "an_si_gui_yi" not in fan_keys(win("111p456s78sZZ[9999p]", "6s"))


def test_qi_dui():
    side = win("1122p334sZZFFBB", "4s")
    assert fan_keys(side) == ["qi_dui"] and side["total"] == 4


def test_long_qi_dui_replaces_qi_dui_and_drops_si_gui_yi():
    side = win("1122p3344sZZFFF", "F")
    assert fan_keys(side) == ["long_qi_dui"] and side["total"] == 8


def test_shuang_long_qi_dui():
    side = win("1122335555pBBB", "B")
    assert fan_keys(side) == ["shuang_long_qi_dui"] and side["total"] == 16


def test_da_san_yuan_excludes_xiao_san_yuan():
    keys = fan_keys(win("123p44sZZZFFFBB", "B"))
    assert "da_san_yuan" in keys and "xiao_san_yuan" not in keys


def test_xiao_san_yuan():
    side = win("123p456sZZZFFFB", "B")
    assert fan_keys(side) == ["xiao_san_yuan"] and side["total"] == 4


def test_xiao_san_yuan_with_dragon_pair_waiting_elsewhere():
    assert "xiao_san_yuan" in fan_keys(win("12p456sZZZFFFBB", "3p"))


def test_qing_yi_se_counts_melds():
    assert "qing_yi_se" in fan_keys(win("1234p[555p][777p][999p]", "1p"))
    assert "qing_yi_se" not in fan_keys(win("1234p[555p][777p][ZZZ]", "1p"))


def test_shou_zhua_yi_is_also_peng_peng_hu():
    side = win("1p[ZZZ][FFF][BBB][444p]", "1p")
    assert fan_keys(side) == ["peng_peng_hu", "da_san_yuan", "shou_zhua_yi"]
    assert side["total"] == 64


@pytest.mark.parametrize("hand", ["4556p123789sZZZ", "4688p123789sZZZ", "2245667p123789s", "2245556p123789s"])
def test_ka_wu_xing_shapes(hand):
    assert "ka_wu_xing" in fan_keys(win(hand, "5p"))


def test_ka_wu_xing_only_on_the_five():
    assert fan_keys(win("2245667p123789s", "8p")) == []


def test_five_as_an_edge_of_a_run_is_not_ka_wu_xing():
    assert "ka_wu_xing" not in fan_keys(win("34p123789sZZZFF", "5p"))


def test_ka_wu_xing_in_bamboo():
    assert "ka_wu_xing" in fan_keys(win("123789p46sZZZFF", "5s"))


# ---- readings


def test_best_reading_seven_pairs_over_ka_wu_xing():
    side = win("1122334456677p", "5p")
    assert sorted(fan_keys(side)) == ["qi_dui", "qing_yi_se"] and side["total"] == 16


def test_long_qi_dui_ties_ka_wu_xing_an_si_gui_yi():
    assert win("1122334455566p", "5p")["total"] == 32


def test_peng_peng_hu_reading_beats_runs():
    assert win("6p111222333777s", "6p")["total"] == 2


# ---- presets


def test_every_preset_exists():
    assert LEGACY_PRESETS == ("standard", "xiangyang", "shiyan")
    assert set(PRESETS) == {*LEGACY_PRESETS, "xiaogan", "xiangyang_town", "shiyan_town", "suizhou", "yicheng", "yingcheng"}


def test_ka_wu_xing_is_four_in_shiyan():
    assert win("4556p123789sZZZ", "5p", rules="shiyan")["total"] == 4
    assert win("4556p123789sZZZ", "5p", rules="xiangyang")["total"] == 2


def test_xiangyang_cap_and_its_shuang_long_exception():
    assert win("1122334455566p", "5p", rules="xiangyang")["total"] == 8
    assert win("1122335555pBBB", "B", rules="xiangyang")["total"] == 16
    assert win("1122335555pBBB", "B", rules="shiyan")["total"] == 8


def test_cap_covers_situational_fans():
    side = win("46p11s[555p][FFF][BBB]", "5p", rules="shiyan", situation=["liang_dao"])
    assert side["total"] == 8


def test_no_cap_in_standard():
    assert win("1p[ZZZ][FFF][BBB][444p]", "1p", situation=["liang_dao"])["total"] == 128


# ---- situations and the 屁胡 rule


def test_pinghu_self_draw_only():
    assert win("123456789p1178s", "6s")["total"] == 1
    side = win("123456789p1178s", "6s", "discard")
    assert {k: side[k] for k in ("allowed", "total", "fans", "reason")} == {"allowed": False, "total": 0, "fans": [], "reason": "pinghu"}
    assert side["amount"] == 0 and side["fan_product"] == 1


def test_pinghu_option_off_allows_a_discard_win():
    side = win("123456789p1178s", "6s", "discard", options={"pinghu_selfdraw_only": False})
    assert side["allowed"] and side["total"] == 1


@pytest.mark.parametrize(
    "situation, self_draw, discard",
    [
        (["liang_dao"], 2, 2),
        (["gang_shang_kai_hua"], 2, 0),
        (["hai_di_lao"], 2, 0),
        (["gang_shang_pao"], 1, 2),
        (["qiang_gang_hu"], 1, 2),
        (["gang_shang_kai_hua", "hai_di_lao", "liang_dao"], 8, 2),
    ],
)
def test_situational_fans_apply_to_their_side(situation, self_draw, discard):
    assert win("123456789p1178s", "6s", situation=situation)["total"] == self_draw
    assert win("123456789p1178s", "6s", "discard", situation=situation)["total"] == discard


def test_rob_kong_off_forbids_robbing():
    side = win("4556p123789sZZZ", "5p", "discard", situation=["qiang_gang_hu"], options={"rob_kong": False})
    assert side["allowed"] is False and side["reason"] == "rob_kong_off"
    assert win("4556p123789sZZZ", "5p", situation=["qiang_gang_hu"], options={"rob_kong": False})["total"] == 2


def test_contradictory_situations_are_refused():
    with pytest.raises(EngineError) as info:
        analyze("4556p123789sZZZ", situation=["gang_shang_pao", "qiang_gang_hu"])
    assert info.value.field == "situation"


# ---- si_gui_yi_big_hand


def test_big_hand_si_gui_yi_option():
    hand = "3333445678s"
    melds = [{"type": "pong", "tile": "7s"}]
    assert win(hand, "2s", melds=melds)["total"] == 4
    side = win(hand, "2s", melds=melds, options={"si_gui_yi_big_hand": True})
    assert side["total"] == 32
    tiles = {(f["key"], f.get("tile")) for f in side["fans"]}
    assert ("an_si_gui_yi", "3s") in tiles and ("ming_si_gui_yi", "7s") in tiles


def test_big_hand_si_gui_yi_skips_kongs_and_small_hands():
    assert win("111123p456789sZ", "Z", options={"si_gui_yi_big_hand": True})["total"] == 1
    side = win("1222p[3333p][555p][777p]", "1p", options={"si_gui_yi_big_hand": True})
    assert ("an_si_gui_yi", "3p") not in {(f["key"], f.get("tile")) for f in side["fans"]}


def test_unknown_option_is_refused():
    with pytest.raises(EngineError) as info:
        analyze("4556p123789sZZZ", options={"riichi": True})
    assert info.value.field == "options"


# ---- the table itself


def test_fan_table_is_complete_and_unique():
    assert len(FAN_BY_KEY) == len(FANS) == 19
    assert {f.key for f in SITUATIONAL_FANS} == {"gang_shang_kai_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di_lao", "hai_di_pao", "liang_dao"}
    for f in FANS:
        assert f.name and f.name_en and f.definition and f.definition_en and f.examples
        assert f.multiplier(LEGACY) >= 2
        assert f.option is None or f.tier is None


@pytest.mark.parametrize("fan", FANS, ids=lambda f: f.key)
def test_every_example_shows_its_fan(fan):
    for example in fan.examples:
        side = win(example.hand, example.win, example.side, rules=example.rules, situation=list(example.situation))
        assert fan.key in fan_keys(side), example
        assert side["allowed"]


def test_hand_fans_are_not_situational():
    assert all(not f.situational for f in HAND_FANS)


@pytest.mark.parametrize("fan", [f for f in FANS if f.option is not None], ids=lambda f: f.key)
def test_a_fan_whose_value_a_town_sets_names_no_multiplier_in_its_definition(fan):
    for text in (fan.definition, fan.definition_en):
        assert "×" not in text, f"{fan.key}: {text!r} states a multiplier a rule option changes"

"""kwx.rules: one value for a town's rules, the presets as data, resolve() and stored() (town-rules.md §1, §3)."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx import EngineError
from kwx.rules import (
    LEGACY,
    LEGACY_PRESETS,
    OPTION_BY_KEY,
    OPTION_KEYS,
    OPTIONS,
    PRESETS,
    Preset,
    RuleSet,
    add_preset,
    check_option,
    label,
    preset,
    read_option_text,
    record_options,
    remove_preset,
    resolve,
    stored,
    town_presets,
)

SECTION_1_1 = (
    "ka_wu_xing_fan peng_peng_hu_fan gang_shang_fan shou_zhua_yi_fan shou_zhua_yi_with_peng_peng_hu qi_dui_scale cap cap_shuang_long_16 si_gui_yi si_gui_yi_big_hand hai_di "
    "liang_dao_double dui_liang_dui_fan bao_hu bao_hu_piao bao_hu_kan hua_zhuang hua_zhuang_first_pays shu_kan pao_qia_mo_ba mai_ma mai_ma_trigger shang_lou piao_mode "
    "ban_liang no_feed_liang_dao liang_dao_no_melds sha_ma self_draw_min_2 pinghu_selfdraw_only rob_kong qing_yi_se_fours an_gang_chain_drawn_only "
    "no_feed_declaring_discard no_feed_xu_gang"
).split()


def test_every_option_of_town_rules_is_one_field_with_its_legacy_default_among_its_values():
    assert list(OPTION_KEYS) == SECTION_1_1 == [f.name for f in fields(RuleSet)]
    for option in OPTIONS:
        assert option.legacy in option.values, option.key
        assert option.name and option.name_en and option.meaning and option.meaning_en
        assert option.strength in ("well", "single", "conflicting")
        for value in option.values:
            assert option.label(value) and option.label(value, english=True)


def test_the_legacy_presets_keep_their_meaning():
    assert LEGACY_PRESETS == ("standard", "xiangyang", "shiyan")
    assert PRESETS["standard"].values == LEGACY == RuleSet()
    assert PRESETS["xiangyang"].values == replace(LEGACY, cap=8, cap_shuang_long_16=True)
    assert PRESETS["shiyan"].values == replace(LEGACY, ka_wu_xing_fan=4, cap=8)


@pytest.mark.parametrize(
    "key, values",
    [
        ("xiaogan", {"ka_wu_xing_fan": 4, "peng_peng_hu_fan": 4, "gang_shang_fan": 4, "cap": 16, "shu_kan": True, "bao_hu": "off", "hua_zhuang": "cha_da_jiao", "si_gui_yi": "winning_tile"}),
        ("xiangyang_town", {"cap": 8, "cap_shuang_long_16": True, "si_gui_yi": "all_fours", "hai_di": "lao_and_pao", "bao_hu": "capped_sum", "bao_hu_piao": "both", "bao_hu_kan": "double"}),
        ("shiyan_town", {"ka_wu_xing_fan": 4, "shang_lou": True, "hua_zhuang_first_pays": 2, "bao_hu": "capped_sum"}),
        ("suizhou", {"mai_ma": "one", "sha_ma": True, "hua_zhuang": "cha_da_jiao_suizhou", "cap_shuang_long_16": True}),
        ("yicheng", {"pao_qia_mo_ba": True, "cap": 8}),
        ("yingcheng", {"shou_zhua_yi_with_peng_peng_hu": False, "ban_liang": True, "self_draw_min_2": True}),
    ],
)
def test_town_presets_hold_the_values_of_section_3_2(key, values):
    town = PRESETS[key]
    assert not town.legacy
    for option, value in values.items():
        assert town.values.value(option) == value, option
    # what every town shares: GO-FR's table and kong rules, 杠翻, the 4-8-16-32 tiers, 亮倒 by winner or payer
    for option, value in {
        "no_feed_declaring_discard": True,
        "no_feed_xu_gang": True,
        "qing_yi_se_fours": True,
        "an_gang_chain_drawn_only": True,
        "qi_dui_scale": "4-8-16-32",
        "liang_dao_double": "winner_or_payer",
    }.items():
        assert town.values.value(option) == value, (key, option)
    assert town.room and set(town.room) <= set(OPTION_KEYS)
    assert set(town.sources) <= set(OPTION_KEYS)


def test_a_request_takes_its_options_then_the_preset_then_the_legacy_default():
    assert resolve("xiaogan") == PRESETS["xiaogan"].values
    assert resolve("xiaogan", {"cap": 8}).cap == 8
    assert resolve("xiaogan", {"cap": 8}).shu_kan is True
    assert resolve("standard", {"cap": None}) == LEGACY
    # a request's option is taken as given, without a room's coupling (§3.1)
    assert resolve("xiangyang_town", {"si_gui_yi": "winning_tile"}).hai_di == "lao_and_pao"


def test_a_stored_record_never_takes_a_towns_current_value():
    assert stored("xiaogan", {}) == LEGACY
    assert stored("shiyan", {}) == PRESETS["shiyan"].values
    assert stored("xiaogan", PRESETS["xiaogan"].values.as_dict()) == PRESETS["xiaogan"].values


def test_records_write_every_option_under_a_town_and_only_what_differs_under_a_legacy_preset():
    town = PRESETS["suizhou"].values
    assert record_options("suizhou", town) == town.as_dict()
    assert stored("suizhou", record_options("suizhou", town)) == town
    assert record_options("standard", LEGACY) == {"pinghu_selfdraw_only": True, "rob_kong": True, "si_gui_yi_big_hand": False}
    assert record_options("shiyan", replace(PRESETS["shiyan"].values, shu_kan=True))["shu_kan"] is True


@given(st.sampled_from(list(PRESETS)), st.fixed_dictionaries({}, optional={o.key: st.sampled_from(o.values) for o in OPTIONS}))
def test_what_a_record_stores_reads_back_as_the_same_rules(key, changes):
    values = resolve(key, changes)
    assert stored(key, record_options(key, values)) == values
    assert resolve(key, record_options(key, values)) == values


@pytest.mark.parametrize(
    "options, words",
    [
        ({"nope": True}, "nope"),
        ({"cap": 12}, "cap"),
        ({"cap": "8"}, "cap"),
        ({"shu_kan": 1}, "shu_kan"),
        ({"si_gui_yi": "half"}, "si_gui_yi"),
        ({"ka_wu_xing_fan": True}, "ka_wu_xing_fan"),
    ],
)
def test_a_bad_option_names_itself_and_what_it_takes(options, words):
    with pytest.raises(EngineError) as caught:
        resolve("standard", options)
    assert caught.value.field == "options" and words in str(caught.value)


def test_an_unknown_preset_is_refused_naming_rules():
    with pytest.raises(EngineError) as caught:
        preset("wuhan")
    assert caught.value.field == "rules" and "xiaogan" in str(caught.value)


def test_options_typed_in_a_url_are_read_by_their_values():
    assert read_option_text("cap", "16") == 16
    assert read_option_text("cap", "none") is None
    assert read_option_text("shu_kan", "1") is True
    assert read_option_text("si_gui_yi", "all_fours") == "all_fours"
    with pytest.raises(EngineError) as caught:
        read_option_text("cap", "12")
    assert caught.value.field == "cap"
    assert check_option("mai_ma", "six") == "six"


def test_a_room_switch_sets_what_it_is_coupled_to():
    xiangyang = PRESETS["xiangyang_town"]
    half = xiangyang.switch(xiangyang.values, "si_gui_yi", "winning_tile")
    assert (half.si_gui_yi, half.hai_di) == ("winning_tile", "none")
    xiaogan = PRESETS["xiaogan"]
    two = xiaogan.switch(xiaogan.values, "peng_peng_hu_fan", 2)
    assert (two.peng_peng_hu_fan, two.gang_shang_fan) == (2, 2)
    assert xiaogan.changed(two) == ("peng_peng_hu_fan", "gang_shang_fan")
    assert label("xiaogan", two) == "孝感（改）" and label("xiaogan", xiaogan.values) == "孝感"
    assert label("xiaogan", two, english=True) == "Xiaogan (changed)"


def test_the_cap_of_a_reading():
    assert PRESETS["xiangyang"].values.cap_for(("shuang_long_qi_dui",)) == 16
    assert PRESETS["xiangyang"].values.cap_for(("qi_dui",)) == 8
    assert PRESETS["xiaogan"].values.cap_for(("shuang_long_qi_dui",)) == 16
    assert PRESETS["shiyan"].values.cap_for(("shuang_long_qi_dui",)) == 8
    assert LEGACY.cap_for(("shuang_long_qi_dui",)) is None


def test_a_new_town_is_data():
    jingshan = Preset("jingshan", "京山", "Jingshan", replace(PRESETS["xiaogan"].values, cap=8), room=("cap",), note="测试", note_en="test")
    add_preset(jingshan)
    try:
        assert "jingshan" in town_presets()
        assert resolve("jingshan").cap == 8 and resolve("jingshan").shu_kan
        assert OPTION_BY_KEY["cap"].label(resolve("jingshan").cap) == "×8"
        with pytest.raises(ValueError):
            add_preset(jingshan)
    finally:
        remove_preset("jingshan")
    assert "jingshan" not in PRESETS
    with pytest.raises(ValueError):
        remove_preset("xiaogan")


def test_a_room_picks_only_what_its_town_allows():
    assert PRESETS["xiaogan"].choices("cap") == (8, 16)
    assert PRESETS["shiyan_town"].choices("cap") == (8,)  # 满和: fixed
    assert PRESETS["xiangyang_town"].choices("hua_zhuang") == ("cha_da_jiao", "first_declarer", "none")
    assert PRESETS["suizhou"].choices("mai_ma") == ("one", "six")
    assert PRESETS["xiaogan"].choices("mai_ma") == ("none", "one", "six")
    assert PRESETS["xiaogan"].choices("shu_kan") == (False, True)
    for town in PRESETS.values():
        for key in town.room:
            assert town.values.value(key) in town.choices(key), (town.key, key)

"""Hostile input: whatever is thrown at the parser and at analyze(), only EngineError comes out."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kwx import EngineError, analyze, shanten
from kwx.hand.notation import parse_hand, parse_tile, parse_tiles

NOTATION_ALPHABET = "0123456789psmzZFBfbPS中发發白筒饼条索万东南一二三四五六七八九[]{} ,，x🀄\u3000\n"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=20,
)
notation_text = st.text(alphabet=NOTATION_ALPHABET, max_size=40) | st.text(max_size=40)


@given(notation_text)
def test_the_parser_raises_only_engine_errors(text):
    for parse in (parse_hand, parse_tiles, parse_tile):
        try:
            parse(text)
        except EngineError as exc:
            assert str(exc)
            assert exc.translated(lambda s: s)


@given(notation_text, json_values)
def test_shanten_raises_only_engine_errors(text, melds):
    try:
        shanten(text, melds)
    except EngineError:
        pass


@given(
    hand=notation_text | json_values,
    melds=json_values | st.lists(st.fixed_dictionaries({"type": json_values, "tile": json_values}), max_size=5),
    visible=notation_text | json_values,
    rules=json_values | st.sampled_from(["standard", "xiangyang", "shiyan"]),
    situation=json_values | st.lists(st.sampled_from(["liang_dao", "hai_di_lao", "qiang_gang_hu", "gang_shang_pao", "x"])),
    options=json_values | st.dictionaries(st.sampled_from(["rob_kong", "si_gui_yi_big_hand", "pinghu_selfdraw_only"]), json_values),
)
def test_analyze_raises_only_engine_errors(hand, melds, visible, rules, situation, options):
    try:
        analyze(hand, melds=melds, visible=visible, rules=rules, situation=situation, options=options)
    except EngineError as exc:
        assert exc.field in {"hand", "melds", "visible", "rules", "situation", "options"}


@given(st.text(alphabet="123456789ps", min_size=14, max_size=30))
def test_near_valid_hands_analyse_or_fail_cleanly(text):
    try:
        result = analyze(text)
    except EngineError:
        return
    assert result["tile_count"] in (13, 14)

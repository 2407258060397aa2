"""Each theme tagger on a hand that has the theme and one that does not (options from the engine)."""

from __future__ import annotations

import re

import pytest

from kwx import build_hand
from kwx.hand.efficiency import discard_options
from kwx.hand.rules import make_rules
from puzzles.generation import themes


def _tagged(tagger, notation: str, visible: str = "", rules: str = "standard") -> bool:
    hand, seen = build_hand(notation, visible=visible)
    return tagger(hand, discard_options(hand, seen, make_rules(rules)))


@pytest.mark.parametrize(
    "tagger, yes, no",
    [
        (themes.ka_wu_xing_wait, "34556p123789sZZZ", "124568p45566789s"),
        (themes.seven_pairs_or_triplets, "111p222s33s44pZZF9p", "11133345679p567s"),
        (themes.seven_pairs_or_triplets, "112247788p34578s", "124568p45566789s"),
        (themes.pure_suit_route, "11133345679p567s", "2334p122255sFFBB"),
        (themes.dragons, "2334p122255sFFBB", "11133345679p567s"),
        (themes.shape_efficiency, "124568p45566789s", "34556p123789sZZZ"),
        (themes.value_over_width, "44578999p333567s", "124568p45566789s"),
    ],
)
def test_tagger(tagger, yes, no):
    assert _tagged(tagger, yes)
    assert not _tagged(tagger, no)


def test_seven_pairs_needs_a_concealed_hand():
    assert not _tagged(themes.seven_pairs_or_triplets, "11p22s33s44pZZ9p[555s]")


def test_value_over_width_on_a_shipped_shape():
    """Ready either way; the accepted discard has fewer winning tiles than a rejected ready one."""
    hand, seen = build_hand("44578999p333567s", visible="68p69sFFFFB")
    options = discard_options(hand, seen, make_rules("standard"))
    assert themes.value_over_width(hand, options)
    assert options[0].result.ukeire < max(o.result.ukeire for o in options if o.result.shanten == 0)


def test_tag_lists_keys_in_order_and_fan_themes():
    hand, seen = build_hand("34556p123789sZZZ")
    tags = themes.tag(hand, discard_options(hand, seen, make_rules("standard")))
    assert "ka_wu_xing" in tags and list(tags) == [k for k in themes.THEME_KEYS if k in tags]
    assert themes.fan_themes({"qi_dui", "qing_yi_se"}) == ("seven_pairs", "pure_suit")
    assert themes.fan_themes({"liang_dao"}) == ()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_theme_ideas_read_their_multipliers_from_the_fan_table(lang):
    from django.utils import translation

    from kwx.hand.fans import fan
    from puzzles.text import THEMES

    with translation.override(lang):
        for theme in THEMES.values():
            assert not re.search(r"×\d", str(theme.idea_text)), theme.key  # no value written into the prose
        assert f"×{fan('qi_dui').multiplier('standard')}" in THEMES["seven_pairs"].idea
        assert f"×{fan('peng_peng_hu').multiplier('standard')}" in THEMES["seven_pairs"].idea
        assert f"×{fan('ka_wu_xing').multiplier('shiyan')}" in THEMES["ka_wu_xing"].idea
        assert f"×{fan('da_san_yuan').multiplier('standard')}" in THEMES["dragons"].idea
        assert f"×{fan('qing_yi_se').multiplier('standard')}" in THEMES["pure_suit"].idea

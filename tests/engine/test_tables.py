"""The shipped suit table equals the recursive definition it was built from."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from analysis.engine.blocks import block_value
from analysis.engine.tables import PATH, dragon_value, reach_mask, suit_index, suit_mask, suit_value

suits = st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14).map(tuple)


def test_the_table_is_shipped():
    assert PATH.exists() and PATH.stat().st_size > 50_000


@given(suits)
def test_suit_values_match_the_definition(counts):
    assert suit_value(suit_index(counts)) == block_value(counts, True)


@given(suits)
def test_reach_masks_match_the_definition(counts):
    assert suit_mask(suit_index(counts)) == reach_mask(counts)


@given(st.lists(st.integers(0, 4), min_size=3, max_size=3).map(tuple))
def test_dragon_values_never_use_runs(counts):
    assert dragon_value(suit_index(counts)) == block_value(counts, False)


def test_index_moves_by_a_power_of_five_per_tile():
    counts = (1, 0, 2, 0, 0, 0, 0, 0, 4)
    bumped = (1, 0, 3, 0, 0, 0, 0, 0, 4)
    assert suit_index(bumped) - suit_index(counts) == 5**2

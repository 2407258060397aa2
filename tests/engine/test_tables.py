"""The shipped suit table and the tables built at import equal the recursive definitions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kwx.hand.blocks import best_with, block_value, merge
from kwx.hand.tables import (
    ALL_VALUES,
    DRAGON_IDS,
    MERGED,
    PATH,
    SUIT_IDS,
    VALUES,
    best_of_ids,
    block_draws,
    reach_mask,
    suit_index,
)

suits = st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda c: sum(c) <= 14).map(tuple)
dragon_blocks = st.lists(st.integers(0, 4), min_size=3, max_size=3).map(tuple)
value_ids = st.integers(0, len(VALUES) - 1)


def _drawn(counts: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return counts[:rank] + (counts[rank] + 1,) + counts[rank + 1 :]


def test_the_table_is_shipped():
    assert PATH.exists() and PATH.stat().st_size > 50_000


@given(suits)
def test_suit_values_match_the_definition(counts):
    assert VALUES[SUIT_IDS[suit_index(counts)]] == block_value(counts, True)


@given(dragon_blocks)
def test_dragon_values_never_use_runs(counts):
    assert VALUES[DRAGON_IDS[suit_index(counts)]] == block_value(counts, False)


@given(suits.filter(lambda c: sum(c) <= 13))
def test_a_suit_draws_the_kinds_within_two_ranks_of_its_tiles(counts):
    mask = reach_mask(counts)
    expected = tuple((rank, VALUES.index(block_value(_drawn(counts, rank), True))) for rank in range(9) if mask >> rank & 1 and counts[rank] < 4)
    assert block_draws(False, suit_index(counts)) == expected


@given(dragon_blocks)
def test_a_dragon_block_draws_only_the_kinds_it_holds(counts):
    expected = tuple((rank, VALUES.index(block_value(_drawn(counts, rank), False))) for rank in range(3) if 0 < counts[rank] < 4)
    assert block_draws(True, suit_index(counts)) == expected


@given(value_ids, value_ids, st.integers(0, 4))
def test_merges_and_bests_by_id_match_the_definition(a, b, budget):
    assert ALL_VALUES[MERGED[a][b]] == merge(VALUES[a], VALUES[b])
    rest = MERGED[b][0]
    assert best_of_ids(a, rest, budget) == best_with(VALUES[a], ALL_VALUES[rest], budget)


def test_index_moves_by_a_power_of_five_per_tile():
    counts = (1, 0, 2, 0, 0, 0, 0, 0, 4)
    bumped = (1, 0, 3, 0, 0, 0, 0, 0, 4)
    assert suit_index(bumped) - suit_index(counts) == 5**2

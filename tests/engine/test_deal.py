"""Random hands for the analyzer (kwx/hand/deal.py)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx.hand.deal import complete_hand, exchange, practice_hand, random_hand
from kwx.hand.shapes import is_complete, shanten
from kwx.hand.tiles import EMPTY, NUM_KINDS, add
from tests.strategies import concealed

seeds = st.integers(min_value=0, max_value=2**32)


def assert_dealable(hand, size, taken=EMPTY):
    assert sum(hand) == size
    assert all(n <= 4 for n in add(hand, taken))


@given(seeds, st.sampled_from([13, 14]), concealed(20))
def test_random_hand_has_its_size_and_respects_the_taken_tiles(seed, size, taken):
    assert_dealable(random_hand(random.Random(seed), size, taken), size, taken)


@given(seeds, concealed(20))
def test_complete_hand_wins(seed, taken):
    hand = complete_hand(random.Random(seed), taken)
    assert hand is not None
    assert_dealable(hand, 14, taken)
    assert is_complete(hand)


@given(seeds, st.sampled_from([13, 14]), concealed(12))
def test_practice_hand_is_at_most_two_exchanges_from_ready(seed, size, taken):
    hand = practice_hand(random.Random(seed), size, taken)
    assert_dealable(hand, size, taken)
    assert 0 <= shanten(hand) <= 2


@given(seeds, concealed(14))
def test_exchange_swaps_one_tile_for_another_kind(seed, hand):
    after = exchange(random.Random(seed), hand)
    diff = [after[k] - hand[k] for k in range(NUM_KINDS)]
    assert sorted(d for d in diff if d) == [-1, 1]
    assert_dealable(after, 14)


def test_same_seed_same_hand():
    assert practice_hand(random.Random(7), 13) == practice_hand(random.Random(7), 13)


def test_practice_hands_are_often_ready_and_never_hopeless():
    rng = random.Random(2026)
    shanten13 = Counter(shanten(practice_hand(rng, 13)) for _ in range(400))
    assert 0.3 < shanten13[0] / 400 < 0.5
    assert set(shanten13) <= {0, 1, 2}
    shanten14 = Counter(shanten(practice_hand(rng, 14)) for _ in range(400))
    assert shanten14[-1] == 0 and shanten14[0] > 200


def test_a_bare_wall_falls_back_to_a_uniform_deal_or_refuses():
    # left: 一筒, 九条 and four each of 中 发 白 — 14 tiles with no winning hand among them
    taken = (3,) + (4,) * 16 + (3, 0, 0, 0)
    assert complete_hand(random.Random(1), taken) is None
    assert_dealable(practice_hand(random.Random(1), 13, taken), 13, taken)
    with pytest.raises(ValueError):
        random_hand(random.Random(1), 13, (4,) * 18 + (0, 0, 2))
    with pytest.raises(ValueError):
        practice_hand(random.Random(1), 15)

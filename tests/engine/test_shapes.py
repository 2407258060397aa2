"""Shanten and readings (kwx-rules §2, §4), checked against the mahjong package and brute force."""

from __future__ import annotations

import pytest
from hypothesis import given
from mahjong.shanten import Shanten

from kwx import shanten as text_shanten
from kwx.hand.notation import parse_hand, parse_tiles
from kwx.hand.shapes import is_complete, readings, seven_pairs_shanten, shanten, standard_shanten
from kwx.hand.tiles import NUM_KINDS, Hand, with_tile
from tests.strategies import hands

_PEER = Shanten()
# 卡五星 kinds -> the package's 34-kind indices (pin 9..17, sou 18..26, 白 31, 发 32, 中 33)
_TO34 = list(range(9, 27)) + [33, 32, 31]


def peer_shanten(counts, seven_pairs=True):
    tiles = [0] * 34
    for kind, n in enumerate(counts):
        tiles[_TO34[kind]] += n
    return _PEER.calculate_shanten(tiles, use_chiitoitsu=seven_pairs, use_kokushi=False)


def comparable(counts):
    """No four of a kind, and at least seven kinds: riichi's seven-pairs count is then 卡五星's.

    With fewer kinds riichi adds a step per missing kind, while in 卡五星 a triplet is one
    tile from two pairs (a four counts as two), e.g. 1122555666779 9p is ready here.
    """
    return max(counts) < 4 and sum(1 for n in counts if n) >= 7


@given(hands(13))
def test_standard_shanten_agrees_with_the_mahjong_package_without_fours(counts):
    if max(counts) < 4:
        assert standard_shanten(counts) == peer_shanten(counts, seven_pairs=False)


@given(hands(14))
def test_fourteen_tile_standard_shanten_agrees_too(counts):
    if max(counts) < 4:
        assert standard_shanten(counts) == peer_shanten(counts, seven_pairs=False)


@given(hands(13))
def test_shanten_agrees_with_the_mahjong_package_without_fours(counts):
    if comparable(counts):
        assert shanten(counts) == peer_shanten(counts)


@given(hands(14))
def test_fourteen_tile_shanten_agrees_too(counts):
    if comparable(counts):
        assert shanten(counts) == peer_shanten(counts)


def test_a_triplet_is_one_tile_from_two_pairs():
    counts = parse_tiles("11225556667799p")
    assert shanten(counts) == 0
    assert peer_shanten(counts) == 1  # riichi needs seven different kinds


@given(hands(13))
def test_a_draw_changes_shanten_by_at_most_one(counts):
    base = shanten(counts)
    for kind in range(NUM_KINDS):
        if counts[kind] < 4:
            after = shanten(with_tile(counts, kind))
            assert base - 1 <= after <= base


@given(hands(14))
def test_complete_exactly_when_a_reading_exists(counts):
    assert is_complete(counts) == bool(readings(Hand(counts)))


@given(hands(14))
def test_every_reading_uses_every_tile(counts):
    for reading in readings(Hand(counts)):
        used = [0] * NUM_KINDS
        if reading.is_seven_pairs:
            for k in reading.pairs:
                used[k] += 2
        else:
            for group in reading.groups:
                for k in group.kinds:
                    used[k] += 1
            used[reading.pair] += 2
        assert tuple(used) == counts


@pytest.mark.parametrize(
    "hand, expected",
    [
        ("4556p123789sZZZ", 0),
        ("4556p123789sZZZF", 0),
        ("4556p123789sZZZ5p", -1),
        ("12345p34578sZZF", 1),
        ("1122334455667p", 0),
        ("11223344556677p", -1),
        ("11112233445566p", -1),  # a four of a kind is two pairs in 七对
        ("1p[ZZZ][FFF][BBB][444p]", 0),
        ("11p[ZZZ][FFF][BBB][444p]", -1),
    ],
)
def test_known_shanten(hand, expected):
    assert text_shanten(hand) == expected


def test_seven_pairs_counts_four_as_two_pairs():
    counts = parse_tiles("1111p335577sZZF")
    assert seven_pairs_shanten(counts) == 0
    assert standard_shanten(counts) > 0


def test_melds_count_as_sets():
    hand = parse_hand("123p45678sZZ[9999p]")
    assert standard_shanten(hand.concealed, len(hand.melds)) == 0
    assert shanten(hand.concealed, len(hand.melds)) == 0


def test_readings_of_a_hand_with_two_splits():
    found = readings(parse_hand("111222333s777s66p"))
    shapes = sorted(tuple(sorted(g.shape for g in r.groups)) for r in found)
    assert shapes == [("run", "run", "run", "triplet"), ("triplet",) * 4]


def test_seven_pairs_and_standard_readings_of_the_same_tiles():
    found = readings(parse_hand("11223344556677p"))
    assert any(r.is_seven_pairs for r in found)
    assert any(not r.is_seven_pairs for r in found)


@given(hands(14))
def test_precomputed_suit_readings_equal_the_recursive_definition(counts):
    from kwx.hand.shapes import block_readings, complete_suit_readings
    from kwx.hand.tables import suit_index

    for start in (0, 9):
        suit = counts[start : start + 9]
        expected = {(tuple(sorted(g)), p) for g, p in block_readings(suit, True)}
        found = [(tuple(sorted(g)), p) for g, p in complete_suit_readings().get(suit_index(suit), ())]
        assert len(found) == len(set(found)) and set(found) == expected


def test_precomputed_suit_readings_cover_every_complete_suit():
    from kwx.hand.shapes import block_readings, complete_suit_readings
    from kwx.hand.tables import POW5

    table = complete_suit_readings()
    for index, found in list(table.items())[::97]:
        suit = tuple(index // POW5[i] % 5 for i in range(9))
        assert {(tuple(sorted(g)), p) for g, p in found} == {(tuple(sorted(g)), p) for g, p in block_readings(suit, True)}

"""Notation (kwx-rules §1): every accepted form, canonical output, errors that say where."""

from __future__ import annotations

import pytest
from hypothesis import given

from kwx import NotationError
from kwx.hand.notation import format_counts, format_hand, parse_hand, parse_tile, parse_tiles
from kwx.hand.tiles import Meld, MeldType, kind_of
from tests.strategies import concealed


@pytest.mark.parametrize(
    "text",
    [
        "4556p123789sZZZ",
        "4556p123s789sZZZ",
        "4556p 123s,789s zzz",
        "ZZZ789s123s6554p",
        "4556p123789s中中中",
        "四五五六筒一二三七八九条中中中",
        "4筒5筒5饼六餅123索789條zZz",
        "4556p123789s7z7z7z",
        "4556p123789s777z",
        "4556P123789SZZZ",
    ],
)
def test_every_notation_reads_the_same_hand(text):
    assert format_counts(parse_tiles(text, "hand")) == "4556p123789sZZZ"


def test_dragons_in_every_spelling():
    assert format_counts(parse_tiles("中发白ZFBzfb5z6z7z")) == "ZZZZFFFFBBBB"
    assert parse_tile("發") == parse_tile("发") == kind_of("F")


def test_melds_in_brackets():
    hand = parse_hand("46p11s[555p][FFFF]{BBBB}")
    assert format_counts(hand.concealed) == "46p11s"
    assert hand.melds == (
        Meld(MeldType.PONG, kind_of("5p")),
        Meld(MeldType.KONG, kind_of("F")),
        Meld(MeldType.CONCEALED_KONG, kind_of("B")),
    )
    assert format_hand(hand) == "46p11s[555p][FFFF]{BBBB}"


def test_single_tile():
    assert parse_tile("五筒") == kind_of("5p")
    assert parse_tile("7z") == kind_of("Z")
    with pytest.raises(NotationError):
        parse_tile("55p")


@pytest.mark.parametrize(
    "text, char, position",
    [
        ("123x456p", "x", 4),
        ("12 3p4?", "?", 7),
        ("1230p", None, 4),
        ("p123", "p", 1),
        ("筒", "筒", 1),
        ("}", "}", 1),
    ],
)
def test_errors_name_the_character_and_position(text, char, position):
    with pytest.raises(NotationError) as info:
        parse_tiles(text, "hand")
    err = info.value
    assert err.params["position"] == position
    if char is not None:
        assert err.params["char"] == char
    assert str(position) in str(err)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("123456789p1234", '"1234" at position 11'),
        ("123m", "万"),
        ("1z", "wind"),
        ("东", "wind"),
        ("[555p", "never closed"),
        ("[[555p]]", "nested"),
        ("[55p]", "meld"),
        ("{555p}", "meld"),
        ("[556p]", "meld"),
        ("12F", '"12" at position 1'),
    ],
)
def test_error_messages(text, fragment):
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert fragment in str(info.value)


def test_visible_tiles_take_no_melds():
    with pytest.raises(NotationError):
        parse_tiles("[555p]")


@given(concealed(14))
def test_canonical_text_round_trips(counts):
    text = format_counts(counts)
    assert parse_tiles(text) == counts
    assert format_counts(parse_tiles(text)) == text


@given(concealed(11))
def test_hands_with_melds_round_trip(counts):
    hand = parse_hand(format_counts(counts) + "[555s]{FFFF}")
    assert format_hand(parse_hand(format_hand(hand))) == format_hand(hand)


@given(concealed(14))
def test_the_plain_ascii_fast_path_reads_like_the_full_scanner(counts):
    from kwx.hand.notation import plain_kinds, scan_notation
    from kwx.hand.tiles import counts_of

    text = format_counts(counts)
    assert counts_of(plain_kinds(text)) == counts_of(scan_notation(text, "hand")[0]) == counts

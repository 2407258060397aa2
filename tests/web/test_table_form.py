"""The table in the analyzer's link (analysis.table_form): parsing, canonical round trip, taps, errors naming the key."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.api_advice import read_position
from analysis.table_form import (
    TABLE_KEYS,
    api_body,
    check_position,
    edit_table,
    format_sequence,
    label,
    position_of,
    read_request,
    read_table,
    table_pairs,
)
from kwx.hand.notation import parse_hand
from kwx.hand.rules import make_rules
from kwx.hand.tiles import EMPTY, NUM_KINDS, TILE_IDS, add

PONG = "r0=ZB&r1=F9p1s5p&r2=BF&offer=5p"
PONG_HAND = "5566p123456789s"
DEFEND = "r0=Z1p&r1=ZB9p1s2p&r2=FB8p&l2=46p123456789sFF"
DEFEND_HAND = "23456p11678999sZ"
RULES = make_rules("standard", (), None)


def table(query: str):
    return read_table(QueryDict(query))


def test_no_table_keys_is_no_table():
    empty = table("hand=4556p123s789sZZZ&by=1&kind=discard&tto=r1")
    assert not empty.given and table_pairs(empty) == [] and read_request(QueryDict("")).pairs() == []


def test_a_link_reads_the_rivers_in_order_and_the_offer():
    t = table(PONG)
    assert t.given and not t.errors
    assert [TILE_IDS[k] for k in t.rivers[1]] == ["F", "9p", "1s", "5p"]
    assert t.offer == TILE_IDS.index("5p") and t.by == 1 and t.kind == "discard"
    assert table_pairs(t) == [("r0", "ZB"), ("r1", "F9p1s5p"), ("r2", "BF"), ("offer", "5p")]


def test_the_canonical_link_writes_each_key_in_notation():
    t = table("r1=五筒 6p 3s&m1=[ZZZ]&l2=FF987654321s64p&by=2&offer=3s&kind=discard&wall=30")
    assert dict(table_pairs(t)) == {"r1": "56p3s", "m1": "[ZZZ]", "l2": "46p123456789sFF", "wall": "30", "offer": "3s", "by": "2"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, NUM_KINDS - 1), max_size=20), st.lists(st.integers(0, NUM_KINDS - 1), max_size=20))
def test_rivers_round_trip_through_the_link(first, second):
    query = urlencode({"r1": format_sequence(tuple(first)), "r2": format_sequence(tuple(second))})
    t = table(query)
    assert t.rivers[1] == tuple(first) and t.rivers[2] == tuple(second)
    again = table(urlencode(table_pairs(t), safe="[]{}"))
    assert again.rivers == t.rivers and table_pairs(again) == table_pairs(t)


@pytest.mark.parametrize(
    "query, key, words",
    [
        ("r1=5px", "r1", "x"),
        ("r2=5p[555p]", "r2", "上家牌河"),
        ("r0=0p", "r0", "0"),
        ("m1=55p", "m1", "[555p]"),
        ("m2=[55p]", "m2", "上家的碰、杠"),
        ("l1=4w", "l1", "w"),
        ("wall=99", "wall", "45"),
        ("wall=-1", "wall", "牌墙剩余张数"),
        ("offer=5p6p", "offer", "5p6p"),
        ("offer=5p&by=3", "by", "3"),
        ("offer=5p&kind=steal", "kind", "steal"),
        ("drawn=x", "drawn", "x"),
        ("r1=" + "5p" * 80, "r1", "120"),
    ],
)
def test_bad_input_names_the_key_and_what_is_wrong(query, key, words):
    t = table(query)
    assert key in t.errors and words in t.errors[key]
    assert t.errors[key].startswith(label(key)) and f"({key})" not in t.errors[key]  # named as the form names it, not by its link key


def test_a_bad_seed_is_named():
    assert "seed" in read_request(QueryDict("r1=5p&seed=abc")).table.errors


def test_the_wall_follows_from_the_tiles_when_not_given():
    hand = parse_hand(PONG_HAND)
    t = table(PONG)
    assert position_of(hand, t).left_in_wall == 37  # 84 − 13 held − 8 in rivers − 26 hidden in the opponents' hands
    position, errors = check_position(hand, t, RULES)
    assert errors == {} and position.wall_left == 37


def test_a_wrong_wall_names_wall_with_the_count_expected():
    position, errors = check_position(parse_hand(PONG_HAND), table(PONG + "&wall=30"), RULES)
    assert position is None and "37" in errors["wall"] and "牌墙剩余张数" in errors["wall"]


def test_an_offer_not_ending_the_river_names_offer():
    _position, errors = check_position(parse_hand(PONG_HAND), table(PONG + "&by=2"), RULES)
    assert "offer" in errors


def test_a_fifth_copy_is_named_with_the_tile():
    _position, errors = check_position(parse_hand(PONG_HAND), table(PONG + "&r2=BF5p5p"), RULES)
    assert "5p" in errors["table"]


@pytest.mark.parametrize("query, hand", [(PONG, PONG_HAND), (DEFEND, DEFEND_HAND), (PONG + "&wall=37", PONG_HAND)])
def test_the_link_and_the_api_body_describe_the_same_position(query, hand):
    h, t = parse_hand(hand), table(query)
    body = api_body(h, t)
    assert read_position(body)[0] == position_of(h, t)


def test_taps_build_a_table():
    hand = parse_hand(PONG_HAND)
    request = read_request(QueryDict("tto=r1"))

    def tapped(request, query):
        t = request.table
        return edit_table(request, QueryDict(query), add(add(hand.held, t.seen), EMPTY))

    for tile in ("F", "9p", "1s"):
        request = tapped(request, f"tadd={tile}")
    request = tapped(read_request(QueryDict(urlencode(request.pairs()) + "&tto=offer")), "tadd=5p")
    assert dict(request.pairs())["r1"] == "F9p1s5p" and dict(request.pairs())["offer"] == "5p"
    request = tapped(read_request(QueryDict(urlencode(request.pairs()) + "&tto=m2")), "tadd=Z")
    request = tapped(request, "tadd=Z")  # a second tap on a 碰 makes it a 明杠
    assert dict(request.pairs())["m2"] == "[ZZZZ]"
    request = tapped(request, "tadd=Z")
    assert request.notice and dict(request.pairs())["m2"] == "[ZZZZ]"  # all four are used
    request = tapped(request, "tdel=r1.1")
    assert dict(request.pairs())["r1"] == "F1s5p"
    request = tapped(request, "tundo=1")
    assert "m2" not in dict(request.pairs())


def test_a_tap_drops_a_typed_wall_that_no_longer_holds():
    request = read_request(QueryDict(PONG + "&wall=37&tto=r2"))
    after = edit_table(request, QueryDict("tadd=9s"), EMPTY)
    assert "wall" not in dict(after.pairs()) and dict(after.pairs())["r2"] == "BF9s"


def test_every_table_key_is_in_the_canonical_order():
    full = "r0=Z&r1=1p&m1=[222p]&l1=3p&r2=4p&m2=[555p]&l2=6p&wall=9&offer=5p&by=2&kind=kong&drawn=7p"
    assert [k for k, _v in table_pairs(table(full))] == list(TABLE_KEYS)

"""One way to draw a hand: every page shows a concealed kong (暗杠) with its outer two tiles face down."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client

from kwx.hand.notation import parse_hand
from kwx.hand.tiles import MeldType
from kwx_site.drawing import drawn_hand, meld_faces
from tests.puzzles.factories import discard_puzzle

pytestmark = pytest.mark.django_db
KONG = re.compile(r'<span class="group meld meld-concealed_kong"[^>]*>(.*?)</span>', re.S)


def faces(html: str, pattern: re.Pattern[str] = KONG) -> list[list[str]]:
    """The tile ids drawn in each concealed kong of a page, in order."""
    return [re.findall(r"tiles/(\w+)\.svg", group) for group in pattern.findall(html)]


def test_meld_faces_hide_the_outer_two_of_a_concealed_kong_only():
    assert meld_faces(MeldType.CONCEALED_KONG, "B") == ("back", "B", "B", "back")
    assert meld_faces("kong", "5p") == ("5p",) * 4
    assert meld_faces("pong", "F") == ("F",) * 3


def test_the_hand_tag_draws_concealed_tiles_melds_and_the_winning_tile():
    html = Template('{% load kwx %}{% hand text "5s" "small" %}').render(Context({"text": "46p11s[555p]{BBBB}"}))
    assert faces(html) == [["back", "B", "B", "back"]]
    assert re.findall(r"tiles/(\w+)\.svg", html) == ["4p", "6p", "1s", "1s", "5p", "5p", "5p", "back", "B", "B", "back", "5s"]
    assert 'alt=""' in html and html.count("tile small") == 12  # a face-down tile has no name to read out
    same = Template("{% load kwx %}{% hand drawn %}").render(Context({"drawn": drawn_hand(parse_hand("46p11s[555p]{BBBB}"))}))
    assert faces(same) == faces(html)


@pytest.mark.parametrize(
    "url",
    [
        "/analyze/?hand=46p11s%5B555p%5D%7BBBBB%7D",  # the analyzer's meld buttons
        "/learn/tiles/",  # the learn pages' example hands
    ],
)
def test_pages_draw_a_concealed_kong_the_same_way(url):
    response = Client().get(url)
    assert response.status_code == 200
    assert faces(response.content.decode()) == [["back", "B", "B", "back"]]


def test_the_drill_context_draws_a_concealed_kong_the_same_way():
    puzzle = discard_puzzle("44556p11s8p[555s]{BBBB}")
    html = Client().get(f"/drills/{puzzle.pk}/").content.decode()
    assert faces(html) == [["back", "B", "B", "back"]]


def test_the_settlement_result_draws_a_concealed_kong_the_same_way():
    body = {
        "name_0": "A",
        "name_1": "B",
        "name_2": "C",
        "base": "1",
        "rules": "standard",
        "piao_0": "0",
        "piao_1": "0",
        "piao_2": "0",
        "result": "self_draw",
        "winner": "0",
        "hand": "4556p123s{7777s}ZZZ",
        "tile": "5p",
        "kong_who_0": "0",
        "kong_type_0": "an_gang",
        "kong_tile_0": "7s",
        **{f"kong_type_{i}": "an_gang" for i in (1, 2, 3)},
    }
    html = Client().post("/settle/", body, HTTP_HX_REQUEST="true").content.decode()
    assert faces(html) == [["back", "7s", "7s", "back"]]

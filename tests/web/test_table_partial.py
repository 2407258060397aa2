"""The shared table partials (templates/partials/seat.html, table.html): what a seat shows, on any page."""

from __future__ import annotations

from django.template.loader import render_to_string

SEAT = {"name": "上家", "river": ["1s", "9p", "5s"], "melds": [["2m", "2m", "2m"]], "hidden": 10, "last": True}


def test_a_hidden_seat_shows_its_river_in_order_its_melds_and_its_backs():
    html = render_to_string("partials/seat.html", {"p": SEAT})
    river = html.split('class="pl-river"')[1]
    assert river.index("1s.svg") < river.index("9p.svg") < river.index("5s.svg")
    assert 'class="pl-last"' in river and river.index('class="pl-last"') > river.index("9p.svg")  # the offered tile is outlined
    assert html.count("2m.svg") == 3 and "×10" in html and "back.svg" in html


def test_a_revealed_seat_shows_its_tiles_and_waits_instead_of_backs():
    seat = SEAT | {"liang_dao": True, "tiles": ["3p", "4p"], "waits": ["2p", "5p"], "hidden": 0, "last": False}
    html = render_to_string("partials/seat.html", {"p": seat})
    assert "亮倒" in html and "3p.svg" in html and "5p.svg" in html and "back.svg" not in html
    assert 'class="pl-last"' not in html


def test_the_table_shows_both_opponents_and_the_wall_only_when_given():
    right = SEAT | {"name": "下家"}
    with_wall = render_to_string("partials/table.html", {"left": SEAT, "right": right, "wall_count": 17})
    assert "上家" in with_wall and "下家" in with_wall and "17" in with_wall and "pl-wall" in with_wall
    assert "pl-wall" not in render_to_string("partials/table.html", {"left": SEAT, "right": right})

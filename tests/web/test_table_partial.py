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
    seat = SEAT | {"liang_dao": True, "tiles": ["3p", "4p"], "waits": [{"tile": "2p", "left": 3}, {"tile": "5p", "left": 0}], "hidden": 0, "last": False}
    html = render_to_string("partials/seat.html", {"p": seat})
    assert "亮倒" in html and "3p.svg" in html and "5p.svg" in html and "back.svg" not in html
    assert html.count('class="pl-wait"') == 1 and html.count('class="pl-wait pl-dead"') == 1 and "空听" in html  # each wait with its live copies
    assert 'class="pl-last"' not in html


def test_the_table_of_a_view_shows_both_opponents_the_wall_the_offer_and_the_hand_with_the_drawn_tile_apart():
    from kwx.hand.rules import make_rules
    from kwx.table.selfplay import seeded_deal
    from kwx.table.table import Action, apply, deal
    from kwx.table.view import view_for
    from kwx_site.table import table_shown

    d = seeded_deal(3)
    state = apply(deal(d.hands, 0, make_rules(), d.wall), Action(0, "draw", d.wall[0]))
    html = render_to_string("partials/table.html", {"t": table_shown(view_for(state, 0))})
    assert "上家" in html and "下家" in html and "44" in html and "pl-wall" in html
    hand = html.split('class="pl-hand"')[1]
    assert hand.count("<img") == 14 and 'class="pl-tile pl-drawn pl-still"' in hand  # 13 and the drawn tile apart
    discard = next(a for a in view_for(state, 0).options if a.verb == "discard")
    claim = render_to_string("partials/table.html", {"t": table_shown(view_for(apply(state, discard), 1))})
    assert 'class="pl-claim"' in claim and f"tiles/{discard.tile}.svg" in claim.split('class="pl-claim"')[1]
    assert 'class="pl-last"' in claim  # the discard on offer is marked at the end of its river

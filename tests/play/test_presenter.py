"""Play presenter: the table from the person's chair hides what it must, the hint marks the tiles that deal in, the review's totals read the stored summaries."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kwx.hand.notation import parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.table.table import Action, apply, deal
from kwx.table.view import view_for
from kwx_site.table import table_shown
from play import presenter


def revealed_table():
    hands = (parse_tiles("15p23p78p9p11s456sF", "h"), parse_tiles("4556p123s789sZZZ", "h"), parse_tiles("6677889p234s67sB", "h"))
    state = deal(hands, 0, make_rules())
    state = apply(state, Action(0, "draw", KIND_OF_ID["F"]))
    seat1 = state.seats[1]
    return replace(state, seats=(state.seats[0], replace(seat1, liang_dao=True, waits=seat1.ready_on), state.seats[2]))


def test_the_hint_marks_the_tiles_a_revealed_hand_wins_on():
    state = revealed_table()
    assert KIND_OF_ID["5p"] in state.seats[1].waits
    hint = presenter.hint(view_for(state, 0))
    assert hint is not None
    waits = {TILE_IDS[k] for k in state.seats[1].waits}
    assert "5p" in hint["danger_tiles"] and set(hint["danger_tiles"]) <= waits
    rows = {r.discard: r for r in hint["rows"]}
    assert rows["5p"].deals_in and not rows["F"].deals_in and not any(r.chosen for r in rows.values())
    fields = dict(hint["fields"])
    assert fields["hand"] and fields["rev1"] == "4556p123789sZZZ"


def test_the_table_shows_a_revealed_hand_and_hides_a_hidden_one():
    shown = table_shown(view_for(revealed_table(), 0))
    assert shown.right.tiles and shown.right.hidden == 0 and "5p" in [w.tile for w in shown.right.waits] and shown.right.liang_dao
    assert shown.left.tiles == () and shown.left.hidden == 13
    assert shown.me.drawn == "F" and len(shown.me.tiles) == 13 and shown.me.turn


def test_the_end_of_a_hand_shows_every_hand_and_no_turn():
    shown = table_shown(view_for(revealed_table(), 0, open_hands=True), over=True)
    assert len(shown.left.tiles) == 13 and shown.left.hidden == 0 and not shown.left.liang_dao
    assert shown.me.drawn is None and len(shown.me.tiles) == 14 and not shown.me.turn and not shown.turn_name


@pytest.mark.django_db
def test_the_totals_read_the_stored_summaries_and_a_game_adds_its_hands():
    one = {"decisions": [{}] * 5, "decided": 4, "agree": 3, "costly": 1, "costly_cost": 1.5, "costly_cost_se": 0.3}
    two = {"decisions": [{}] * 3, "decided": 2, "agree": 2, "costly": 1, "costly_cost": 0.5, "costly_cost_se": 0.4}
    assert presenter.hand_totals(one) == {"decisions": 5, "decided": 4, "close": 1, "agree": 3, "rate": 75, "costly": 1, "cost": 1.5, "cost_se": 0.3}
    assert presenter.hand_totals(None) == {"decisions": 0, "decided": 0, "close": 0, "agree": 0, "rate": None, "costly": 0, "cost": 0, "cost_se": 0.0}
    game = presenter.game_totals([one, two])
    assert (game["decisions"], game["decided"], game["agree"], game["rate"], game["costly"], game["cost"]) == (8, 6, 5, 83, 2, 2.0)
    assert game["cost_se"] == pytest.approx(0.5)

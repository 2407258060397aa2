"""What one seat sees: the tiles seen outside its hand and the hands revealed by 亮倒."""

from __future__ import annotations

from dataclasses import replace

from kwx.hand.notation import parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.tiles import KIND_OF_ID
from kwx.table.table import Action, apply, deal
from kwx.table.view import view_for


def test_the_tiles_seen_apart_from_the_revealed_hands_leave_those_hands_out():
    hands = (parse_tiles("15p23p78p9p11s456sF", "h"), parse_tiles("4556p123s789sZZZ", "h"), parse_tiles("6677889p234s67sB", "h"))
    state = apply(deal(hands, 0, make_rules()), Action(0, "draw", KIND_OF_ID["F"]))
    hidden = view_for(state, 0)
    assert hidden.visible_unrevealed == hidden.visible  # nothing revealed: nothing more to leave out
    seat1 = state.seats[1]
    view = view_for(replace(state, seats=(state.seats[0], replace(seat1, liang_dao=True, waits=seat1.ready_on), state.seats[2])), 0)
    revealed = view.revealed_hand(1)
    assert revealed is not None and view.visible != view.visible_unrevealed
    assert view.visible_unrevealed == tuple(max(0, v - h) for v, h in zip(view.visible, revealed.held))

"""A position as a player describes it (kwx/table/position.py): its view, what it shows and the wall it leaves, all counted by a SeatView."""

from __future__ import annotations

import pytest

from kwx import EngineError
from kwx.hand.notation import parse_hand, parse_sequence, parse_tile, parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.tiles import COPIES, Meld, MeldType
from kwx.table.position import Opponent, Position

RULES = make_rules("standard")
HAND = parse_hand("5566p123456789s")
OPPONENTS = (Opponent(parse_sequence("F9p1s5p", "r1")), Opponent(parse_sequence("BF", "r2")))


def _pong(**changes: object) -> Position:
    fields: dict[str, object] = {"hand": HAND, "river": parse_sequence("ZB", "r0"), "opponents": OPPONENTS, "wall_left": 37, "offered": (1, parse_tile("5p", "offer"))}
    return Position(**(fields | changes))  # type: ignore[arg-type]


def test_the_view_of_a_pong_or_pass_is_the_players_claim_with_the_wall_the_tiles_leave():
    view = _pong().view(RULES)
    assert view.seat == 0 and view.phase == "claim" and view.offered == (1, parse_tile("5p", "offer"))
    assert view.wall_left == _pong().left_in_wall == 37  # 84 − 13 held − 8 in rivers − 26 hidden
    assert view.seen == _pong().shown  # nothing passes four: the view counts what the position shows


def test_what_a_position_shows_counts_a_tile_being_added_to_a_pong_and_leaves_it_out_of_the_wall():
    five = parse_tile("5s", "t")
    pong = (Opponent(parse_sequence("F9p1s", "r1"), (Meld(MeldType.PONG, parse_tile("7p", "m")),)), OPPONENTS[1])
    hand = parse_hand("5566p1234679sBB")
    discard = Position(hand, (), pong, 0, (1, five))
    kong = Position(hand, (), pong, 0, (1, parse_tile("7p", "t")), "kong")
    assert kong.shown[parse_tile("7p", "t")] == COPIES and discard.shown[parse_tile("7p", "t")] == 3
    assert kong.left_in_wall == discard.left_in_wall - 1
    view = Position(hand, (), pong, kong.left_in_wall, (1, parse_tile("7p", "t")), "kong").view(RULES)
    assert view.phase == "rob" and view.wall_left == kong.left_in_wall


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"hand": parse_hand("55555p23456789s")}, "hand"),
        ({"river": parse_sequence("5p5p5p", "r0")}, "river"),
        ({"opponents": (Opponent(parse_sequence("5p5p5p", "r1")), OPPONENTS[1])}, "opponents"),
        ({"opponents": (OPPONENTS[0], Opponent((), (), parse_tiles("123p", "l2"))), "wall_left": 30}, "opponents"),
        ({"wall_left": 30}, "wall_left"),
    ],
)
def test_a_position_that_does_not_fit_names_the_part_at_fault(changes, field):
    with pytest.raises(EngineError) as caught:
        _pong(**changes).view(RULES)
    assert caught.value.field == field


def test_a_kind_seen_five_times_is_counted_where_it_first_passed_four():
    with pytest.raises(EngineError) as caught:
        _pong(river=parse_sequence("5p5p", "r0"), opponents=(Opponent(parse_sequence("5p", "r1")), OPPONENTS[1])).view(RULES)
    assert caught.value.field == "opponents" and caught.value.params["count"] == 5 and caught.value.params["tile"] == "5p"

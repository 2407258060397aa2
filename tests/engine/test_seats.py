"""The person's seat at an engine table: a stored record read and replayed, the seats' policies, the 自动胡 / 自动过 switches."""

from __future__ import annotations

from dataclasses import replace

from kwx.bots.basic import BasicBot
from kwx.hand.notation import parse_tiles
from kwx.hand.tiles import KIND_OF_ID
from kwx.table import seats
from kwx.table.record import DEFAULT_PLAYERS, Header, Record
from kwx.table.seat_record import SeatRecord, cut
from kwx.table.seats import Auto, auto_choice
from kwx.table.selfplay import play, seeded_deal
from kwx.table.table import Action
from kwx.table.view import view_for


def crafted_state(actions):
    hands = tuple(parse_tiles(h, "h") for h in ("234p678p11s345s78s", "111p999pBBBZZ22s", "555p66p123s44s999s"))
    return Record(Header("standard", (), 1, (0, 0, 0), DEFAULT_PLAYERS, 2, hands), tuple(Action(s, v, KIND_OF_ID[t]) for s, v, t in actions)).replay().final


def test_auto_pass_passes_only_a_pong_that_does_not_bring_the_hand_nearer_and_auto_win_takes_a_win():
    view = view_for(crafted_state([(2, "draw", "2p"), (2, "discard", "1s")]), 0)  # ready already: a pong of 1s leaves it ready, no nearer
    assert [(a.verb, a.tile) for a in view.options] == [("pong", "1s")]
    assert auto_choice(view, Auto(passes=True)).passes and auto_choice(view, Auto()) is None and auto_choice(view, Auto(win=True)) is None
    state = crafted_state([(2, "draw", "2p"), (2, "discard", "1s")])
    seat0 = replace(state.seats[0], concealed=parse_tiles("147p11s258sFFZ3s6s", "h"))  # two away: the pong brings it one nearer
    helped = view_for(replace(state, seats=(seat0, state.seats[1], state.seats[2])), 0)
    assert auto_choice(helped, Auto(passes=True)) is None
    drawn = view_for(crafted_state([(2, "draw", "2p"), (2, "discard", "2p"), (0, "draw", "6s")]), 0)  # self-draw of a wait
    won = auto_choice(drawn, Auto(win=True, passes=True))
    assert won is not None and (won.action.verb, won.action.tile) == ("win", "6s") and auto_choice(drawn, Auto(passes=True)) is None


def test_a_stored_record_is_read_as_a_whole_hand_or_one_seats_view_and_replays_with_or_without_the_wall():
    done = play(seeded_deal(7, 1), [BasicBot(), BasicBot(), BasicBot()])
    whole = seats.read_record(done.record.to_json())
    assert whole == done.record and seats.replayed(whole).final.seats == done.final.seats
    walled = seats.replayed(Record(whole.header), 7)
    assert walled.final.wall == seeded_deal(7, 1).wall and seats.replayed(Record(whole.header)).final.wall is None
    mine = cut(done, 0)
    read = seats.read_record(mine.to_json())
    assert isinstance(read, SeatRecord) and read == mine and seats.replayed(read).result == done.result


def test_the_bot_takes_every_seat_but_the_persons():
    bot, person = BasicBot(), BasicBot()
    assert seats.bot_policies(bot, person, 1) == [bot, person, bot]

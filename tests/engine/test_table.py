"""The table's legality rules and derived facts (kwx-rules §5, hand-record.md), one by one.

Records are written compactly: ``"0d5p 0x7s 1p7s"`` is seat 0 draws 5p, seat 0 discards 7s,
seat 1 pongs 7s (verbs: d draw, x discard, ! discard declaring 亮倒, p pong, k kong, w win).
"""

from __future__ import annotations

import pytest

from kwx.errors import RecordError
from kwx.hand.tiles import kind_of
from kwx.table.record import replay
from kwx.table.table import Action, claim_win

VERBS = {"d": "draw", "x": "discard", "!": "discard", "p": "pong", "k": "kong", "w": "win"}


def record(hands, moves, dealer=0, rules="standard", options=None):
    """A kwx-hand/1 record from three hands and compact moves."""
    actions = []
    for move in moves.split():
        action = {"seat": int(move[0]), VERBS[move[1]]: move[2:]}
        if move[1] == "!":
            action["liang_dao"] = True
        actions.append(action)
    return {"format": "kwx-hand/1", "rules": rules, "options": options or {}, "dealer": dealer, "hands": list(hands), "actions": actions}


def illegal_at(hands, moves, **kw):
    """The index of the first illegal action (fails if the record is legal)."""
    with pytest.raises(RecordError) as info:
        replay(record(hands, moves, **kw))
    assert info.value.field == "actions"
    return info.value.action


# seat 1 waits on 5p (卡五星 ×2: a discard win is allowed); seats 0 and 2 hold spare 5p
KA_WU = ("123557pZZBBF19s", "46p123456789sFF", "11589p23468sZBB")
# seat 1 declares 亮倒 by throwing Z after drawing 9s (then waiting on 5p)
LIANG = ("12378pZZBB1239s", "46p12345678sFFZ", "599p124689sBBFF")


def test_the_hands_are_what_the_tests_say():
    state = replay(record(KA_WU, "0d9p 0x5p")).final
    assert claim_win(state, 1) is not None and claim_win(state, 2) is None


def test_missed_win_bars_discard_wins_until_the_own_draw():
    # seat 1 lets seat 2's 5p go; before seat 1 draws again, seat 0's 5p may not be won on
    assert illegal_at(KA_WU, "0d9p 0x9p 1d1s 1x1s 2d3p 2x5p 0d3s 0x5p 1w5p") == 8


def test_own_draw_lifts_the_missed_win_bar():
    good = "0d9p 0x9p 1d1s 1x1s 2d3p 2x5p 0d3s 0x3s 1d7p 1x7p 2d4s 2x4s 0d8s 0x5p 1w5p"
    done = replay(record(KA_WU, good))
    assert done.result == "discard" and done.final.wins[0].seat == 1


def test_ponging_a_tile_one_could_win_on_passes_that_win():
    hands = ("5p88pZZBBFF1379s", "1234445556799p", "88p1234689sZBFF")
    state = replay(record(hands, "0d7s 0x5p")).final
    win = claim_win(state, 1)
    assert win is not None and win.value.total >= 4  # 清一色
    ponged = replay(record(hands, "0d7s 0x5p 1p5p")).final
    assert ponged.seats[1].passed == win.value.total


def test_pong_with_three_concealed_is_legal_but_the_fourth_never_makes_a_kong():
    hands = ("123456p1789sZZF", "2468p235777sBBF", "13579p1469sZBBF")
    assert illegal_at(hands, "0d2p 0x7s 1p7s 1x2p 2d3s 2x3s 0d4s 0x4s 1d8p 1k7s") == 9


def test_no_concealed_kong_in_the_turn_of_a_pong():
    hands = ("134566p1789sZZF", "2222p35777sBBFZ", "13579p1469sZBBF")
    assert illegal_at(hands, "0d3p 0x7s 1p7s 1k2p") == 3


def test_a_liang_dao_seat_never_pongs():
    assert illegal_at(LIANG, "0d3s 0x3s 1d9s 1!Z 2d1p 2xF 1pF") == 6


def test_liang_dao_locks_the_waits_and_twice_is_illegal():
    state = replay(record(LIANG, "0d3s 0x3s 1d9s 1!Z")).final
    assert state.seats[1].liang_dao and state.seats[1].waits == {kind_of("5p")}
    assert illegal_at(LIANG, "0d3s 0x3s 1d9s 1!Z 2d1p 2x1p 0d7s 0x7s 1d7p 1!7p") == 9


def test_nothing_after_a_self_draw_and_no_win_on_ones_own_discard():
    hands = ("46p123456789sFF", "12378pZZBB1239s", "599p124689sBBFF")
    done = replay(record(hands, "0d5p 0w5p"))
    assert done.result == "self_draw" and done.next_dealer == 0
    assert illegal_at(hands, "0d5p 0w5p 1d1p") == 2
    assert illegal_at(hands, "0d9p 0x9p 0w9p") == 2


def test_a_discard_win_is_on_the_discard():
    hands = ("12378pZZBB1239s", "46p123456789sFF", "599p124689sBBFF")
    assert illegal_at(hands, "0d5p 0x3s 1w5p") == 2


def test_unfinished_record_has_no_result_and_only_kong_money():
    hands = ("11112378pZZBB9s", "46p12345678sFFZ", "599p124689sBBFF")
    done = replay(record(hands, "0d8p 0k1p 0d3s"))
    assert done.result is None and done.next_dealer is None
    assert done.settlement.nets == (4, -2, -2)
    assert [(k.type, k.kind, k.chain) for k in done.final.kongs] == [("an_gang", kind_of("1p"), 1)]


def test_an_action_reads_back_from_its_record_form_and_a_bad_one_names_its_index():
    for action in (Action(1, "discard", kind_of("5p")), Action(0, "discard", kind_of("Z"), liang_dao=True), Action(2, "pong", kind_of("9s"))):
        assert Action.from_dict(action.as_dict()) == action
    with pytest.raises(RecordError) as err:
        Action.from_dict({"seat": 3, "draw": "5p"}, 7)
    assert (err.value.field, err.value.action) == ("actions", 7)
    assert str(err.value) == "Action 7: the seat must be 0, 1 or 2."

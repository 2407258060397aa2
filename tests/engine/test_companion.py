"""The companion bot, one rule a test (docs/bots.md, "companion"; issue 24's description of the public basic companion)."""

from __future__ import annotations

from dataclasses import replace

from kwx.bots.basic import BasicBot, best_discard
from kwx.bots.companion import CompanionBot, outs
from kwx.hand.efficiency import discard_options
from kwx.hand.tiles import EMPTY, kind_of
from kwx.table.table import Action, SeatState, legal_actions
from kwx.table.view import view_for
from tests.engine.test_bots import act, claim, position, seat

COMPANION = CompanionBot()


def test_takes_every_win_a_self_draw_and_a_discard():
    # a 屁胡 self-draw on 9s …
    state = position((seat("123456789p1178s9s"), seat("23456p345s678sZF"), seat("2233456p1299sBB")), "act", 0, "9s")
    assert act(COMPANION, state) == Action(0, "win", kind_of("9s"))
    # … and a 卡五星 discard win on 5p thrown by seat 1
    state = position((seat("123456789s1146p"), seat("2367p345s678sZFF", "5p"), seat("2233467p1299sBZ")), "claim", 1, "5p")
    assert claim(COMPANION, state, 0) == Action(0, "win", kind_of("5p"))


def test_makes_every_kong_it_can_even_one_that_breaks_its_hand():
    # four 5p in a ready hand: the 暗杠 leaves it 1 away from ready (the basic bot keeps the shape)
    state = position((seat("3455556p123789sF"), seat("12367p345s678sZB"), seat("112389p1299sZZB")), "act", 0, "F")
    assert act(COMPANION, state) == Action(0, "kong", kind_of("5p"))
    assert act(BasicBot(), state).verb == "discard"
    # three concealed 中 and seat 1 throws the fourth: 直杠 rather than 碰
    state = position((seat("ZZZ123456p1278s"), seat("12367p345s678sFF", "Z"), seat("112349p1299sBBF")), "claim", 1, "Z")
    assert claim(COMPANION, state, 0) == Action(0, "kong", kind_of("Z"))


def test_after_liang_dao_kongs_only_when_the_waits_stay_the_same():
    # declared on 9s/发 with 777p concealed: the fourth 7p makes a kong that keeps the waits
    state = position((_with_draw(seat("777p234567s99sFF", liang_dao=True), "7p"), seat("123456p345s678sZ"), seat("112389p1288sZBB")), "act", 0, "7p")
    assert act(COMPANION, state) == Action(0, "kong", kind_of("7p"))
    # declared on 2s/4s/5s (3334s): a kong of the fourth 3s would leave 4s alone, so the table offers none and it throws the 3s
    state = position((_with_draw(seat("3334s123456789p", liang_dao=True), "3s"), seat("123456p456s678sZ"), seat("112389p1299sBBZ")), "act", 0, "3s")
    assert not any(a.verb == "kong" for a in legal_actions(state))
    assert act(COMPANION, state) == Action(0, "discard", kind_of("3s"))


def test_pongs_only_when_the_best_discard_after_lowers_the_shanten():
    # 1 away from ready, and after 碰 5p and a discard ready: pong
    state = position((seat("1155p234567s89sF"), seat("12367p345s678sZF", "5p"), seat("22334467p1299sB")), "claim", 1, "5p")
    assert claim(COMPANION, state, 0) == Action(0, "pong", kind_of("5p"))
    # ready on 6p/9p, and after 碰 5p and a discard still only ready: pass
    state = position((seat("123456789s55p78p"), seat("1236p345s678sZFB", "5p"), seat("112334689p1299s")), "claim", 1, "5p")
    assert Action(0, "pong", kind_of("5p")) in view_for(state, 0).options
    assert claim(COMPANION, state, 0) is None


def test_discards_to_leave_the_hand_ready_before_any_number_of_outs():
    # 1s leaves 567p23445677sZZ ready on 4 outs; 中 would leave it 1 away from ready with 30
    state = position((seat("567p123445677sZZ"), seat("123456p345s689sF"), seat("11233489p1299sB")), "act", 0, "Z")
    assert act(COMPANION, state) == Action(0, "discard", kind_of("1s"), liang_dao=True)


def test_discards_for_the_lowest_shanten_before_the_most_outs():
    # 中 (or 发) leaves 5689p11237899sF two from ready on 23 outs; 9p leaves it three from ready on 55
    state = position((seat("5689p11237899sZF"), seat("12367p345s456sBB"), seat("1123344p567sBZZ")), "act", 0, "F")
    view = view_for(state, 0)
    options = {o.discard: o for o in discard_options(view.hand, EMPTY, view.rules)}
    z, p9 = options[kind_of("Z")], options[kind_of("9p")]
    assert (z.result.shanten, outs(view.hand, z)) == (2, 23) and (p9.result.shanten, outs(view.hand, p9)) == (3, 55)
    # the tie between 中 and 发 (23 outs each) goes to the tile it held before the draw
    assert act(COMPANION, state) == Action(0, "discard", kind_of("Z"))


def test_counts_outs_as_four_less_the_copies_in_its_own_hand():
    # 4s and 1s both leave 2 shanten; after 4s the outs include 1s (4 − 1 in hand = 3), after 1s they include 4s (4 − 2 = 2).
    # Two 1s lie in seat 1's river: counted live, 1s is the better discard (the basic bot throws it); the companion does not look.
    state = position((seat("134678p1445689sZ"), seat("2367p345s678sFFB", "1s1s"), seat("112339p299sBBFZ")), "act", 0, "Z")
    view = view_for(state, 0)
    assert best_discard(view, view.hand, {k for k in range(21) if view.concealed[k]})[0] == kind_of("1s")
    assert act(COMPANION, state) == Action(0, "discard", kind_of("4s"))


def test_breaks_a_tie_on_outs_by_the_most_waits():
    # 3p leaves 1p/6s (2 waits, 2 + 2 outs), 1p leaves the 2p 嵌张 (1 wait, 4 outs): 3p, though 1p comes first in order
    state = position((seat("113345678p66777s"), seat("12367p345s689sZF"), seat("122399p1299sBBZ")), "act", 0, "8p")
    assert act(COMPANION, state) == Action(0, "discard", kind_of("3p"), liang_dao=True)


def test_never_throws_a_revealed_winning_tile_while_it_holds_a_safe_one():
    # seat 1 declared on 中/发; the companion's own best discards are those two
    state = position((seat("123456789p11s5sZF"), seat("234678s345pZZFF", liang_dao=True), seat("112334567p1299s")), "act", 0, "F")
    choice = act(COMPANION, state)
    assert choice.verb == "discard" and choice.kind not in (kind_of("Z"), kind_of("F"))
    # after a fourth pong it holds only 中 and 发, both winning tiles of seat 1: it throws one of them
    state = position((seat("ZF[111p][999p][111s][999s]"), seat("234678s345pZZFF", liang_dao=True), seat("223344567p2288s")), "pong", 0, None)
    assert act(COMPANION, state).kind in (kind_of("Z"), kind_of("F"))


def test_after_liang_dao_throws_the_tile_it_drew():
    state = position((_with_draw(seat("123456789p11s23s", liang_dao=True), "Z"), seat("123456p345s689sF"), seat("11234567p1299sB")), "act", 0, "Z")
    assert act(COMPANION, state) == Action(0, "discard", kind_of("Z"))


def test_declares_liang_dao_with_every_discard_that_leaves_the_hand_ready():
    # a 屁胡 on 1s/4s: declared at once with the 发 (the basic bot never declares)
    state = position((seat("123456789p1123sF"), seat("123456p345s678sZ"), seat("11234567p1299sB")), "act", 0, "F")
    assert act(COMPANION, state) == Action(0, "discard", kind_of("F"), liang_dao=True)
    assert act(BasicBot(), state) == Action(0, "discard", kind_of("F"))
    # and after a 碰 too: either single tile left after 123456789p leaves it ready (on the other), and is declared
    state = position((seat("123456789p2sF[111s]"), seat("123456p345s678sZ"), seat("11234567p2299sB")), "pong", 0, None)
    choice = act(COMPANION, state)
    assert choice.liang_dao and choice.kind in (kind_of("2s"), kind_of("F"))


def _with_draw(s: SeatState, tile: str) -> SeatState:
    """A 亮倒 seat with ``tile`` just drawn (its waits locked before the draw)."""
    counts = list(s.concealed)
    counts[kind_of(tile)] += 1
    return replace(s, concealed=tuple(counts))

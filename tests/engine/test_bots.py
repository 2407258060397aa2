"""The strong bot's decisions on hand-made positions, against what the basic bot does there."""

from __future__ import annotations

from dataclasses import replace

from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot, danger
from kwx.hand.notation import parse_hand, parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.tiles import NUM_KINDS, kind_of
from kwx.table.table import Action, SeatState, Table, legal_actions
from kwx.table.view import view_for

RULES = make_rules("standard", (), {})


def seat(hand: str, river: str = "", liang_dao: bool = False) -> SeatState:
    """A seat from hand notation (melds in brackets) and its river; a 亮倒 seat gets its waits locked."""
    h = parse_hand(hand)
    kinds = tuple(k for k in range(NUM_KINDS) for _ in range(parse_tiles(river)[k])) if river else ()
    waits = h.winning_kinds() if liang_dao else frozenset()
    return SeatState(h.concealed, h.melds, kinds, liang_dao, waits)


def position(seats: tuple[SeatState, SeatState, SeatState], phase: str, turn: int, tile: str | None, drawn: int = 6) -> Table:
    """A table state with the seats as given (``dealt`` counts every tile in sight)."""
    dealt = [0] * NUM_KINDS
    for s in seats:
        for k in range(NUM_KINDS):
            dealt[k] += s.hand.held[k]
        for k in s.river:
            dealt[k] += 1
    kept = []
    for i, s in enumerate(seats):
        own_turn = i == turn and phase in ("act", "pong")
        assert s.hand.tile_count == (14 if own_turn else 13)
        before = s.hand.with_tile(kind_of(tile), -1) if own_turn and tile else s.hand
        kept.append(replace(s, ready_on=before.winning_kinds()))  # the table keeps each seat's winning kinds
    assert max(dealt) <= 4
    seats = (kept[0], kept[1], kept[2])
    return Table(RULES, 0, seats, phase, turn, kind_of(tile) if tile else None, drawn=drawn, dealt=tuple(dealt))


def act(bot, state: Table) -> Action:
    view = view_for(state, state.turn)
    choice = bot.act(view)
    assert choice in view.options
    return choice


def claim(bot, state: Table, who: int) -> Action | None:
    view = view_for(state, who)
    choice = bot.claim(view)
    assert view.decision.allows(choice)
    return choice


def test_never_deals_into_a_revealed_hand():
    # seat 1 has declared 亮倒 on 中/发; the efficient discards of seat 0 are exactly those two
    state = position(
        (seat("123456789p11s5sZF"), seat("234678s345pZZFF", liang_dao=True), seat("112334567p1299s")),
        "act",
        0,
        "F",
    )
    assert act(BasicBot(), state).kind in (kind_of("Z"), kind_of("F"))
    choice = act(StrongBot(), state)
    assert choice.verb == "discard" and choice.kind not in (kind_of("Z"), kind_of("F"))
    costs, bao = danger(view_for(state, 0))
    assert bao == {kind_of("Z"), kind_of("F")} and costs[kind_of("Z")] >= 4


def test_wins_on_the_tile_a_revealed_hand_would_also_take():
    # the drawn 中 completes seat 0's own hand: it wins rather than worry about seat 1
    state = position(
        (seat("123456789p11sZZZ"), seat("234678s345pFFBB", liang_dao=True), seat("112334567p1299s")),
        "act",
        0,
        "Z",
    )
    assert act(StrongBot(), state) == Action(0, "win", kind_of("Z"))


def test_declares_liang_dao_on_a_live_plain_wait():
    # discarding 中 leaves 23s waiting on 1s/4s: a 屁胡 hidden wins only by self-draw, revealed it doubles
    state = position((seat("123456789p23s55sZ"), seat("112334567p1299s"), seat("2345678s246pFBB")), "act", 0, "Z", drawn=4)
    assert act(BasicBot(), state) == Action(0, "discard", kind_of("Z"))
    assert act(StrongBot(), state) == Action(0, "discard", kind_of("Z"), liang_dao=True)


def test_keeps_a_dead_wait_hidden():
    # every 1s and 4s is in sight: 亮倒 would lock a hand that cannot win and risk the 荒庄 payment
    state = position(
        (seat("123456789p23s55sZ"), seat("1123679p299sFFB", river="1111s"), seat("2367p2356s88sFBB", river="4444s")),
        "act",
        0,
        "Z",
        drawn=12,
    )
    assert not act(StrongBot(), state).liang_dao


def test_konging_four_dragons_that_only_make_a_set():
    state = position((seat("123p456p78p11sZZZZ"), seat("112334567p1299s"), seat("2345678s246pFBB")), "act", 0, "Z")
    assert act(StrongBot(), state) == Action(0, "kong", kind_of("Z"))


def test_no_kong_that_throws_away_a_long_qi_dui():
    # 11p22p33p44s5s6sZZZZ: discard 5s and wait on 6s for 龙七对 ×8; the kong leaves a 屁胡 on 4s
    state = position((seat("112233p4456sZZZZ"), seat("112334567p1299s"), seat("2345678s246pFBB")), "act", 0, "Z")
    assert act(BasicBot(), state).verb == "kong"
    choice = act(StrongBot(), state)
    assert choice.verb == "discard" and choice.kind in (kind_of("5s"), kind_of("6s"))


def test_no_added_kong_a_revealed_hand_would_rob():
    # seat 1 revealed on 46p waits on 5p: the 蓄杠 would be robbed (包胡) and the tile is dead anyway
    state = position(
        (seat("123s456s789s1p[555p]5p"), seat("46p234678s777pBB", liang_dao=True), seat("1123379p1299sZZ")),
        "act",
        0,
        "5p",
    )
    assert act(BasicBot(), state).verb == "kong"
    choice = act(StrongBot(), state)
    assert choice.verb == "discard" and choice.kind != kind_of("5p")


def test_pongs_a_pair_that_brings_the_hand_nearer():
    state = position((seat("123p456p78pZZ159s"), seat("112334567p129sF", river="Z"), seat("2345678s246pFBB")), "claim", 1, "Z")
    assert claim(StrongBot(), state, 0) == Action(0, "pong", kind_of("Z"))


def test_passes_a_pong_that_breaks_a_ready_seven_pairs():
    state = position((seat("113355p7799sZZF"), seat("112334567p129sB", river="Z"), seat("2345678s246pFBB")), "claim", 1, "Z")
    assert claim(StrongBot(), state, 0) is None


def test_takes_an_allowed_discard_win():
    state = position((seat("123p456p789p4556s"), seat("112334567p129sF", river="5s"), seat("2345678s246pFBB")), "claim", 1, "5s")
    assert claim(StrongBot(), state, 0) == Action(0, "win", kind_of("5s"))


def test_the_weights_change_nothing_when_nobody_is_revealed_and_the_hand_is_far():
    state = position((seat("13p58p2s47s8sZFB159p"), seat("112334567p129sF"), seat("2345678s246pFBB")), "act", 0, "9p", drawn=1)
    costs, bao = danger(view_for(state, 0))
    assert not bao and all(c == 0 for c in costs)  # nobody has discarded or melded yet
    assert act(StrongBot(), replace(state)).verb == "discard"


def drew(s: SeatState, tile: str) -> SeatState:
    """The seat after drawing ``tile`` (its 亮倒 waits stay those of the 13 tiles)."""
    return replace(s, concealed=s.hand.with_tile(kind_of(tile)).concealed)


def test_a_revealed_hand_takes_the_kong_that_keeps_its_waits():
    # revealed on 5s alone; the fourth 中 makes an 暗杠 that leaves the wait as it is: 4 points for nothing
    me = drew(seat("123p456p789p5sZZZ", liang_dao=True), "Z")
    state = position((me, seat("112334567p129sF"), seat("2345678s246pFBB")), "act", 0, "Z")
    assert Action(0, "kong", kind_of("Z")) in legal_actions(state)
    assert act(StrongBot(), state) == Action(0, "kong", kind_of("Z"))


def test_a_revealed_hand_throws_what_it_draws_even_into_another_revealed_hand():
    # locked: the drawn 发 is the only discard, though seat 1 (revealed) wins on it
    me = drew(seat("123p456p789p5sZZZ", liang_dao=True), "F")
    state = position((me, seat("234678s345pFFBB", liang_dao=True), seat("112334567p129sB")), "act", 0, "F")
    assert kind_of("F") in danger(view_for(state, 0))[1]
    assert act(StrongBot(), state) == Action(0, "discard", kind_of("F"))


def test_after_a_pong_the_fourth_copy_of_the_ponged_tile_is_live():
    # pong 5p from seat 1, then 发 leaves 46p waiting on the last 5p (卡五星); it is live unless seat 2 has thrown it
    def discard_worth_after_pong(third: SeatState) -> float:
        state = position((seat("4556p123456sZZF"), seat("12378p345s789sBB", "5p"), third), "claim", 1, "5p")
        view = view_for(state, 0)
        after = view.hand.after_pong(kind_of("5p"))
        assert view.visible_beside(after)[kind_of("5p")] + after.held[kind_of("5p")] == view.seen[kind_of("5p")] == (3 if third.river == () else 4)
        held = frozenset(k for k in range(NUM_KINDS) if after.concealed[k])
        return next(c.worth for c in StrongBot().discards(view, after, held, True) if c.kind == kind_of("F") and not c.liang_dao)

    live = discard_worth_after_pong(seat("11234789p1299sB"))
    dead = discard_worth_after_pong(seat("11234789p1299sB", "5p"))
    assert live > dead + 0.2

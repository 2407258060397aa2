"""The table under a town's rules (town-rules.md §1.9, §4): what each option allows, refuses or makes happen."""

from __future__ import annotations

import collections

import pytest

from kwx.bots.registry import policy_factory
from kwx.hand.notation import parse_hand
from kwx.hand.rules import make_rules
from kwx.hand.tiles import KIND_OF_ID, Hand
from kwx.rules import PRESETS
from kwx.table.record import Record, settle_table
from kwx.table.selfplay import play, seeded_deal
from kwx.table.table import Action, SeatState, Table, apply, face_up, forced_kong, horses_pending, kou_choices, legal_actions, refusal
from kwx.table.view import view_for

K = KIND_OF_ID


def seat(text: str, liang_dao: bool = False, kou: str = "", drawn: str = "") -> SeatState:
    """A seat holding ``text`` (13 tiles; with ``drawn`` one more, just drawn), its waits those of the 13."""
    hand = parse_hand(text)
    ready = Hand(hand.concealed, hand.melds).winning_kinds() if sum(hand.concealed) + 3 * len(hand.melds) == 13 else frozenset()
    concealed = hand.with_tile(K[drawn]).concealed if drawn else hand.concealed
    return SeatState(concealed, hand.melds, (), liang_dao, ready if liang_dao else frozenset(), 0, ready, frozenset(K[t] for t in kou.split()) if kou else frozenset())


def table(rules: str, seats: list[SeatState], phase: str, turn: int, tile: str | None, options: dict | None = None, drawn: int = 20, wall: tuple[int, ...] | None = None) -> Table:
    dealt = tuple(min(4, sum(s.concealed[k] for s in seats) + sum(m.type.size for s in seats for m in s.melds if m.kind == k)) for k in range(21))
    return Table(make_rules(rules, (), options), 0, (seats[0], seats[1], seats[2]), phase, turn, K[tile] if tile else None, drawn, dealt=dealt, wall=wall)  # type: ignore[arg-type]


OTHER = "1259p1359s15sZFBB"  # 13 tiles that hold nothing anyone wants
DECLARED = "4556p123s789sZZZ"  # ready on 5p (卡五星)


def test_a_pinghu_wins_on_a_declared_seats_discard_under_winner_or_payer_only():
    plain = seat("123p456p789p23sFF")
    for rules, legal in (("xiaogan", True), ("standard", False)):
        state = table(rules, [plain, seat(DECLARED, liang_dao=True), seat(OTHER)], "claim", 1, "1s")
        assert (refusal(state, Action(0, "win", K["1s"])) is None) == legal, rules
    undeclared = table("xiaogan", [plain, seat(DECLARED), seat(OTHER)], "claim", 1, "1s")
    assert refusal(undeclared, Action(0, "win", K["1s"])) is not None


def test_yingcheng_self_draw_needs_two_unless_declared():
    for rules, declared, legal in (("yingcheng", False, False), ("yingcheng", True, True), ("standard", False, True)):
        state = table(rules, [seat("123p456p789p23sFF", declared, drawn="1s"), seat(OTHER), seat(OTHER)], "act", 0, "1s")
        assert (refusal(state, Action(0, "win", K["1s"])) is None) == legal, (rules, declared)


def test_no_feed_liang_dao_keeps_a_safe_tile_in_hand_while_there_is_one():
    declared = seat(DECLARED, liang_dao=True)
    mine = seat("5p1259p1359s15sZFB")  # 14 tiles on its turn, one of them the declared hand's 5p
    state = table("xiaogan", [declared, mine, seat(OTHER)], "act", 1, "5p", {"no_feed_liang_dao": True})
    assert refusal(state, Action(1, "discard", K["5p"])) is not None
    assert refusal(state, Action(1, "discard", K["1p"])) is None
    assert refusal(table("xiaogan", [declared, mine, seat(OTHER)], "act", 1, "5p"), Action(1, "discard", K["5p"])) is None  # the option is off in 孝感
    only = seat("5555p")  # every tile it holds feeds: any may go
    only = SeatState(only.concealed, parse_hand("5555p[111s][222s][333s]").melds)
    assert refusal(table("xiaogan", [declared, only, seat(OTHER)], "act", 1, "5p", {"no_feed_liang_dao": True}), Action(1, "discard", K["5p"])) is None


def test_the_declaring_discard_may_not_feed_an_earlier_declarer():
    declared = seat(DECLARED, liang_dao=True)
    mine = seat("123p456p789p123s55p")  # ready on 5p after throwing the other 5p
    state = table("xiaogan", [declared, mine, seat(OTHER)], "act", 1, "5p")
    assert refusal(state, Action(1, "discard", K["5p"], liang_dao=True)) is not None
    assert refusal(state, Action(1, "discard", K["5p"])) is None
    assert refusal(table("standard", [declared, mine, seat(OTHER)], "act", 1, "5p"), Action(1, "discard", K["5p"], liang_dao=True)) is None


def test_no_liang_dao_once_a_meld_exists_where_the_rules_say_so():
    melded = seat("4556p789sZZZ6s[111s]")
    state = table("xiaogan", [melded, seat(OTHER), seat(OTHER)], "act", 0, "6s", {"liang_dao_no_melds": True})
    assert refusal(state, Action(0, "discard", K["6s"], liang_dao=True)) is not None
    assert refusal(table("xiaogan", [melded, seat(OTHER), seat(OTHER)], "act", 0, "6s"), Action(0, "discard", K["6s"], liang_dao=True)) is None


def test_no_xu_gang_of_a_declared_hands_tile():
    declared = seat("123p456p78s99sZZZ", liang_dao=True)  # ready on 6s and 9s
    ponged = SeatState(parse_hand("123p159p1sZFB6s").concealed, parse_hand("[666s]").melds)
    assert declared.waits == {K["6s"], K["9s"]} and ponged.hand.pong_of(K["6s"])
    for rules, legal in (("xiaogan", False), ("shiyan", True)):
        state = table(rules, [declared, ponged, seat(OTHER)], "act", 1, "6s")
        assert (refusal(state, Action(1, "kong", K["6s"])) is None) == legal, rules


def test_ban_liang_keeps_triplets_face_down_only_when_the_waits_stay():
    hand = "111p234s567s999sFF"  # 14 tiles: throw F, ready on F with triplets 111p and 999s
    after = parse_hand("111p234s567s999sF").concealed
    assert set(kou_choices(after, ())) == {K["1p"], K["9s"]}
    state = table("yingcheng", [seat(hand), seat(OTHER), seat(OTHER)], "act", 0, "F")
    both = Action(0, "discard", K["F"], liang_dao=True, kou=frozenset({K["1p"], K["9s"]}))
    assert both in legal_actions(state)
    done = apply(state, both)
    assert done.seats[0].kou == {K["1p"], K["9s"]}
    other = view_for(done, 1)
    assert other.seats[0].kou == 2 and other.seats[0].revealed == face_up(done.seats[0]) and sum(other.seats[0].revealed) == 7
    assert other.seats[0].waits == {K["F"]}
    assert refusal(table("xiaogan", [seat(hand), seat(OTHER), seat(OTHER)], "act", 0, "F"), both) is not None  # 半亮 is off in 孝感
    wrong = Action(0, "discard", K["F"], liang_dao=True, kou=frozenset({K["2s"]}))
    assert refusal(state, wrong) is not None


@pytest.mark.parametrize("name", ["strong", "judge", "boosted"])
def test_bots_declaring_under_ban_liang_keep_every_triplet_they_may_face_down(name):
    hand = "111p234s567s999sFF"  # declare throwing F or 2s: 111p and 999s may both stay face down either way
    for rules, kou in (("yingcheng", {K["1p"], K["9s"]}), ("xiaogan", set())):
        view = view_for(table(rules, [seat(hand), seat(OTHER), seat(OTHER)], "act", 0, "F"), 0)
        assert view.discard(K["F"]) == Action(0, "discard", K["F"])
        assert view.discard(K["F"], liang_dao=True).kou == kou, rules
        if kou:  # every bot declares here under 应城's rules
            action = policy_factory(name)().act(view)
            assert (action.liang_dao, action.kou) == (True, kou)


def test_sha_ma_konges_a_declared_triplet_at_once():
    declared = seat("111p234s567s999sF", liang_dao=True)
    drawn = seat("111p234s567s999sF", liang_dao=True, drawn="1p")
    state = table("suizhou", [drawn, seat(OTHER), seat(OTHER)], "act", 0, "1p")
    assert forced_kong(state) == Action(0, "kong", K["1p"])
    assert {a.verb for a in legal_actions(state)} == {"kong"}
    assert refusal(state, Action(0, "discard", K["1p"])) is not None
    # the fourth thrown by another seat: a 直杠, and nobody draws before it
    thrown = table("suizhou", [declared, seat("1p234p1359s15sZFB"), seat(OTHER)], "claim", 1, "1p")
    assert forced_kong(thrown) == Action(0, "kong", K["1p"])
    assert not any(a.verb == "draw" for a in legal_actions(thrown))
    konged = apply(thrown, Action(0, "kong", K["1p"]))
    assert konged.kongs[-1].type == "zhi_gang" and konged.kongs[-1].fed_by == 1
    assert view_for(thrown, 0).decision.may_pass is False
    assert forced_kong(table("xiaogan", [declared, seat("1p234p1359s15sZFB"), seat(OTHER)], "claim", 1, "1p")) is None


def test_horses_are_turned_from_the_wall_after_a_declared_self_draw():
    s = seat("123p456p789p23sFF", True, drawn="1s")
    wall = tuple([0] * 20 + [K["7s"]] + [0] * 24)
    state = table("suizhou", [s, seat(OTHER), seat(OTHER)], "act", 0, "1s", wall=wall)
    won = apply(state, Action(0, "win", K["1s"]))
    assert horses_pending(won) == 1 and not won.is_over
    assert legal_actions(won) == (Action(0, "horses", K["7s"], horses=(K["7s"],)),)
    assert refusal(won, Action(0, "horses", K["8s"], horses=(K["8s"],))) is not None
    done = apply(won, Action(0, "horses", K["7s"], horses=(K["7s"],)))
    assert done.is_over and done.horses == (K["7s"],)
    money = settle_table(done, ("甲", "乙", "丙"), 1, (0, 0, 0))
    assert money.nets == (18, -9, -9) and money.extras[0].ma == 7  # W12


def test_record_actions_for_kou_and_horses_read_and_write():
    kou = Action(0, "discard", K["F"], liang_dao=True, kou=frozenset({K["1p"], K["9s"]}))
    assert kou.as_dict() == {"seat": 0, "discard": "F", "liang_dao": True, "kou": ["1p", "9s"]}
    assert Action.from_dict(kou.as_dict()) == kou
    horses = Action(2, "horses", K["2p"], horses=(K["2p"], K["Z"]))
    assert horses.as_dict() == {"seat": 2, "horses": ["2p", "Z"]}
    assert Action.from_dict(horses.as_dict()) == horses


def test_a_shiyan_town_record_needs_its_dice():
    deal = seeded_deal(3)
    record = play(deal, [_first_bot()] * 3, "shiyan_town").record.to_json()
    assert record["dice"] == list(deal.dice)
    assert record["options"] == PRESETS["shiyan_town"].values.as_dict()
    without = {k: v for k, v in record.items() if k != "dice"}
    with pytest.raises(Exception) as caught:
        Record.from_json(without)
    assert getattr(caught.value, "field", None) == "dice"


def _first_bot():
    from kwx.bots.registry import policy_factory

    return policy_factory("basic")()


@pytest.mark.parametrize("rules", list(PRESETS))
def test_bots_play_whole_hands_under_every_preset_and_the_records_replay_to_the_same_money(rules):
    from kwx.bots.registry import policy_factory

    seen = collections.Counter()
    for number in range(12):
        deal = seeded_deal(500 + number, number % 3)
        done = play(deal, [policy_factory("strong")() for _ in range(3)], rules)
        again = Record.from_json(done.record.to_json()).replay()
        assert again.settlement.nets == done.settlement.nets and again.result == done.result
        assert sum(done.settlement.nets) == 0
        seen[done.result] += 1
        if done.final.horses:
            seen["horses"] += 1
    assert seen["self_draw"] + seen["discard"] > 0
    if PRESETS[rules].values.mai_ma != "none":
        assert seen["horses"]


@pytest.mark.parametrize("rules", [k for k, p in PRESETS.items() if p.values.cha_da_jiao])
def test_an_unfinished_hand_under_cha_da_jiao_settles_its_kong_money_only(rules):
    """A hand still on (the play table after every move, a record that stops early) pays no drawn-hand money: the wall has not run out."""
    done = play(seeded_deal(3, 0), [_Keep(), _Keep(), _Keep()], rules=rules)
    for count in (0, 1, len(done.actions) // 2):
        record = Record(done.record.header, done.record.actions[:count])
        partial = record.replay(seeded_deal(3, 0).wall)
        assert partial.result is None and partial.settlement.rules == PRESETS[rules].values
        assert all(p.kind == "kong" for p in partial.settlement.payments) and partial.settlement.ready == ()


class _Keep:
    """Discards the drawn tile (or the first it may), claims nothing: a hand that runs on."""

    def act(self, view):  # type: ignore[no-untyped-def]
        plain = [a for a in view.options if a.verb == "discard" and not a.liang_dao]
        return next((a for a in plain if a.kind == view.drawn_tile), plain[0])

    def claim(self, view):  # type: ignore[no-untyped-def]
        return None

"""One seat's view of a hand (kwx-hand/1 with "seat"): read, checked as far as the seat can, replayed to the seat's own decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kwx.bots.companion import CompanionBot
from kwx.bots.registry import policy_factory
from kwx.errors import RecordError
from kwx.hand.notation import parse_tile
from kwx.hand.tiles import MeldType
from kwx.rules import PRESETS
from kwx.table.record import Record, replay
from kwx.table.seat_record import SeatRecord, cut, is_one_seat, replay_seat, replay_seat_json
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import SeatView, view_for
from tests.engine.test_selfplay import RandomBot


def unknowable(view: SeatView) -> bool:
    """Whether some declared hand's waits follow from triplets it keeps face down (半亮), once 杀马 konged a face-up one."""
    return view.rules.options.sha_ma and any(s.kou and any(m.type is not MeldType.PONG for m in s.melds) for o, s in enumerate(view.seats) if o != view.seat)


def public(view: SeatView) -> tuple[object, ...]:
    """Everything a seat's view holds that a decision reads: its tiles, every public seat, the phase, the tile, the kongs (less whether another's 暗杠 took its drawn tile), the wins, the choices.

    Not the waits of a hand the seat cannot know them of (``unknowable``), nor the choices they shape; nor the
    tiles and value of a win holding triplets kept face down (unseen in the record, as its money is)."""
    blind = unknowable(view)
    wins = tuple((w.seat, w.kind, w.side) if view.seats[w.seat].kou else w for w in view.wins)
    seats = tuple((s.river, s.melds, s.tiles, s.liang_dao, s.revealed, None if blind and s.kou else s.waits, s.kou) for s in view.seats)
    kongs = tuple((k.seat, k.type, k.kind, k.fed_by, k.chain) for k in view.kongs)
    decision = None if blind and view.rules.options.no_feed_liang_dao else view.decision
    return (view.phase, view.turn, view.kind, view.drawn, view.concealed, view.passed, view.ready_on, seats, kongs, wins, view.declared, decision, view.replacement, view.after_kong)


def check_cut(done, seat: int) -> None:
    """A full hand cut to ``seat``'s view reads back from its JSON and replays to the same own decisions, result, dealer and (when it is known) money."""
    record = cut(done, seat)
    data = record.to_json()
    assert is_one_seat(data) and data["hands"][seat] is not None and all(data["hands"][o] is None for o in range(3) if o != seat)
    assert all(a["draw"] is None for i, a in enumerate(data["actions"]) if "draw" in a and a["seat"] != seat and not done.states[i].seats[a["seat"]].liang_dao)
    again = SeatRecord.from_json(data)
    assert again.actions == record.actions and again.to_json() == data
    seen = replay_seat(again)
    assert len(seen.states) == len(done.states)
    for step, (full, world) in enumerate(zip(done.states, seen.states, strict=True)):
        truth = view_for(full, seat)
        if truth.decision.is_open:
            assert public(view_for(world, seat)) == public(truth), step
    assert seen.result == done.result
    assert seen.next_dealer == done.next_dealer
    if seen.money_known:
        assert seen.settlement.nets == done.settlement.nets
    elif done.result is not None:  # money is unknown only for what the seat never saw: a 查大叫 drawn hand, a face-down triplet in a win, another's 暗杠 in a chain
        final = done.final
        assert (
            (done.result == "draw" and final.rules.options.cha_da_jiao)
            or any(final.seats[w.seat].kou for w in final.wins)
            or (final.rules.options.an_gang_chain_drawn_only and any(k.type == "an_gang" and k.seat != seat and k.chain > 1 for k in final.kongs))
        )


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2), rules=st.sampled_from(sorted(PRESETS)))
@example(seed=2658, dealer=2658 % 3, rules="suizhou")  # 杀马 leaves a declared hand unready before a drawn hand's 查大叫
@example(seed=3504, dealer=3504 % 3, rules="suizhou")
@example(seed=4008, dealer=4008 % 3, rules="suizhou")
def test_any_hand_cut_to_one_seat_replays_to_the_same_decisions(seed, dealer, rules):
    done = play(seeded_deal(seed, dealer), [RandomBot(seed + i) for i in range(3)], rules=rules)
    for seat in range(3):
        check_cut(done, seat)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(PRESETS)))
def test_hands_full_of_liang_dao_cut_to_one_seat(seed, rules):
    done = play(seeded_deal(seed, seed % 3), [CompanionBot() for _ in range(3)], rules=rules)
    for seat in range(3):
        check_cut(done, seat)


ROOMS = ((("ban_liang", True),), (("ban_liang", True), ("sha_ma", True)), (("ban_liang", True), ("no_feed_liang_dao", True), ("mai_ma", "one")))
"""Room options with 半亮: alone, with 杀马, with no feeding a declared hand and 买马."""


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(PRESETS)), room=st.sampled_from(ROOMS))
@example(seed=172824, rules="xiangyang", room=ROOMS[1])  # two declared hands could each keep 7p down: only one may
@example(seed=817622, rules="xiangyang", room=ROOMS[0])  # a declared hand adds the fourth to its pong: no face-down triplet shows
@example(seed=475925, rules="yicheng", room=ROOMS[1])  # 杀马's kong leaves a hand with a face-down triplet waiting on nothing
@example(seed=925267, rules="suizhou", room=ROOMS[1])  # a declared hand with a face-down triplet adds to its pong (抢杠 phase)
@example(seed=750330, rules="suizhou", room=ROOMS[0])  # 杀马 (suizhou's own) konged a face-up triplet: the waits follow the hidden one
@example(seed=401143, rules="xiaogan", room=ROOMS[2])  # a hidden hand feeds a declared one, holding nothing but its winning tiles
@example(seed=58534, rules="xiangyang_town", room=ROOMS[1])  # 杀马's 暗杠 leaves the real hand unready, a stand-in's ready
@example(seed=99001, rules="shiyan", room=ROOMS[0])  # a declared hand's kong keeps its waits with its real triplet, not a stand-in's
@example(seed=526698, rules="suizhou", room=ROOMS[0])  # after 杀马's kong a declared hand wins on a tile a stand-in triplet would not
@example(seed=236330, rules="suizhou", room=ROOMS[0])  # two wins on one discard, the first holding triplets face down
@example(seed=84414, rules="yingcheng", room=ROOMS[2])  # another's 暗杠 in a chain: whether it used its drawn tile is unseen, so is the money
def test_hands_of_bots_keeping_triplets_face_down_cut_to_one_seat(seed, rules, room):
    done = play(seeded_deal(seed, seed % 3), [policy_factory(name)() for name in ("boosted", "strong", "judge")], rules=rules, options=room)
    for seat in range(3):
        check_cut(done, seat)


def test_full_records_are_read_as_before():
    done = play(seeded_deal(5, 0), [CompanionBot() for _ in range(3)])
    data = done.record.to_json()
    assert not is_one_seat(data)
    assert replay(data).settlement.nets == done.settlement.nets
    with pytest.raises(RecordError) as refused:
        Record.from_json({**data, "seat": 0})
    assert refused.value.field == "seat"


# ---------------------------------------------------------------- hand-made records: what the seat can tell is illegal

OWN = "1111p234p567s89sZ"
"""Seat 0's 13 tiles, all four 1p among them."""


def entered(*actions: dict[str, object], hand: str = OWN, rules: str = "standard", dealer: int = 0) -> dict[str, object]:
    """A one-seat record of seat 0 with these actions."""
    return {"format": "kwx-hand/1", "seat": 0, "rules": rules, "dealer": dealer, "hands": [hand, None, None], "actions": list(actions)}


def refusal(data: dict[str, object]) -> RecordError:
    with pytest.raises(RecordError) as refused:
        replay_seat_json(data)
    return refused.value


OPENING = ({"seat": 0, "draw": "5p"}, {"seat": 0, "discard": "Z"}, {"seat": 1, "draw": None})


def test_another_seat_cannot_discard_a_fifth_copy():
    error = refusal(entered(*OPENING, {"seat": 1, "discard": "1p"}))
    assert error.action == 3
    assert str(error) == "Seat 1 cannot hold 1 1p: seat 0 has seen 4 of the four."


def test_another_seat_discards_what_it_may_hold_and_the_seat_sees_it():
    done = replay_seat_json(entered(*OPENING, {"seat": 1, "discard": "9p"}))
    view = view_for(done.final, 0)
    assert view.seats[1].river == (parse_tile("9p"),) and view.seats[1].tiles == 13
    assert view.decision.may_pass is False  # nothing to claim on a 9p
    assert done.result is None and done.money_known


def test_a_pong_needs_two_copies_the_seat_has_not_seen():
    error = refusal(entered({"seat": 0, "draw": "5p"}, {"seat": 0, "discard": "Z"}, {"seat": 1, "pong": "Z"}, hand="111p234p567s8sZZZ"))
    assert error.action == 2
    assert str(error) == "Seat 1 cannot hold 2 Z: seat 0 has seen 3 of the four."


def test_turn_order_and_draws():
    assert "not seat 2's turn" in str(refusal(entered(*OPENING[:2], {"seat": 2, "draw": None})))
    with pytest.raises(RecordError) as refused:
        replay_seat_json(entered({"seat": 0, "draw": "5p"}, {"seat": 0, "discard": "Z"}, {"seat": 1, "draw": "3s"}))
    assert refused.value.action == 2 and "null" in str(refused.value)


def test_the_seat_own_draw_of_a_fifth_copy():
    error = refusal(entered({"seat": 0, "draw": "1p"}))
    assert error.action == 0 and "fifth" in str(error)


def test_other_hands_are_unknown_in_the_header():
    with pytest.raises(RecordError) as refused:
        replay_seat_json({**entered(), "hands": [OWN, "123p456p789p11s22s", None]})
    assert refused.value.field == "hands"


def liang_dao_by_seat_1(revealed: str) -> dict[str, object]:
    return entered(*OPENING, {"seat": 1, "discard": "9p", "liang_dao": True, "revealed": revealed})


def test_another_seat_liang_dao_shows_its_tiles_and_waits():
    done = replay_seat_json(liang_dao_by_seat_1("234s567s789s99pFF"))
    seat = view_for(done.final, 0).seats[1]
    assert seat.liang_dao and seat.revealed is not None and sum(seat.revealed) == 13
    assert seat.waits == {parse_tile("9p"), parse_tile("F")}


def test_a_liang_dao_that_is_not_ready_or_miscounted():
    assert "亮倒 needs a ready hand" in str(refusal(liang_dao_by_seat_1("234s567s789s99pFB")))
    error = refusal(liang_dao_by_seat_1("234s567s789s99pF"))
    assert error.action == 3 and "holds 14 tiles, but 13 are given" in str(error)


def test_a_shown_win_is_checked_and_settled():
    done = replay_seat_json(entered(*OPENING, {"seat": 1, "win": "F", "hand": "234s567s789s99pFF"}))
    assert done.result == "self_draw" and done.money_known and done.next_dealer == 1
    assert done.settlement.nets[1] > 0 and done.settlement.nets[0] < 0
    assert "does not win on F" in str(refusal(entered(*OPENING, {"seat": 1, "win": "F", "hand": "234s567s789s99pFB"})))
    fed = (*OPENING, {"seat": 1, "discard": "9p"}, {"seat": 2, "draw": None}, {"seat": 2, "discard": "F"})
    assert "屁胡" in str(refusal(entered(*fed, {"seat": 1, "win": "F", "hand": "234s567s789s99pFF"})))
    done = replay_seat_json(entered(*fed, {"seat": 1, "win": "F", "hand": "222s555s888s99pFF"}))
    assert done.result == "discard" and done.money_known and done.next_dealer == 1
    assert done.settlement.nets[2] < 0 and done.settlement.nets[0] == 0


def test_a_win_whose_tiles_were_not_shown_ends_the_hand_with_its_money_unknown():
    fed = (*OPENING, {"seat": 1, "discard": "9p"}, {"seat": 2, "draw": None}, {"seat": 2, "discard": "F"})
    done = replay_seat_json(entered(*fed, {"seat": 1, "win": "F"}))
    assert done.result == "discard" and not done.money_known and done.unseen_wins == ((1, parse_tile("F")),)
    assert done.next_dealer == 1 and done.settlement.nets == (0, 0, 0)
    assert "The hand is over" in str(refusal(entered(*OPENING, {"seat": 1, "win": "F"}, {"seat": 1, "discard": "F"})))


def test_the_wall_runs_out_after_45_draws():
    done = next(d for d in (play(seeded_deal(seed, 0), [CompanionBot() for _ in range(3)]) for seed in range(200)) if d.result == "draw")
    for seat in range(3):
        record = cut(done, seat)
        assert replay_seat(record).result == "draw"
        after = (done.final.turn + 1) % 3
        extra = {"seat": after, "draw": "1p" if after == seat else None}
        with pytest.raises(RecordError) as refused:
            replay_seat_json({**record.to_json(), "actions": [*record.to_json()["actions"], extra]})
        assert refused.value.action == len(record.actions)
        assert "all 45 tiles" in str(refused.value) or "fifth" in str(refused.value)


def test_the_example_of_hand_record_md_replays():
    text = (Path(__file__).resolve().parents[2] / "docs" / "hand-record.md").read_text(encoding="utf-8")
    example = json.loads(text.split('## One seat\'s view: `"seat"`')[1].split("```json")[1].split("```")[0])
    done = replay_seat_json(example)
    assert done.result == "self_draw" and done.money_known and done.next_dealer == 1
    assert view_for(done.states[4], 0).seats[2].waits == {parse_tile("9p"), parse_tile("F")}

"""Entering a hand from one seat: the keys read into a one-seat record, taps, storing it, and its decisions reviewed like a hand played here."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import Player
from kwx import hand_review
from kwx.bots.companion import CompanionBot
from kwx.bots.strong import StrongBot
from kwx.hand.notation import format_counts, parse_tile
from kwx.rules import PRESETS
from kwx.table.seat_record import SeatAction, cut, replay_seat
from kwx.table.selfplay import play as selfplay
from kwx.table.selfplay import seeded_deal
from kwx.table.view import view_for
from play.entry import Entry, compile_entry, entry_text, read_token, tap_token, tokens_of, world_at_deal
from play.entry_selectors import entry_view
from play.entry_services import enter_hand
from play.models import Hand

TOWNS = sorted(k for k, p in PRESETS.items() if not p.values.ban_liang)
"""Presets whose declarations the keys write whole (半亮 keeps your own triplets face down, which the keys do not write)."""


def played(seed: int, rules: str, bots: type = CompanionBot):
    return selfplay(seeded_deal(seed, seed % 3), [bots() for _ in range(3)], rules=rules)


def entry_for(done, seat: int = 0) -> Entry:
    record = cut(done, seat)
    return Entry(done.header.rules, record.header.options, record.header.dealer, format_counts(record.header.hands[seat]), entry_text(record), record.header.dice)


def same_but_declared_draws(a, b) -> bool:
    """Two action lists alike, another seat's draw compared without its tile (a declared hand's draw may name it, the keys leave it implied)."""
    plain = lambda acts: [SeatAction(x.seat, "draw") if x.verb == "draw" and x.seat != 0 else x for x in acts]
    return plain(a) == plain(b)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(TOWNS), strong=st.booleans())
def test_a_whole_hand_written_in_keys_reads_back_to_its_one_seat_record(seed, rules, strong):
    done = played(seed, rules, StrongBot if strong else CompanionBot)
    compiled = compile_entry(entry_for(done))
    assert compiled.error is None
    assert same_but_declared_draws(compiled.record.actions, cut(done, 0).actions)
    assert compiled.done.result == done.result and compiled.done.next_dealer == done.next_dealer


def test_a_self_draw_of_the_kind_just_thrown_is_written_with_its_draw_and_read_without_it_where_the_claim_is_refused():
    done = played(1704030810, "shiyan_town")  # 下家 self-draws a 屁胡 on 5p right after you throw a 5p (a 屁胡 may not win on a discard there)
    entry = entry_for(done)
    assert done.result == "self_draw" and entry.moves.endswith("-5p R+ Rh5p=12367p234456sZZ")
    typed = replace(entry, moves=entry.moves.replace(" R+", ""))  # as a person types it: the draw left implied
    for moves in (entry, typed):
        compiled = compile_entry(moves)
        assert compiled.error is None and compiled.done.result == "self_draw"
        assert same_but_declared_draws(compiled.record.actions, cut(done, 0).actions)


def test_the_tile_a_declared_hand_draws_and_keeps_beside_its_kong_is_written():
    done = played(4068320171, "suizhou", StrongBot)  # 上家, declared on 2s with four 8p face up, draws 5p and kongs the 8p
    entry = entry_for(done)
    assert "L+5p Lk8p" in entry.moves
    compiled = compile_entry(entry)
    assert compiled.error is None and compiled.done.result == done.result
    assert same_but_declared_draws(compiled.record.actions, cut(done, 0).actions)
    left_implied = compile_entry(replace(entry, moves=entry.moves.replace("L+5p ", "")))
    assert left_implied.error is not None and left_implied.error.raw == "Lk8p"  # without it the kong would change its waits


def test_a_win_of_the_kind_just_thrown_is_a_win_on_that_discard_where_the_rules_allow_it():
    done = played(0, "standard")  # 下家 wins on your 4p
    entry = entry_for(done)
    assert done.result == "discard" and entry.moves.endswith("-4p Rh4p")
    compiled = compile_entry(entry)
    assert compiled.error is None and compiled.done.result == "discard"
    assert [(a.seat, a.verb) for a in compiled.record.actions[-2:]] == [(0, "discard"), (1, "win")]


def test_keys_in_chinese_and_the_implied_draws():
    entry = Entry("standard", (), 0, "1123p456p789p55pZ", "摸5p 打中\n下打发, 上打9p")
    compiled = compile_entry(entry)
    assert compiled.error is None
    assert [a.as_dict() for a in compiled.record.actions] == [
        {"seat": 0, "draw": "5p"},
        {"seat": 0, "discard": "Z"},
        {"seat": 1, "draw": None},
        {"seat": 1, "discard": "F"},
        {"seat": 2, "draw": None},
        {"seat": 2, "discard": "9p"},
    ]
    assert compiled.token_of == (0, 1, 2, 2, 3, 3)


def test_fourteen_tiles_as_dealer_are_the_hand_and_its_first_draw():
    compiled = compile_entry(Entry("standard", (), 0, "1123p456p789p55pZ3s", "-Z"))
    assert compiled.error is None and compiled.record.actions[0].as_dict() == {"seat": 0, "draw": "3s"}
    with pytest.raises(Exception) as refused:
        compile_entry(Entry("standard", (), 1, "1123p456p789p55pZ3s", ""))
    assert "14" in str(refused.value)


@pytest.mark.parametrize(
    ("moves", "token", "message"),
    [
        ("+5p -Z x5p", 2, '"x5p" is not an action'),
        ("+5p -Z R-F L-9p -3s", 4, "it is your draw first"),
        ("+5p -Z R-F L-9p +3s -3s R-9p!234s", 6, "holds 14 tiles, but 4 are given"),
        ("+5p -", 1, "name the tile"),
        ("+5p -Z R-F L-9p +3s -3s Rh3s L-4s", 7, "The hand is over"),
    ],
)
def test_the_first_fault_names_the_token(moves, token, message):
    compiled = compile_entry(Entry("standard", (), 0, "1123p456p789p55pZ", moves))
    assert compiled.error is not None and compiled.error.token == token and message in str(compiled.error)
    assert len({i for i in compiled.token_of if i >= 0}) == token  # every token before it is read, none after


def test_a_tap_is_the_next_natural_move():
    state = world_at_deal(compile_entry(Entry("standard", (), 1, "1123p456p789p55pZ", "")).record.header)
    assert tap_token(state, parse_tile("F")) == "R-F"  # 下家 deals: its draw is implied
    compiled = compile_entry(Entry("standard", (), 1, "1123p456p789p55pZ", "R-F"))
    assert tap_token(compiled.done.final, parse_tile("9p")) == "L-9p"
    compiled = compile_entry(Entry("standard", (), 1, "1123p456p789p55pZ", "R-F L-9p"))
    assert tap_token(compiled.done.final, parse_tile("3s")) == "+3s"
    compiled = compile_entry(Entry("standard", (), 1, "1123p456p789p55pZ", "R-F L-9p +3s"))
    assert tap_token(compiled.done.final, parse_tile("3s"), declare=True) == "-3s!"
    assert [a.verb for a in read_token("Rp", 0, compile_entry(Entry("standard", (), 1, "1123p456p789p55pZ", "R-F L-1p")).done.final)] == ["pong"]
    assert tokens_of(" +5p,-Z\n R-F ") == ("+5p", "-Z", "R-F")


def test_the_page_model_names_the_fault_and_counts_what_is_left():
    compiled = compile_entry(Entry("standard", (), 0, "1123p456p789p55pZ", "+5p -Z R-1p L-1p +1p"))
    with translation.override("en"):
        shown = entry_view(None, compiled)
    assert shown["fault"].startswith("Move 5 (+1p):") and not shown["savable"]
    assert next(p["left"] for p in shown["palette"] if p["tile"] == "1p") == 0


@pytest.mark.django_db
def test_an_entered_hand_is_stored_and_its_decisions_are_the_seat_s_own(django_capture_on_commit_callbacks):
    done = played(11, "xiaogan")
    compiled = compile_entry(entry_for(done))
    player = Player.objects.create()
    with django_capture_on_commit_callbacks(execute=False):
        hand = enter_hand(player=player, record=compiled.record, done=compiled.done)
    hand.refresh_from_db()
    assert hand.source == Hand.UPLOAD and hand.review_state == Hand.QUEUED and hand.over == (done.result is not None)
    assert hand.record == compiled.record.to_json()
    if compiled.done.money_known:
        assert hand.nets == list(done.settlement.nets)
    full = [(p.step, view_for(p.state, 0).decision) for p in hand_review.decision_points(done.record, 0)]
    entered = [(p.step, view_for(p.state, 0).decision) for p in hand_review.decision_points(hand.kwx_record, 0)]
    assert entered == full and entered
    point = hand_review.decision_points(hand.kwx_record, 0)[0]
    figures = hand_review.review_point(hand_review.Reviewed.from_json(hand.record), 0, point, hand_review.Method("basic", 20))
    truth = hand_review.review_decision(
        view_for(done.states[point.step], 0), hand_review.policies("basic"), seed=hand_review.decision_seed(hand_review.Reviewed.from_json(hand.record).key, 0, point.step), work_per_choice=20
    )
    assert [(o["verb"], o["tile"], o["mean"]) for o in figures["options"]] == [(hand_review.choice_key(c.action)["verb"], hand_review.choice_key(c.action)["tile"], c.mean) for c in truth.choices]


def test_a_world_replayed_from_the_seat_view_alone():
    done = played(3, "standard")
    again = replay_seat(cut(done, 2))
    assert [view_for(s, 2).seats[2].river for s in again.states] == [view_for(s, 2).seats[2].river for s in done.states]

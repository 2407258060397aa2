"""The review of a hand: every decision of a seat, what it did beside the advice bot, the cost and the costly marks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import decision_for
from play import review, seats
from play.seats import Choice


def hand(seed: int, dealer: int = 0, bots=None):
    bots = bots or [BasicBot(), StrongBot(), StrongBot()]
    done = play(seeded_deal(seed, dealer), bots)
    return done, done.record.to_json()


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2), seat=st.integers(0, 2))
def test_every_decision_is_one_the_seat_had_and_its_cost_is_the_bots_worth_less_its_own(seed, dealer, seat):
    done, record = hand(seed, dealer)
    figures = review.review_hand(record, seat)
    replayed = seats.replayed(record)
    states, actions = replayed.states, replayed.actions
    for d in figures["decisions"]:
        state = states[d["step"]]
        assert decision_for(state, seat).is_open
        rows = d["options"]
        assert sum(r["mine"] for r in rows) == 1 and sum(r["bot"] for r in rows) == 1
        mine = next(r for r in rows if r["mine"])
        best = next(r for r in rows if r["bot"])
        assert d["cost"] == round(max(0.0, best["worth"] - mine["worth"]), 3)
        assert d["same"] == (mine is best)
        taken = actions[d["step"]]
        if mine["verb"] != "pass":
            assert (taken.seat, taken.verb, taken.tile) == (seat, mine["verb"], mine["tile"])
        else:
            assert taken.seat != seat or taken.verb == "draw"
    costly = [d for d in figures["decisions"] if d["costly"]]
    assert len(costly) <= review.MOST and all(d["cost"] >= review.COSTLY for d in costly)
    others = [d["cost"] for d in figures["decisions"] if not d["costly"]]
    assert all(c <= min(d["cost"] for d in costly) for c in others if costly and c >= review.COSTLY)


def test_the_strong_bot_agrees_with_itself_so_its_own_hand_costs_nothing():
    bot = StrongBot()
    for seed in range(4):
        _done, record = hand(seed, bots=[bot, bot, bot])
        figures = review.review_hand(record, 0, bot)
        assert figures["decisions"] and all(d["same"] and d["cost"] == 0 for d in figures["decisions"])
        assert not any(d["costly"] for d in figures["decisions"])


def test_a_pass_followed_by_the_seats_own_draw_is_a_pass():
    """Seat 1 is next after seat 0: when it passes on seat 0's discard, the next action is its own draw."""
    for seed in range(60):
        _done, record = hand(seed, bots=[BasicBot(), BasicBot(), BasicBot()])
        replayed = seats.replayed(record)
        for step, action in enumerate(replayed.actions):
            state = replayed.states[step]
            if state.phase == "claim" and decision_for(state, 1).is_open and action.seat == 1 and action.verb == "draw":
                d = next(d for d in review.review_hand(record, 1)["decisions"] if d["step"] == step)
                assert d["mine"]["verb"] == "pass"
                return
    raise AssertionError("no such pass in 60 hands")


def test_judge_accepts_a_choice_within_the_costly_margin_of_the_bots():
    figures = {
        "options": [
            {"verb": "discard", "tile": "5p", "liang_dao": False, "worth": 2.0, "bot": True},
            {"verb": "discard", "tile": "1s", "liang_dao": False, "worth": 1.8, "bot": False},
            {"verb": "discard", "tile": "Z", "liang_dao": False, "worth": 1.0, "bot": False},
        ]
    }
    from kwx.hand.tiles import KIND_OF_ID
    from kwx.table.table import Action

    pick = lambda t: Choice(Action(0, "discard", KIND_OF_ID[t]))
    assert review.judge(figures, pick("5p")) and review.judge(figures, pick("1s"))
    assert not review.judge(figures, pick("Z")) and not review.judge(figures, Choice(None))

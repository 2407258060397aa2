"""The review of a hand: every decision of a seat judged by paired rollouts, the cost with its paired ±, costly only when clear."""

from __future__ import annotations

import pytest

from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import decision_for, view_for
from play import review, seats
from play.seats import Choice

WORK = 40
"""Rollout actions per choice: two or three worlds, enough to check the figures' shape and rules."""
METHOD = review.Method("strong", WORK)


def hand(seed: int, dealer: int = 0, bots=None):
    bots = bots or [BasicBot(), StrongBot(), StrongBot()]
    done = play(seeded_deal(seed, dealer), bots)
    return done, done.record.to_json()


class NeverWins:
    """The strong bot, except that it never takes a win: it passes a discard win and discards instead of a self-draw."""

    def __init__(self) -> None:
        self.bot = StrongBot()

    def act(self, view):
        action = self.bot.act(view)
        if action.verb == "win":
            return next(a for a in view.options if a.verb == "discard")
        return action

    def claim(self, view):
        action = self.bot.claim(view)
        return None if action is not None and action.verb == "win" else action


@pytest.mark.parametrize(("seed", "dealer", "seat"), [(1, 0, 0), (2, 1, 1), (3, 2, 2), (4, 0, 1)])
def test_every_decision_is_one_the_seat_had_and_its_cost_is_the_paired_gap_to_the_best(seed, dealer, seat):
    _done, record = hand(seed, dealer)
    figures = review.review_hand(record, seat, METHOD)
    replayed = seats.replayed(record)
    states, actions = replayed.states, replayed.actions
    assert figures["decisions"] and figures["method"] == {"version": 2, "policy": "strong", "work_per_choice": WORK}
    for d in figures["decisions"]:
        state = states[d["step"]]
        assert decision_for(state, seat).is_open
        rows = d["options"]
        assert len(rows) == len(view_for(state, seat).decision.choices)
        assert sum(r["mine"] for r in rows) == 1 and sum(r["best"] for r in rows) == 1
        mine = next(r for r in rows if r["mine"])
        best = next(r for r in rows if r["best"])
        assert best is rows[0] and best["mean"] == max(r["mean"] for r in rows) and best["gap"] == 0
        assert (d["cost"], d["cost_se"]) == (mine["gap"], mine["gap_se"])
        assert d["same"] == (mine is best)
        assert d["costly"] == review.clearly_costly(d["cost"], d["cost_se"]) == mine["clear"]
        for row in rows:
            assert row["gap"] >= 0 and row["gap_se"] >= 0 and row["se"] >= 0
            assert abs(row["gap"] - (best["mean"] - row["mean"])) < 1e-9  # same worlds: the mean of differences is the difference of means
            assert row["clear"] == (row["gap"] >= review.COSTLY_FLOOR and row["gap"] > review.COSTLY_MARGIN * row["gap_se"])
            assert "shanten" in row and isinstance(row["waits"], list)
            if row["shanten"] == 0:
                assert row["waits"] and all(w["left"] >= 0 for w in row["waits"])
        taken = actions[d["step"]]
        if mine["verb"] != "pass":
            assert (taken.seat, taken.verb, taken.tile) == (seat, mine["verb"], mine["tile"])
        else:
            assert taken.seat != seat or taken.verb == "draw"
    costly = [d for d in figures["decisions"] if d["costly"]]
    assert figures["costly"] == len(costly) and abs(figures["costly_cost"] - sum(d["cost"] for d in costly)) < 1e-9


def test_the_same_record_gives_the_same_figures_and_each_step_its_own_worlds():
    _done, record = hand(5)
    points = review.decision_points(record, 0)
    first = review.review_point(record, 0, points[0], METHOD)
    assert review.review_point(record, 0, points[0], METHOD) == first
    seeds = {review.decision_seed(record, 0, p.step) for p in points}
    assert len(seeds) == len(points)
    assert review.decision_seed(record, 1, points[0].step) != review.decision_seed(record, 0, points[0].step)


def test_decisions_worked_out_in_several_processes_give_the_same_figures():
    _done, record = hand(6)
    points = review.decision_points(record, 0)
    assert len(points) >= 3
    inline = list(review.review_points(record, 0, points, METHOD))
    assert [d["step"] for d in inline] == [p.step for p in points]
    pooled = sorted(review.review_points(record, 0, points, METHOD, jobs=2), key=lambda d: d["step"])
    assert pooled == inline
    assert review.review_hand(record, 0, METHOD, jobs=2) == review.summary(0, inline, METHOD)  # the hand's order again


def test_costly_needs_both_several_paired_errors_and_the_floor():
    margin, floor = review.COSTLY_MARGIN, review.COSTLY_FLOOR
    assert review.clearly_costly(floor, floor / (margin + 1))
    assert not review.clearly_costly(floor - 0.01, 0.0)  # clear but too small to matter
    assert not review.clearly_costly(5.0, 5.0 / margin)  # large but within the noise
    assert review.clearly_costly(5.0, 5.0 / margin - 0.01)
    assert not review.clearly_costly(0.0, 0.0)


def test_passing_up_a_discard_win_is_clearly_costly_and_taking_it_is_the_best():
    """A seat that never wins: where it passed a discard win, the rollouts find the win far better, beyond doubt."""
    for seed in range(300):
        done = play(seeded_deal(seed, seed % 3), [NeverWins(), StrongBot(), StrongBot()])
        for step in range(len(done.actions)):
            view = view_for(done.states[step], 0)
            if view.decision.may_pass and any(a.verb == "win" for a in view.decision.options):
                record = done.record.to_json()
                point = next(p for p in review.decision_points(record, 0) if p.step == step)
                figures = review.review_point(record, 0, point, review.Method("strong", 1500))
                assert figures["mine"]["verb"] == "pass" and figures["best"]["verb"] == "win"
                assert figures["costly"] and figures["cost"] > review.COSTLY_MARGIN * figures["cost_se"]
                win = next(r for r in figures["options"] if r["verb"] == "win")
                assert win["best"] and not win["clear"]
                assert review.judge(figures, Choice(win_action(view))) and not review.judge(figures, Choice(None))
                return
    raise AssertionError("no passed-up discard win in 300 hands")


def win_action(view):
    return next(a for a in view.decision.options if a.verb == "win")


def test_a_pass_followed_by_the_seats_own_draw_is_a_pass():
    """Seat 1 is next after seat 0: when it passes on seat 0's discard, the next action is its own draw."""
    for seed in range(60):
        _done, record = hand(seed, bots=[BasicBot(), BasicBot(), BasicBot()])
        replayed = seats.replayed(record)
        for step, action in enumerate(replayed.actions):
            state = replayed.states[step]
            if state.phase == "claim" and decision_for(state, 1).is_open and action.seat == 1 and action.verb == "draw":
                point = next(p for p in review.decision_points(record, 1) if p.step == step)
                assert review.review_point(record, 1, point, METHOD)["mine"]["verb"] == "pass"
                return
    raise AssertionError("no such pass in 60 hands")


def test_judge_accepts_a_choice_unless_it_is_clearly_worse_than_the_best():
    row = lambda tile, clear: {"verb": "discard", "tile": tile, "liang_dao": False, "clear": clear}
    figures = {"options": [row("5p", False), row("1s", False), row("Z", True)]}
    from kwx.hand.tiles import KIND_OF_ID
    from kwx.table.table import Action

    pick = lambda t: Choice(Action(0, "discard", KIND_OF_ID[t]))
    assert review.judge(figures, pick("5p")) and review.judge(figures, pick("1s"))
    assert not review.judge(figures, pick("Z")) and not review.judge(figures, Choice(None))


def test_a_review_gives_way_before_every_rollout_and_its_figures_do_not_change():
    """Issue 37: the review's processes pause while a person's request computes on the host; they look before each rollout."""
    _done, record = hand(5)
    point = review.decision_points(record, 0)[0]
    looks = []
    figures = review.review_point(record, 0, point, METHOD, give_way=lambda: looks.append(1))
    assert figures == review.review_point(record, 0, point, METHOD)
    choices = len(figures["options"])
    assert len(looks) >= figures["worlds"] * choices > 0  # one look per rollout (a last world cut short adds a few)
    assert len(looks) < (figures["worlds"] + 1) * choices

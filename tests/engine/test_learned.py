"""The judge's learned evaluator: its features, its fit, and how it ranks the strong bot's discards."""

from __future__ import annotations

import json
import random
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.bots import fit_judge, learned
from kwx.bots.fit_judge import solve
from kwx.bots.judge import JudgeBot
from kwx.bots.learned import NAMES, ZERO, Learned, Model, features, load_model
from kwx.bots.strong import StrongBot, outlook
from kwx.hand.efficiency import efficiency
from kwx.hand.notation import parse_hand
from kwx.hand.tiles import Hand, with_tile
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import view_for

X = {name: i for i, name in enumerate(NAMES)}


def own_turn(seed: int, after: int = 0):
    """The view of the first own-turn decision, with ``after`` tiles or more drawn, of a hand of strong bots on a seeded deal (14 tiles in hand)."""
    done = play(seeded_deal(seed, seed % 3), [StrongBot(), StrongBot(), StrongBot()])
    acts = [s for s in done.states if s.phase == "act" and not s.wins]
    state = next((s for s in acts if s.drawn >= after), acts[0])
    return view_for(state, state.turn)


def a_view():
    """The dealer's first decision of a seeded deal (nothing revealed)."""
    return own_turn(11)


def featured(text: str, declared: bool = False):
    """The features of a 13-tile hand as the dealer of a seeded deal would see it (danger 0.25, worth 1.5)."""
    view = a_view()
    hand = parse_hand(text)
    assert hand.tile_count == 13
    eff = efficiency(hand, view.seen, view.rules)
    return features(outlook(view), hand, eff, declared, 0.25, 1.5)


def test_a_hand_one_tile_from_ready_carries_its_draws_worth_and_its_class():
    x = featured("123p456p789p1s34sZ")  # three sets, 34条, 1条 and 中: one tile from ready
    assert (x[X["far1"]], x[X["far2"]], x[X["ready_hidden"]], x[X["declared"]]) == (1.0, 0.0, 0.0, 0.0)
    assert x[X["drawn"]] != 0.0  # the ready hands its draws make, priced apart from a typical one
    assert (x[X["dragons"]], x[X["pairs"]], x[X["live"]]) == (1.0, 0.0, 0.0)
    assert (x[X["danger"]], x[X["worth"]]) == (0.25, 1.5)
    far = featured("1p4p7p1s4s7sZFB2p5p8s9s")
    assert far[X["far3"]] == 1.0 and far[X["drawn"]] == 0.0 and far[X["dragons"]] == 3.0


def test_a_ready_hand_counts_its_live_copies_and_no_far_features():
    x = featured("123p456p789p23s55s")  # waits 1条 and 4条
    assert x[X["ready_hidden"]] == 1.0 and x[X["far1"]] == 0.0 and x[X["drawn"]] == 0.0
    assert x[X["pairs"]] == 0.0 and x[X["flush"]] == 0.0  # read only for hands not yet ready
    assert 0 < x[X["live"]] <= 2.0  # at most eight live copies, a quarter each
    assert x[X["pinghu_only"]] == 1.0  # no fan: 屁胡, no discard win while hidden
    declared = featured("123p456p789p23s55s", declared=True)
    assert declared[X["declared"]] == 1.0 and declared[X["ready_hidden"]] == 0.0 and declared[X["pinghu_only"]] == 0.0
    assert declared[X["declared_draws"]] > 0.0
    seven = featured("1133557799p22s4s")  # 七对 waiting on 4条: a discard win is allowed
    assert seven[X["pinghu_only"]] == 0.0


def test_flush_features_count_the_tiles_outside_one_suit():
    assert featured("1112345678p99p1s")[X["near_flush"]] == 1.0
    assert featured("1112345678p99pZ")[X["near_flush"]] == 1.0  # a dragon is outside every suit
    assert featured("11123456899p13s")[X["near_flush"]] == 0.0  # two off
    assert featured("1112334567799p")[X["flush"]] == 1.0
    pairs = featured("1133557p2249sZZ")
    assert pairs[X["pairs"]] == 5.0 and pairs[X["dragons"]] == 2.0


def test_solve_finds_the_coefficients_of_exact_data():
    rng = random.Random(3)
    beta = [0.5, -1.25, 2.0]
    xx = [[0.0] * 3 for _ in range(3)]
    xy = [0.0] * 3
    for _ in range(200):
        x = [rng.uniform(-1, 1) for _ in range(3)]
        y = sum(b * v for b, v in zip(beta, x))
        for i in range(3):
            xy[i] += x[i] * y
            for j in range(3):
                xx[i][j] += x[i] * x[j]
    assert [round(b, 9) for b in solve(xx, xy, ridge=0.0)] == beta
    shrunk = solve(xx, xy, ridge=1e6)
    assert all(abs(b) < abs(t) for b, t in zip(shrunk, beta))


def test_a_zero_model_plays_every_hand_as_the_strong_bot():
    for index in range(3):
        deal = seeded_deal(500 + index, index)
        mine = play(deal, [Learned(ZERO), StrongBot(), Learned(ZERO)])
        theirs = play(deal, [StrongBot(), StrongBot(), StrongBot()])
        assert mine.actions == theirs.actions


def test_the_judge_by_default_is_the_evaluator_and_rolls_nothing_out():
    deal = seeded_deal(77, 1)
    judge = JudgeBot()
    with_judge = play(deal, [judge, StrongBot(), StrongBot()])
    with_evaluator = play(deal, [Learned(), StrongBot(), StrongBot()])
    assert with_judge.actions == with_evaluator.actions
    assert judge.decisions and all(d.kind == "plain" and d.actions == 0 for d in judge.decisions)


def test_the_model_changes_which_discard_is_best():
    view = a_view()
    allowed = frozenset(a.kind for a in view.options if a.verb == "discard")
    scored = StrongBot().discards(view, view.hand, allowed, False)
    assert len(scored) > 2
    for name in ("dragons", "pairs"):
        for sign in (1.0, -1.0):
            model = Model(tuple(sign * 5.0 if n == name else 0.0 for n in NAMES))
            best, _ = Learned(model).judged(view, scored)[0]
            after = Hand(with_tile(view.concealed, best.kind, -1), view.me.melds)
            counted = [featured_of(view, Hand(with_tile(view.concealed, c.kind, -1), view.me.melds))[X[name]] for c in scored[:6]]
            mine = featured_of(view, after)[X[name]]
            assert mine == (max(counted) if sign > 0 else min(counted))


def featured_of(view, after: Hand):
    look = outlook(view)
    return features(look, after, efficiency(after, learned_seen(view, after), view.rules), False, 0.0, 0.0)


def test_the_fit_does_not_depend_on_the_jobs(monkeypatch):
    monkeypatch.setattr(fit_judge, "CHUNK", 2)
    one = fit_judge.fit(4, 9, rounds=2, jobs=1)
    two = fit_judge.fit(4, 9, rounds=2, jobs=2)
    assert one == two
    assert one["meta"]["command"] == "python -m kwx.bots.fit_judge --hands 4 --seed 9 --rounds 2"
    assert set(one["coefficients"]) == set(NAMES) and one["meta"]["samples"] > 0


def test_the_shipped_model_has_every_feature_and_says_how_it_was_made():
    data = json.loads(learned.DATA.read_text(encoding="utf-8"))
    assert set(data["coefficients"]) == set(NAMES)
    assert data["meta"]["command"].startswith("python -m kwx.bots.fit_judge ")
    assert len(load_model().coefficients) == len(NAMES)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.floats(-2, 2), min_size=len(NAMES), max_size=len(NAMES)))
def test_a_corrected_worth_is_the_strong_worth_plus_the_model(seed, coefficients):
    view = own_turn(seed, after=12)
    assert view.phase == "act" and sum(view.concealed) + 3 * len(view.me.melds) == 14
    allowed = frozenset(a.kind for a in view.options if a.verb == "discard")
    scored = StrongBot().discards(view, view.hand, allowed, False)
    model = Model(tuple(coefficients))
    bot = Learned(model)
    ranked = bot.judged(view, scored)
    assert ranked and sorted(c.kind for c, _ in ranked) == sorted(c.kind for c in scored[: bot.top])
    assert [w for _, w in ranked] == sorted((w for _, w in ranked), reverse=True)
    look = outlook(view)
    for c, worth in ranked:
        after = Hand(with_tile(view.concealed, c.kind, -1), view.me.melds)
        chance, cost = look.deal_in(c.kind)
        x = features(look, after, efficiency(after, learned_seen(view, after), view.rules), c.liang_dao, chance * cost, c.worth)
        assert abs(worth - (c.worth + model.correction(x))) < 1e-9


def learned_seen(view, after: Hand):
    """What a discard's 13-tile hand sees: the tiles seen beside the 14-tile hand, the discard among them."""
    visible = view.visible_beside(view.hand)
    return tuple(v + h for v, h in zip(visible, view.hand.held))


def test_the_revealed_features_count_the_opponents_who_declared():
    x = featured("123p456p789p23s55s")  # nobody has declared at the dealer's first turn
    assert (x[X["revealed_ready"]], x[X["revealed_declared"]], x[X["revealed_far"]]) == (0.0, 0.0, 0.0)
    assert x[X["hidden_draws"]] > 0.0  # a hidden ready hand: the draws left, in tens
    assert featured("123p456p789p23s55s", declared=True)[X["hidden_draws"]] == 0.0
    for seed in range(40):
        done = play(seeded_deal(seed, seed % 3), [StrongBot(), StrongBot(), StrongBot()])
        for state in done.states:
            if state.phase != "act" or state.wins:
                continue
            view = view_for(state, state.turn)
            revealed = sum(view.seats[o].liang_dao for o in view.others())
            if not revealed or view.me.liang_dao:
                continue
            bot = Learned(ZERO)
            results = bot.results(view)
            allowed = frozenset(a.kind for a in view.options if a.verb == "discard")
            for choice in bot.discards(view, view.hand, allowed, False):
                x = bot.features_of(view, choice, results)
                part = "revealed_ready" if x[X["ready_hidden"]] else "revealed_far"
                assert x[X[part]] == revealed
            return
    raise AssertionError("no own turn facing a revealed hand in 40 hands")


@lru_cache(maxsize=1)
def pong_views(count: int):
    """The first ``count`` views of claims a strong bot could pong, from hands of strong bots on seeded deals."""
    out = []
    for seed in range(200):
        done = play(seeded_deal(seed, seed % 3), [StrongBot(), StrongBot(), StrongBot()])
        for state in done.states:
            if state.phase != "claim":
                continue
            for seat in range(3):
                view = view_for(state, seat)
                if any(a.verb == "pong" for a in view.options) and not any(a.verb in ("win", "kong") for a in view.options) and not view.me.liang_dao:
                    out.append(view)
                    if len(out) == count:
                        return out
    return out


@settings(max_examples=8, deadline=None)
@given(st.lists(st.floats(-2, 2), min_size=len(NAMES), max_size=len(NAMES)))
def test_a_pong_is_made_when_its_best_corrected_discard_beats_the_corrected_hand_as_it_stands(coefficients):
    model = Model(tuple(coefficients))
    views = pong_views(6)
    assert len(views) == 6
    for view in views:
        bot = Learned(model)
        pong = next(a for a in view.options if a.verb == "pong")
        hand = view.hand.after_pong(pong.kind)
        allowed = frozenset(k for k, n in enumerate(hand.concealed) if n)
        after = bot.judged(view, StrongBot().discards(view, hand, allowed, True), hand)[0][1]
        look = outlook(view)
        eff = efficiency(view.hand, view.seen, view.rules)
        hidden, declared = look.hand_worth(view.hand, eff)
        now = hidden + model.correction(features(look, view.hand, eff, False, 0.0, hidden))
        if declared is not None:
            now = max(now, declared + model.correction(features(look, view.hand, eff, True, 0.0, declared)))
        assert bot.passing(view) == now
        assert bot.claim(view) == (pong if after > now else None)

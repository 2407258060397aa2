"""One decision reviewed on two sets of deals (kwx.table.review): the first selects, the second confirms; figures from the second; the control variate."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from kwx.table import review as reviewing
from kwx.table.advice import CLEAR, mean_se
from kwx.table.review import review_decision, second_seed
from kwx.table.view import view_for
from tests.engine.test_advice import basic_seats, position


@pytest.fixture(autouse=True)
def _verdict_sized_sets(monkeypatch):
    """These tests are about verdicts, which need CLEAR.deals a set: the suite's speed-up (tests/conftest.py: 2) is undone here."""
    monkeypatch.setattr(reviewing, "MIN_DEALS", CLEAR.deals)


def _views(count: int, least: int = 3):
    found = []
    for seed in range(40):
        state = position(seed, seed % 5)
        if state is not None and len(view_for(state, 0).decision.choices) >= least:
            found.append(view_for(state, 0))
        if len(found) == count:
            return found
    raise AssertionError("no positions")


def scripted(monkeypatch, view, seed: int, first: dict[int, float], second: dict[int, float], noise: float = 0.3, predicted=None):
    """Make the review's worlds give choice ``i`` the mean ``first[i]`` on the first set and ``second[i]`` on the second (± ``noise``, the same noise for every choice in a world)."""
    choices = view.decision.choices
    played = {"first": 0, "second": 0}

    def fake(v, picked, world_seed, policy_for, *, progress, base, piao, go_on, control, skip):
        means = first if world_seed == seed else second
        assert world_seed in (seed, second_seed(seed))
        played["first" if world_seed == seed else "second"] += 1
        k, work = skip, 0
        while True:
            shared = random.Random(f"{world_seed}/{k}").uniform(-5, 5)  # the world: every choice shares it
            values = []
            for choice in picked:
                if not go_on(k - skip, work):
                    return
                own = random.Random(f"{world_seed}/{k}/{choices.index(choice)}").uniform(-noise, noise)
                values.append(means[choices.index(choice)] + shared + own)
                work += 10
            pred = tuple(predicted(k, choices.index(c), shared) for c in picked) if predicted and control else ()
            yield tuple(values), pred, 10 * len(picked)
            k += 1

    monkeypatch.setattr(reviewing, "played_worlds", fake)
    return played


def test_a_flag_on_the_first_set_that_the_second_does_not_bear_out_shows_no_verdict(monkeypatch):
    """The first deals put choice 1 far behind choice 0 (selection noise); the second deals find them level: no choice is clearly worse, the best is not named, the decision is not decided."""
    view = _views(1)[0]
    n = len(view.decision.choices)
    first = {i: (3.0 if i == 0 else 0.0) for i in range(n)}
    second = dict.fromkeys(range(n), 0.0)
    scripted(monkeypatch, view, 5, first, second)
    judged = review_decision(view, basic_seats, seed=5, work_per_choice=200, focus=(view.decision.choices[1],))
    assert judged.selected == view.decision.choices[0]
    flagged = [c for c in judged.choices if c.flagged]
    assert len(flagged) == n - 1 and all(c.first_gap > 2 for c in flagged)  # the first set flags every other choice …
    assert not any(c.worse for c in judged.choices)  # … and the second bears none of it out
    assert not judged.named and not judged.decided(view.decision.choices[1]) and not judged.agrees(view.decision.choices[1])
    assert all(abs(c.mean - 0.0) < 1.5 for c in judged.choices)  # every figure is the second set's: level


def test_a_flag_both_sets_bear_out_is_clearly_worse_and_the_best_is_named(monkeypatch):
    view = _views(1)[0]
    choices = view.decision.choices
    n = len(choices)
    means = {i: (2.0 if i == 0 else -1.0) for i in range(n)}
    scripted(monkeypatch, view, 9, means, means)
    mine = choices[1]
    judged = review_decision(view, basic_seats, seed=9, work_per_choice=200, focus=(mine,))
    assert judged.selected == choices[0] and judged.named and judged.level == (choices[0],)
    worse = judged.of(mine)
    assert worse.worse and worse.flagged and CLEAR.clear(worse.gap, worse.gap_se)
    assert judged.decided(mine) and not judged.agrees(mine)
    assert judged.decided(choices[0]) and judged.agrees(choices[0])
    assert math.isclose(worse.gap, 3.0, abs_tol=0.3) and worse.gap_deals >= CLEAR.deals


def test_the_choices_that_matter_get_more_deals_on_the_second_set(monkeypatch):
    view = _views(1, least=4)[0]
    choices = view.decision.choices
    n = len(choices)
    means = {i: (1.0 if i == 0 else 0.0) for i in range(n)}
    played = scripted(monkeypatch, view, 2, means, means)
    judged = review_decision(view, basic_seats, seed=2, work_per_choice=300, focus=(choices[2], choices[3]))
    deals = {c.action: c.deals for c in judged.choices}
    assert played["first"] == 1 and played["second"] == 2  # every choice on the second set, then the focus on more of it
    assert deals[choices[0]] == deals[choices[2]] == deals[choices[3]] > deals[choices[1]] == judged.worlds >= CLEAR.deals


def test_the_control_variate_keeps_the_means_and_cuts_their_error(monkeypatch):
    """Results that a world's prediction mostly explains (what the world holds for all, and for each choice): with the control (its mean taken on worlds apart) the means and gaps stay, their errors shrink."""
    view = _views(1)[0]
    n = len(view.decision.choices)
    means = {i: float(i % 3) for i in range(n)}
    own = lambda k, i: random.Random(f"own/{k}/{i}").uniform(-4, 4)  # what this world holds for this choice
    predict = lambda k, i, shared: shared + own(k, i) + random.Random(f"p/{k}/{i}").uniform(-0.2, 0.2)
    scripted(monkeypatch, view, 4, means, means, noise=0.5, predicted=predict)
    real = reviewing.played_worlds

    def with_own(v, picked, world_seed, policy_for, **kw):
        for k, (values, pred, steps) in enumerate(real(v, picked, world_seed, policy_for, **kw), kw["skip"]):
            yield tuple(x + own(k, view.decision.choices.index(c)) for x, c in zip(values, picked)), pred, steps

    monkeypatch.setattr(reviewing, "played_worlds", with_own)
    monkeypatch.setattr(reviewing, "predicted_means", lambda v, cs, seed, control, worlds, progress: tuple(tuple(predict(10_000 + k, i, 0.0) for k in range(worlds)) for i in range(len(cs))))
    plain = review_decision(view, basic_seats, seed=4, work_per_choice=100)
    controlled = review_decision(view, basic_seats, seed=4, work_per_choice=100, control=lambda world, choice: 0.0)
    assert plain.beta == plain.beta_mean == 0 and 0.7 < controlled.beta <= 1.5 and 0.7 < controlled.beta_mean <= 1.5
    cut = []
    for a, b in zip(sorted(plain.choices, key=lambda c: str(c.action)), sorted(controlled.choices, key=lambda c: str(c.action))):
        assert b.stderr < a.stderr / 2
        if a.action != plain.selected:
            cut.append(b.gap_se / a.gap_se)
        assert abs(b.mean - means[view.decision.choices.index(b.action)]) < 4 * b.stderr + 0.3
    assert statistics.median(cut) < 0.5 and max(cut) < 0.75  # the gaps' errors shrink too (on 8 deals a set, one may shrink less)


def test_on_real_rollouts_the_same_seed_gives_the_same_figures_and_the_sets_are_apart(monkeypatch):
    monkeypatch.setattr(reviewing, "MIN_DEALS", 3)
    view = _views(1)[0]
    first = review_decision(view, basic_seats, seed=3, work_per_choice=60)
    assert first == review_decision(view, basic_seats, seed=3, work_per_choice=60)
    assert {c.action for c in first.choices} == set(view.decision.choices)
    assert first.first_worlds >= 3 and first.worlds >= 3 and second_seed(3) != 3
    for c in first.choices:
        assert c.deals >= first.worlds and c.stderr >= 0 and c.gap_deals >= 1
    selected = first.of(first.selected)
    assert selected.gap == selected.gap_se == 0.0 and not selected.flagged and not selected.worse


def test_controlled_is_the_mean_less_the_prediction_plus_its_known_mean():
    from kwx.table.advice import controlled

    results = [5.0, 7.0, 6.0, 8.0]
    predicted = [1.0, 3.0, 2.0, 4.0]
    mean, se = controlled(results, predicted, 2.5, 0.1)
    assert math.isclose(mean, 4.0 + 2.5) and math.isclose(se, math.sqrt(mean_se([4.0] * 4)[1] ** 2 + 0.01))
    assert statistics.fmean(results) == pytest.approx(mean)

"""One decision reviewed by paired rollouts (kwx.table.review): every choice's figures, the gap to the best and its paired error."""

from __future__ import annotations

import math
import statistics

from kwx.bots.basic import BasicBot
from kwx.table.advice import advise
from kwx.table.review import review_decision
from kwx.table.view import view_for
from tests.engine.test_advice import basic_seats, position


def _views(count: int):
    found = []
    for seed in range(40):
        state = position(seed, seed % 5)
        if state is not None and len(view_for(state, 0).decision.choices) > 2:
            found.append(view_for(state, 0))
        if len(found) == count:
            return found
    raise AssertionError("no positions")


def test_each_choice_has_its_gap_to_the_best_with_the_standard_error_of_the_world_by_world_difference():
    for view in _views(3):
        reviewed = review_decision(view, basic_seats, seed=11, work_per_choice=150, min_worlds=6)
        # the same worlds, played again by the advice machinery itself: the raw results per choice
        advice = advise(view, basic_seats, seed=11, cpu_budget=math.inf, max_worlds=200, min_worlds=6, candidates=view.decision.choices, max_actions=150 * len(view.decision.choices), progress=True)
        results = dict(advice.results)
        best = results[reviewed.best]
        assert reviewed.worlds == advice.worlds >= 2 and {c.action for c in reviewed.choices} == set(view.decision.choices)
        assert reviewed.best == max(results, key=lambda a: statistics.fmean(results[a]))
        unpaired_differs = False
        for choice in reviewed.choices:
            diffs = [b - x for b, x in zip(best, results[choice.action])]
            assert math.isclose(choice.gap, max(0.0, statistics.fmean(diffs)), abs_tol=1e-9)
            assert math.isclose(choice.gap_se, statistics.stdev(diffs) / math.sqrt(len(diffs)), abs_tol=1e-9)
            assert math.isclose(choice.mean, statistics.fmean(results[choice.action]), abs_tol=1e-9)
            assert choice.gap >= 0
            unpaired = math.sqrt(choice.stderr**2 + reviewed.choices[0].stderr ** 2)
            unpaired_differs |= not math.isclose(choice.gap_se, unpaired, abs_tol=1e-6)
        assert reviewed.choices[0].gap == reviewed.choices[0].gap_se == 0.0
        assert unpaired_differs  # the error is the paired one, not the two means' errors combined


def test_the_same_seed_gives_the_same_figures_and_the_budget_is_work_per_choice():
    view = _views(1)[0]
    first = review_decision(view, basic_seats, seed=3, work_per_choice=100, min_worlds=400)
    again = review_decision(view, basic_seats, seed=3, work_per_choice=100, min_worlds=400)
    assert first == again
    choices = len(view.decision.choices)
    # the budget is checked before each rollout once two worlds are complete: it is passed by at most one rollout (under 200 actions)
    assert first.worlds == 2 or first.actions <= 100 * choices + 200
    other = review_decision(view, lambda: [BasicBot()] * 3, seed=4, work_per_choice=100, min_worlds=400)
    assert other != first

"""One decision reviewed by paired rollouts on two independent sets of deals: the first selects, the second confirms.

:func:`review_decision` plays every choice of a seat's view out on the same worlds dealt from
that view (:func:`~kwx.table.advice.played_worlds` with ``progress`` worlds, a work budget and
no CPU ceiling, so a seed gives the same figures on any machine), twice:

1. **the first set** (its own seed) **selects**: the choice with the highest mean is the
   *selected* best, and each choice it beats clearly (:data:`~kwx.table.advice.CLEAR`) is
   *flagged*;
2. **the second set** (another seed, so independent of the first) **confirms**: every choice is
   played on it, and the choices that matter — the seat's own, the policy's own choice, the
   selected best, and all the more when the seat's choice was flagged — on more deals. A
   flagged choice is *clearly worse* only when the second set beats it clearly too, against the
   same selected best.

The best picked on a set leans high on that set, so a flag from the first set alone is selection
noise as often as not; measured on the second set it is not. Every figure the review shows is the
second set's, with the deals it rests on. A **control variate** cuts the variance: each rollout's
result less what a value model predicted from the same world before it was played (for the
review, the judge's own worth of the choice with the world's hidden hands in view), plus that
prediction's mean over many worlds never played out; the coefficient is fitted on the first set
and applied to the second, so the second set's figures stay unbiased.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kwx.numbers import seed_of
from kwx.table.advice import CLEAR, Margin, control_beta, mean_se, played_worlds, predicted_means
from kwx.table.selfplay import Policy
from kwx.table.table import Action, Table
from kwx.table.view import SeatView

SELECT_SHARE = 0.4
"""Share of a decision's work spent on the first set (every choice)."""
CONFIRM_SHARE = 0.35
"""Share spent on the second set for every choice."""
FOCUS_SHARE = 0.25
"""Share spent on more deals of the second set for the choices that matter (the seat's, the policy's, the selected best)."""
FLAGGED_FOCUS = 2.0
"""A decision whose choice the first set flags gets this many times the focus work."""
MIN_DEALS = CLEAR.deals
"""Each set plays every choice on at least this many worlds, whatever the budget: as many as a clear call needs."""
CONTROL_WORLDS = 128
"""Worlds (never played out) over which the control's mean is taken."""
LEVEL_MOST = 2
"""The second set names the best when at most this many choices are not clearly worse (the best and one level with it)."""

Control = Callable[[Table, Action | None], float]
"""A prediction of a choice's result from a world before it is played."""


@dataclass(frozen=True, slots=True)
class ChoiceReviewed:
    """One choice on the confirming set.

    Its mean net money (base stakes) ± standard error over ``deals``, its paired gap to the selected best ± over
    ``gap_deals``, and whether the first set flagged it and both sets find it clearly worse.
    """

    action: Action | None
    mean: float
    stderr: float
    deals: int
    gap: float
    gap_se: float
    gap_deals: int
    flagged: bool
    worse: bool
    first_gap: float = 0.0
    first_gap_se: float = 0.0


@dataclass(frozen=True, slots=True)
class DecisionReviewed:
    """Every choice of a decision on the confirming set (highest mean first), the first set's selected best.

    The worlds of each set and the rollout actions spent.
    """

    choices: tuple[ChoiceReviewed, ...]
    selected: Action | None
    first_worlds: int
    worlds: int
    actions: int
    beta: float = 0.0
    """The control variate's coefficient for the gaps, fitted on the first set's paired differences (0: none)."""
    beta_mean: float = 0.0
    """Its coefficient for the means, fitted on the first set's results."""

    @property
    def best(self) -> Action | None:
        """The first set's selected best (what the second set's gaps are measured against)."""
        return self.selected

    def of(self, action: Action | None) -> ChoiceReviewed:
        """The figures of one choice (KeyError if it was not a choice)."""
        for choice in self.choices:
            if choice.action == action:
                return choice
        raise KeyError(action)

    @property
    def level(self) -> tuple[Action | None, ...]:
        """The choices no set shows clearly worse than the selected best (the best among them), in the confirming set's order."""
        return tuple(c.action for c in self.choices if not c.worse)

    @property
    def named(self) -> bool:
        """Whether the second set names the best: some choice is clearly worse, and at most LEVEL_MOST are not."""
        return len(self.level) <= LEVEL_MOST and len(self.level) < len(self.choices)

    def decided(self, mine: Action | None) -> bool:
        """Whether the seat's choice gets a verdict: it is clearly worse, or the best is named."""
        return self.of(mine).worse or self.named

    def agrees(self, mine: Action | None) -> bool:
        """Whether the seat's choice is confirmed among the best (decided and not clearly worse)."""
        return self.decided(mine) and not self.of(mine).worse


def second_seed(seed: int) -> int:
    """The confirming set's seed: a hash of the first set's, so the two sets of worlds are independent."""
    return seed_of("kwx-review-confirm", seed, bits=64)


def _control_seed(seed: int) -> int:
    return seed_of("kwx-review-control", seed, bits=64)


@dataclass
class _Set:
    """One set's results and predictions, choice by choice.

    A choice may have more worlds than another: its first ones are shared.
    """

    results: list[list[float]]
    predicted: list[list[float]]
    actions: int = 0

    def play(
        self,
        view: SeatView,
        which: Sequence[int],
        choices: Sequence[Action | None],
        seed: int,
        policy_for: Callable[[], Sequence[Policy]],
        budget: float,
        least: int,
        most: int,
        control: Control | None,
        base: int,
        piao: tuple[int, int, int],
    ) -> None:
        """Play the choices ``which`` on more worlds of ``seed`` (from the first they have not played).

        Until ``budget`` actions after ``least`` worlds, or ``most`` worlds.
        """
        start = len(self.results[which[0]])
        spent = 0

        def go_on(worlds: int, work: int) -> bool:
            return start + worlds < most and (worlds < least or work <= budget)

        picked = [choices[i] for i in which]
        for played, predicted, steps in played_worlds(view, picked, seed, policy_for, progress=True, base=base, piao=piao, go_on=go_on, control=control, skip=start):
            for i, value in zip(which, played):
                self.results[i].append(value)
            for i, value in zip(which, predicted):
                self.predicted[i].append(value)
            spent += steps
        self.actions += spent


def _adjusted(values: Sequence[float], predicted: Sequence[float], beta: float) -> list[float]:
    return [v - beta * p for v, p in zip(values, predicted)] if predicted and beta else list(values)


def _mean(s: _Set, i: int, beta: float, means: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Choice ``i``'s mean and standard error on set ``s``, with the control variate."""
    mean, se = mean_se(_adjusted(s.results[i], s.predicted[i], beta))
    if beta and s.predicted[i]:
        return mean + beta * means[i][0], math.sqrt(se**2 + (beta * means[i][1]) ** 2)
    return mean, se


def _gap(s: _Set, a: int, b: int, beta: float, control_diffs: Callable[[int, int], tuple[float, float]]) -> tuple[float, float, int]:
    """Choice ``a``'s result less ``b``'s on the worlds both played (with the control variate): mean, standard error, worlds."""
    n = min(len(s.results[a]), len(s.results[b]))
    if n == 0:
        return 0.0, 0.0, 0
    ra, rb = _adjusted(s.results[a][:n], s.predicted[a][:n], beta), _adjusted(s.results[b][:n], s.predicted[b][:n], beta)
    mean, se = mean_se([x - y for x, y in zip(ra, rb)])
    if beta and s.predicted[a]:
        shift, shift_se = control_diffs(a, b)
        return mean + beta * shift, math.sqrt(se**2 + (beta * shift_se) ** 2), n
    return mean, se, n


def review_decision(
    view: SeatView,
    policy_for: Callable[[], Sequence[Policy]],
    *,
    seed: int,
    work_per_choice: int,
    focus: Sequence[Action | None] = (),
    control: Control | None = None,
    max_worlds: int = 200,
    base: int = 1,
    piao: tuple[int, int, int] = (0, 0, 0),
    margin: Margin = CLEAR,
    costly: Margin | None = None,
) -> DecisionReviewed:
    """Every choice of ``view`` selected on one set of worlds and confirmed on another (see the module docstring).

    The budget is work: ``work_per_choice`` rollout actions for each choice in all, shared out
    between the sets (SELECT_SHARE, CONFIRM_SHARE, FOCUS_SHARE), each set at least MIN_DEALS
    worlds and at most ``max_worlds``. ``focus`` names the choices that get the focus work beside
    the selected best (the seat's own choice first: when the first set flags it by ``costly`` —
    default ``margin`` — the focus work is FLAGGED_FOCUS times more). ``control`` predicts a choice's
    result from a world (the control variate; none by default). ``policy_for`` makes the three
    seats' rollout policies for each world.
    """
    choices = view.decision.choices
    n = len(choices)
    means: list[tuple[float, float]] = [(0.0, 0.0)] * n
    control_values: tuple[tuple[float, ...], ...] = ()
    if control is not None:
        control_values = predicted_means(view, choices, _control_seed(seed), control, CONTROL_WORLDS, progress=True)
        means = [mean_se(v) for v in control_values]

    def control_diffs(a: int, b: int) -> tuple[float, float]:
        return mean_se([x - y for x, y in zip(control_values[a], control_values[b])])

    total = work_per_choice * n
    every = list(range(n))
    first = _Set([[] for _ in choices], [[] for _ in choices])
    first.play(view, every, choices, seed, policy_for, SELECT_SHARE * total, MIN_DEALS, max_worlds, control, base, piao)
    beta = beta_mean = 0.0
    raw_means = [mean_se(r)[0] for r in first.results]
    selected = max(every, key=lambda i: (raw_means[i], -i))
    if control is not None:
        pairs_r = [x - y for i in every if i != selected for x, y in zip(first.results[selected], first.results[i])]
        pairs_p = [x - y for i in every if i != selected for x, y in zip(first.predicted[selected], first.predicted[i])]
        beta = control_beta(pairs_r, pairs_p)
        beta_mean = control_beta([x for r in first.results for x in r], [x for p in first.predicted for x in p])
    first_gaps = {i: _gap(first, selected, i, beta, control_diffs) for i in every if i != selected}
    flagged = {i for i, (g, se, k) in first_gaps.items() if k >= margin.deals and margin.clear(g, se)}

    second = _Set([[] for _ in choices], [[] for _ in choices])
    seed2 = second_seed(seed)
    second.play(view, every, choices, seed2, policy_for, CONFIRM_SHARE * total, MIN_DEALS, max_worlds, control, base, piao)
    wanted = [selected, *(choices.index(a) for a in focus if a in choices)]
    which = list(dict.fromkeys(wanted))
    mine = choices.index(focus[0]) if focus and focus[0] in choices else None
    flag_rule = costly or margin
    mine_flagged = mine is not None and mine in first_gaps and first_gaps[mine][2] >= flag_rule.deals and flag_rule.clear(*first_gaps[mine][:2])
    if len(which) > 1:
        extra = FOCUS_SHARE * total * (FLAGGED_FOCUS if mine_flagged else 1.0)
        second.play(view, which, choices, seed2, policy_for, extra, 0, max_worlds, control, base, piao)
    out = []
    for i in every:
        mean, se = _mean(second, i, beta_mean, means)
        gap, gap_se, gap_deals = (0.0, 0.0, len(second.results[i])) if i == selected else _gap(second, selected, i, beta, control_diffs)
        worse = i in flagged and gap_deals >= margin.deals and margin.clear(gap, gap_se)
        g1, s1, _k = first_gaps.get(i, (0.0, 0.0, 0))
        out.append(ChoiceReviewed(choices[i], mean, se, len(second.results[i]), gap, gap_se, gap_deals, i in flagged, worse, g1, s1))
    out.sort(key=lambda c: (-c.mean, choices.index(c.action)))
    return DecisionReviewed(tuple(out), choices[selected], min(len(r) for r in first.results), min(len(r) for r in second.results), first.actions + second.actions, beta, beta_mean)

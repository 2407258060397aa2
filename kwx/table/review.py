"""One decision reviewed by paired rollouts: every choice's worth, and how far each falls short of the best, world by world.

:func:`review_decision` plays every choice of a seat's view out on the same worlds dealt from
that view (:func:`~kwx.table.advice.advise` with ``progress`` worlds, every choice a candidate,
a work budget and no CPU ceiling, so a seed gives the same figures on any machine). Each
choice gets its mean net money (base stakes) with its standard error, and its **gap**: the best
choice's result minus its own in each world, averaged, with the standard error of that paired
difference — far smaller than the two means' errors, since the worlds are shared. Whether a
gap is clear enough to call a choice a mistake is the caller's rule.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kwx.table.advice import advise
from kwx.table.selfplay import Policy
from kwx.table.table import Action
from kwx.table.view import SeatView


@dataclass(frozen=True, slots=True)
class ChoiceReviewed:
    """One choice: its mean net money for the hand (base stakes) and standard error, and its paired gap to the best choice with that gap's standard error."""

    action: Action | None
    mean: float
    stderr: float
    gap: float
    gap_se: float


@dataclass(frozen=True, slots=True)
class DecisionReviewed:
    """Every choice of a decision, best (highest mean) first, with the worlds and rollout actions spent."""

    choices: tuple[ChoiceReviewed, ...]
    worlds: int
    actions: int

    @property
    def best(self) -> Action | None:
        """The choice with the highest mean."""
        return self.choices[0].action

    def of(self, action: Action | None) -> ChoiceReviewed:
        """The figures of one choice (KeyError if it was not a choice)."""
        for choice in self.choices:
            if choice.action == action:
                return choice
        raise KeyError(action)


def review_decision(
    view: SeatView,
    policy_for: Callable[[], Sequence[Policy]],
    *,
    seed: int,
    work_per_choice: int,
    max_worlds: int = 200,
    min_worlds: int = 16,
    base: int = 1,
    piao: tuple[int, int, int] = (0, 0, 0),
) -> DecisionReviewed:
    """Every choice of ``view`` played out on shared worlds: means, standard errors and paired gaps to the best.

    The budget is work: ``work_per_choice`` rollout actions for each choice (so a decision of
    many choices gets as many worlds as one of few), at most ``max_worlds`` worlds; it stops
    earlier, after ``min_worlds``, once the best choice beats every other by two paired standard
    errors. ``policy_for`` makes the three seats' rollout policies for each world.
    """
    choices = view.decision.choices
    advice = advise(
        view,
        policy_for,
        seed=seed,
        cpu_budget=math.inf,
        max_worlds=max_worlds,
        min_worlds=min_worlds,
        base=base,
        piao=piao,
        candidates=choices,
        max_actions=work_per_choice * len(choices),
        progress=True,
    )
    best = advice.best
    out = []
    for estimate in advice.estimates:
        gap, gap_se = (0.0, 0.0) if estimate.action == best or not advice.worlds else advice.difference(best, estimate.action)
        out.append(ChoiceReviewed(estimate.action, estimate.mean, estimate.stderr, max(0.0, gap), gap_se))
    return DecisionReviewed(tuple(out), advice.worlds, advice.actions)

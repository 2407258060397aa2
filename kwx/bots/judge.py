"""The judge: the strong bot with its discards priced by the learned evaluator, and rollouts on the decision kinds asked for (docs/bots.md).

Every discard of an unlocked hand — which tile, and 亮倒 with it or not — and every 碰 or 过 is
chosen by the strong bot's worth corrected by the model fitted on self-play
(:mod:`kwx.bots.learned`); wins and kongs follow the strong bot's figures. With ``kinds`` (none by default: the tournaments measured no gain
from rollouts on top of the fitted figures, docs/bots.md), on each decision of those kinds
where the figures leave more than one choice close — a
discard (亮倒 or not included: the best discard of the other way is always a candidate), a
kong, a 碰 or passing, a discard against a revealed hand — the judge plays the close
candidates out on worlds consistent with what its seat sees (``advice.advise``: hidden hands
dealt with ``progress``, every later move of every seat by the strong bot), the same worlds
for every candidate, and takes the candidate with the best mean when it beats the evaluator's
choice by more than ``margin`` standard errors of the world-by-world difference. A
decision with one sensible choice (a win, a single legal action, a locked hand, a gap in the
strong bot's figures wider than ``gap``) costs no rollouts.

The budget of a decision is work, not time: at most ``worlds`` worlds and ``work`` rollout
actions (passed by at most one rollout), so a seed gives the same play on any machine;
``cpu_ceiling`` (off by default) only guards a page. ``decisions`` records each decision's
kind, CPU seconds, rollout actions, worlds and whether it switched, for the tournament's report.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from kwx.bots.advised import DecisionCost, view_seed
from kwx.bots.learned import Learned, Model
from kwx.bots.strong import StrongBot
from kwx.table.advice import PASS, Advice, advise
from kwx.table.table import Action
from kwx.table.view import SeatView

ALL_KINDS = frozenset({"discard", "defence", "declare", "kong", "claim"})
"""The decision kinds the judge can roll out: close discards, discards against a revealed hand, 亮倒 or not, kongs, 碰/杠/过."""
KINDS: frozenset[str] = frozenset()
"""The kinds it rolls out by default: none (docs/bots.md, "judge": rollouts of 亮倒, kongs and 碰 on 32 worlds gained nothing measurable over the fitted figures)."""


class JudgeBot:
    """The learned evaluator + paired rollouts on the close decisions of ``kinds`` (see the module docstring)."""

    name = "judge"

    def __init__(
        self,
        model: Model | None = None,
        work: int = 2000,
        worlds: int = 32,
        min_worlds: int = 8,
        candidates: int = 3,
        gap: float = 1.0,
        margin: float = 2.0,
        cpu_ceiling: float = float("inf"),
        kinds: frozenset[str] = KINDS,
    ) -> None:
        self.evaluator = Learned(model)
        self.strong = StrongBot()  # the rollouts' policy: fast
        self.work = work
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.candidates = candidates
        self.gap = gap
        self.margin = margin
        self.cpu_ceiling = cpu_ceiling
        self.kinds = kinds
        self.decisions: list[DecisionCost] = []

    def _play_out(self, kind: str, view: SeatView, prior: Action | None, others: Sequence[Action | None], start: float) -> Action | None:
        """Roll the candidates out and record the decision; the prior, or a candidate clearly better."""
        if not others or kind not in self.kinds:
            self.decisions.append(DecisionCost("plain", time.process_time() - start, 0, 0, False))
            return prior
        advice = advise(
            view,
            lambda: [self.strong, self.strong, self.strong],
            seed=view_seed(view),
            cpu_budget=self.cpu_ceiling,
            max_worlds=self.worlds,
            min_worlds=self.min_worlds,
            candidates=[prior, *others],
            max_actions=self.work,
            progress=True,
        )
        choice = _switch(advice, prior, self.margin)
        self.decisions.append(DecisionCost(kind, time.process_time() - start, advice.actions, advice.worlds, choice != prior))
        return choice

    def act(self, view: SeatView) -> Action:
        """Win when allowed; else the evaluator's pick, or a close candidate the rollouts show to be better."""
        start = time.process_time()
        options = view.options
        for action in options:
            if action.verb == "win":
                return action
        prior = self.evaluator.act(view)
        if not self.kinds or len(options) == 1 or (view.me.liang_dao and not any(a.verb == "kong" for a in options)):
            self._play_out("plain", view, prior, [], start)
            return prior
        seat = view.seat
        allowed = frozenset(a.kind for a in options if a.verb == "discard")
        may_declare = any(a.liang_dao for a in options)
        scored = [] if view.me.liang_dao else self.evaluator.judged(view, self.evaluator.discards(view, view.hand, allowed, may_declare))
        ranked = [(Action(seat, "discard", c.kind, c.liang_dao), worth) for c, worth in scored]
        kongs = [a for a in options if a.verb == "kong"]
        if kongs:
            kind = "kong"
            best_discard = ranked[0][0] if ranked else Action(seat, "discard", view.kind if view.kind is not None else min(allowed))
            pool: list[Action] = [*kongs, best_discard]
        else:
            top = ranked[0][1]
            close = [a for a, w in ranked if top - w <= self.gap]
            pool = close[: self.candidates]
            other_way = next((a for a, _ in ranked if a.liang_dao != prior.liang_dao), None)
            if may_declare and other_way is not None and other_way not in pool:
                pool.append(other_way)
            kind = "declare" if any(a.liang_dao for a in pool) and any(not a.liang_dao for a in pool) else "discard"
            if any(view.seats[o].liang_dao for o in view.others()):
                kind = "defence" if kind == "discard" else kind
        others = [a for a in pool if a != prior]
        choice = self._play_out(kind, view, prior, others, start)
        assert choice is not None, "an own turn never passes"
        return choice

    def claim(self, view: SeatView) -> Action | None:
        """Win when allowed; else 碰, 杠 or 过, rolled out when the strong bot's figures leave them close."""
        start = time.process_time()
        for action in view.options:
            if action.verb == "win":
                return action
        prior = self.evaluator.claim(view)
        if not self.kinds:
            return self._play_out("claim", view, prior, [], start)
        choices: list[Action | None] = [*view.options, PASS]
        worths = {c: self.evaluator.worth_of(view, c) for c in choices}
        top = worths[prior]
        others = [c for c in choices if c != prior and top - worths[c] <= self.gap]
        return self._play_out("claim", view, prior, others, start)


def _switch(advice: Advice, prior: Action | None, margin: float) -> Action | None:
    """The best estimate's choice if it beats the prior by more than ``margin`` paired standard errors, else the prior."""
    best = advice.estimates[0].action
    if best == prior or advice.worlds < 2:
        return prior
    gain, stderr = advice.difference(best, prior)
    return best if gain > margin * stderr and stderr > 0 else prior

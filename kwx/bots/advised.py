"""The advice bot: the strong bot's choice, unless playing the hand out says another is clearly better.

On each contested decision of the kinds it is given — by default **亮倒 now or not** (the
strong bot's discard against the best discard of the other way) and **kongs** (kong or the
best discard; on a discard, kong or pass) — it asks ``advice.advise`` to play the candidates
out on worlds consistent with what its seat sees (hidden hands dealt with ``progress``, every
later move by the strong bot), the same worlds for every candidate. It switches from the strong
bot's choice only when the other candidate beats it, world by world, by more than ``margin``
standard errors and ``min_gain`` points. Other decisions (a win, a single legal action, a locked
hand, and by default pongs, defence and close discards, where rollouts this size measured no
gain: docs/bots.md) are the strong bot's and cost no rollouts; the kinds ``claim``, ``defence``
and ``close`` can be switched on.

The budget of a decision is work, not time: at most ``worlds`` worlds and ``work`` rollout
actions (passed by at most one rollout), so a seed gives the same play on any machine, loaded
or not (``cpu_ceiling``, off by default, only guards a page). ``decisions`` records each
decision's kind, CPU seconds, rollout actions, worlds and whether it switched, for the
tournament's report.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from kwx.bots.strong import StrongBot
from kwx.table.advice import PASS, Advice, advise
from kwx.table.table import Action
from kwx.table.view import SeatView


@dataclass(frozen=True, slots=True)
class DecisionCost:
    """One decision of the advice bot: its kind (``plain`` when no rollouts ran), CPU seconds, rollout actions, worlds and whether it left the strong bot's choice."""

    kind: str
    cpu_seconds: float
    actions: int
    worlds: int
    switched: bool


DEFAULT_KINDS = frozenset({"declare", "kong"})
"""The decisions rolled out by default: where rollouts measured better than the strong bot (docs/bots.md)."""


def view_seed(view: SeatView) -> int:
    """The seed of a decision's rollout worlds, from what the seat sees: the same position gives the same worlds."""
    return zlib.crc32(repr((view.seat, view.drawn, view.phase, view.concealed, [o.river for o in view.seats])).encode())


class AdviceBot:
    """Strong bot + rollouts on its contested decisions (see the module docstring)."""

    name = "advice"

    def __init__(
        self,
        work: int = 4000,
        worlds: int = 40,
        min_worlds: int = 12,
        candidates: int = 2,
        margin: float = 2.0,
        min_gain: float = 0.5,
        kinds: frozenset[str] = DEFAULT_KINDS,
        cpu_ceiling: float = float("inf"),
        progress: bool = True,
    ) -> None:
        self.strong = StrongBot()
        self.work = work
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.candidates = candidates
        self.progress = progress
        self.margin = margin
        self.min_gain = min_gain
        self.kinds = kinds
        self.cpu_ceiling = cpu_ceiling
        self.decisions: list[DecisionCost] = []

    def _rollouts(self, view: SeatView, prior: Action | None, others: Sequence[Action | None]) -> tuple[Action | None, Advice]:
        """The prior, or a candidate the rollouts show to be clearly better; and the advice."""
        advice = advise(
            view,
            lambda: [self.strong, self.strong, self.strong],
            seed=view_seed(view),
            cpu_budget=self.cpu_ceiling,
            max_worlds=self.worlds,
            min_worlds=self.min_worlds,
            candidates=[prior, *others],
            max_actions=self.work,
            progress=self.progress,
        )
        return clearly_better(advice, prior, self.margin, self.min_gain), advice

    def _decide(self, kind: str, view: SeatView, prior: Action | None, others: Sequence[Action | None], start: float) -> Action | None:
        """Roll out a contested decision of an allowed kind and record it; the choice."""
        if kind not in self.kinds or not others:
            self.decisions.append(DecisionCost("plain", time.process_time() - start, 0, 0, False))
            return prior
        choice, advice = self._rollouts(view, prior, others)
        self.decisions.append(DecisionCost(kind, time.process_time() - start, advice.actions, advice.worlds, choice != prior))
        return choice

    def act(self, view: SeatView) -> Action:
        """Win when allowed; else the strong bot's pick, checked by rollouts when it is contested."""
        start = time.process_time()
        options = view.options
        seat = view.seat
        for action in options:
            if action.verb == "win":
                return action
        prior = self.strong.act(view)
        if len(options) == 1 or view.me.liang_dao:
            return prior
        allowed = frozenset(a.kind for a in options if a.verb == "discard")
        may_declare = any(a.liang_dao for a in options)
        ranked: list[Action] = []

        def scored() -> list[Action]:  # the strong bot's discards, best first: worked out only when a kind needs them
            if not ranked:
                ranked.extend(Action(seat, "discard", c.kind, c.liang_dao) for c in self.strong.discards(view, view.hand, allowed, may_declare))
            return ranked

        kongs = [a for a in options if a.verb == "kong" and a != prior]
        kind: str | None = None
        others: list[Action] = []
        if prior.verb == "kong" or kongs:
            kind = "kong"
            others = [*kongs, *([scored()[0]] if prior.verb == "kong" else [])]
        elif may_declare:
            other_way = [a for a in scored() if a.liang_dao != prior.liang_dao]
            if other_way:  # 亮倒 now or not: the best discard of the other way against the strong bot's
                kind, others = "declare", other_way[:1]
        if kind is None:
            kind = "defence" if any(view.seats[o].liang_dao for o in view.others()) else "close"
            others = [a for a in scored() if a != prior] if kind in self.kinds else []
        choice = self._decide(kind, view, prior, others[: self.candidates], start)
        assert choice is not None, "an own turn never passes"
        return choice

    def claim(self, view: SeatView) -> Action | None:
        """Win when allowed; a pong, kong or pass checked by rollouts."""
        start = time.process_time()
        for action in view.options:
            if action.verb == "win":
                return action
        prior = self.strong.claim(view)
        others = [a for a in (*view.options, PASS) if a != prior]
        return self._decide("claim", view, prior, others, start)


def clearly_better(advice: Advice, prior: Action | None, margin: float, min_gain: float = 0.0) -> Action | None:
    """The best estimate's choice if it beats the prior by more than ``margin`` paired standard errors and ``min_gain``, else the prior."""
    best = advice.estimates[0].action
    if best == prior or advice.worlds < 2:
        return prior
    gain, stderr = advice.difference(best, prior)
    return best if gain > margin * stderr and gain > min_gain and stderr > 0 else prior

"""The rollout bot: an evaluator's choice, unless playing the hand out says another is clearly better.

The advice bot and the judge are two settings of it.

An :class:`AdvisedBot` takes its evaluator's choice (the strong bot for the advice bot, the
learned evaluator for the judge, :mod:`kwx.bots.judge`). On each contested decision of the kinds
it is given — **亮倒 now or not** (the evaluator's discard against its best discard of the other
way), **kongs** (kong or the best discard; on a discard, kong or pass), and when switched on
``claim`` (碰, 杠 or 过), ``defence`` (a discard against a revealed hand) and ``close`` (the
evaluator's next best discards) — it asks ``advice.advise`` to play the candidates out on worlds
consistent with what its seat sees (hidden hands dealt with ``progress``, every later move by
the strong bot), the same worlds for every candidate. It switches from the evaluator's choice
only when another candidate beats it by the one margin rule's :data:`~kwx.table.advice.SWITCH`.
Other decisions (a win, a single legal action, a locked hand, a kind not asked for) are the
evaluator's and cost no rollouts.

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
from kwx.table.advice import PASS, SWITCH, Advice, Margin, advise
from kwx.table.table import Action
from kwx.table.view import SeatView


@dataclass(frozen=True, slots=True)
class DecisionCost:
    """One decision of a rollout bot.

    Its kind (``plain`` when no rollouts ran), CPU seconds, rollout actions, worlds and whether it left the
    evaluator's choice.
    """

    kind: str
    cpu_seconds: float
    actions: int
    worlds: int
    switched: bool


ALL_KINDS = frozenset({"declare", "kong", "claim", "defence", "close"})
"""Every decision kind a rollout bot can play out."""
DEFAULT_KINDS = frozenset({"declare", "kong"})
"""The advice bot's: where rollouts measured better than the strong bot (docs/bots.md)."""


def view_seed(view: SeatView) -> int:
    """The seed of a decision's rollout worlds, from what the seat sees: the same position gives the same worlds."""
    return zlib.crc32(repr((view.seat, view.drawn, view.phase, view.concealed, [o.river for o in view.seats])).encode())


class AdvisedBot:
    """An evaluator + rollouts on its contested decisions of ``kinds`` (see the module docstring).

    As it stands, the advice bot.
    """

    name = "advice"
    default_kinds: frozenset[str] = DEFAULT_KINDS
    """The kinds played out when none are given."""

    @staticmethod
    def default_evaluator() -> StrongBot:
        """The evaluator when none is given."""
        return StrongBot()

    def __init__(
        self,
        evaluator: StrongBot | None = None,
        *,
        work: int = 4000,
        worlds: int = 40,
        min_worlds: int = 12,
        candidates: int = 2,
        margin: Margin = SWITCH,
        kinds: frozenset[str] | None = None,
        cpu_ceiling: float = float("inf"),
        progress: bool = True,
    ) -> None:
        self.evaluator = evaluator if evaluator is not None else self.default_evaluator()
        self.strong = StrongBot()  # the rollouts' policy: fast
        self.work = work
        self.worlds = worlds
        self.min_worlds = min_worlds
        self.candidates = candidates
        self.progress = progress
        self.margin = margin
        self.kinds = self.default_kinds if kinds is None else kinds
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
        return clearly_better(advice, prior, self.margin), advice

    def _decide(self, kind: str, view: SeatView, prior: Action | None, others: Sequence[Action | None], start: float) -> Action | None:
        """Roll out a contested decision of an allowed kind and record it; the choice."""
        if kind not in self.kinds or not others:
            self.decisions.append(DecisionCost("plain", time.process_time() - start, 0, 0, False))
            return prior
        choice, advice = self._rollouts(view, prior, others)
        self.decisions.append(DecisionCost(kind, time.process_time() - start, advice.actions, advice.worlds, choice != prior))
        return choice

    def act(self, view: SeatView) -> Action:
        """Win when allowed; else the evaluator's pick, checked by rollouts when it is contested."""
        start = time.process_time()
        options = view.options
        for action in options:
            if action.verb == "win":
                return action
        prior = self.evaluator.act(view)
        if len(options) == 1 or view.me.liang_dao or not self.kinds:
            self.decisions.append(DecisionCost("plain", time.process_time() - start, 0, 0, False))
            return prior
        allowed = frozenset(a.kind for a in options if a.verb == "discard")
        may_declare = any(a.liang_dao for a in options)
        ranked: list[Action] = []

        def scored() -> list[Action]:  # the evaluator's discards, best first: worked out only when a kind needs them
            if not ranked:
                ranked.extend(view.discard(c.kind, c.liang_dao) for c in self.evaluator.discards(view, view.hand, allowed, may_declare))
            return ranked

        kongs = [a for a in options if a.verb == "kong" and a != prior]
        kind: str | None = None
        others: list[Action] = []
        if prior.verb == "kong" or kongs:
            kind = "kong"
            others = [*kongs, *([scored()[0]] if prior.verb == "kong" else [])]
        elif may_declare:
            other_way = [a for a in scored() if a.liang_dao != prior.liang_dao]
            if other_way:  # 亮倒 now or not: the best discard of the other way against the evaluator's
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
        prior = self.evaluator.claim(view)
        others = [a for a in (*view.options, PASS) if a != prior]
        return self._decide("claim", view, prior, others, start)


AdviceBot = AdvisedBot
"""The advice bot: the strong bot with rollouts on 亮倒 and kongs (docs/advice.md)."""


def clearly_better(advice: Advice, prior: Action | None, margin: Margin = SWITCH) -> Action | None:
    """The best estimate's choice if it beats the prior clearly by ``margin``, else the prior."""
    best = advice.estimates[0].action
    if best == prior or advice.worlds < 2:
        return prior
    return best if margin.clear(*advice.difference(best, prior)) else prior

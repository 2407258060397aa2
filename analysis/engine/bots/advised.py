"""The advice bot: the strong bot's choice, unless playing the hand out says another is better.

On each contested decision — several discards the strong bot scores close together, a kong,
a pong, 亮倒 or not — it asks ``advice.advise`` to play the strong bot's few best candidates
out on worlds consistent with what its seat sees (the opponents and every later move played
by the strong bot), and switches from the strong bot's pick only when another candidate beats
it by more than ``margin`` standard errors of the paired difference. Clear decisions (a win, a
single legal action, a strong favourite) cost no rollouts. Deterministic: the worlds are
seeded from the position.
"""
from __future__ import annotations

import zlib

from ..advice import PASS, Advice, advise
from ..table import Action, Table
from .strong import StrongBot


class AdviceBot:
    """Strong bot + rollouts on its close calls (see the module docstring)."""

    name = "advice"

    def __init__(self, cpu_budget: float = 0.25, candidates: int = 3, close: float = 1.5, margin: float = 2.0, max_worlds: int = 60) -> None:
        self.strong = StrongBot()
        self.cpu_budget = cpu_budget
        self.candidates = candidates
        self.close = close
        self.margin = margin
        self.max_worlds = max_worlds

    def _seed(self, state: Table, seat: int) -> int:
        s = state.seats[seat]
        return zlib.crc32(repr((seat, state.drawn, state.phase, s.concealed, [o.river for o in state.seats])).encode())

    def _rollouts(self, state: Table, seat: int, prior: Action | None, others: list[Action | None]) -> Action | None:
        """The prior, or a candidate the rollouts show to be clearly better."""
        advice = advise(
            state, seat, lambda: [self.strong, self.strong, self.strong], seed=self._seed(state, seat),
            cpu_budget=self.cpu_budget, max_worlds=self.max_worlds, min_worlds=12, candidates=[prior, *others],
        )
        return _switch(advice, prior, self.margin)

    def act(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action:
        """Win when allowed; else the strong bot's pick, checked by rollouts when it is close."""
        for action in options:
            if action.verb == "win":
                return action
        prior = self.strong.act(state, seat, options)
        if len(options) == 1 or state.seats[seat].liang_dao:
            return prior
        s = state.seats[seat]
        allowed = frozenset(a.kind for a in options if a.verb == "discard")
        may_declare = any(a.liang_dao for a in options)
        scored = self.strong.discards(state, seat, s.hand, allowed, may_declare)
        rivals = [Action(seat, "discard", c.kind, c.liang_dao) for c in scored[: self.candidates + 1]]
        rivals += [a for a in options if a.verb == "kong"]
        rivals = [a for a in dict.fromkeys(rivals) if a != prior][: self.candidates]
        contested = prior.verb == "kong" or any(a.verb == "kong" for a in rivals) or (
            len(scored) > 1 and scored[0].worth - scored[1].worth < self.close
        )
        if not rivals or not contested:
            return prior
        choice = self._rollouts(state, seat, prior, list(rivals))
        return choice if choice is not None else prior

    def claim(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action | None:
        """Win when allowed; a pong or kong only when the rollouts do not clearly prefer the other answer."""
        for action in options:
            if action.verb == "win":
                return action
        prior = self.strong.claim(state, seat, options)
        others = [a for a in (*options, PASS) if a != prior]
        return self._rollouts(state, seat, prior, others)


def _switch(advice: Advice, prior: Action | None, margin: float) -> Action | None:
    """The best estimate's choice if it beats the prior by more than ``margin`` paired standard errors, else the prior."""
    best = advice.estimates[0].action
    if best == prior or advice.worlds < 2:
        return prior
    gain, stderr = advice.difference(best, prior)
    return best if gain > margin * stderr and stderr > 0 else prior

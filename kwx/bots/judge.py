"""The judge: the rollout bot (:class:`~kwx.bots.advised.AdvisedBot`) over the learned evaluator (docs/bots.md).

Every discard of an unlocked hand — which tile, and 亮倒 with it or not — and every 碰 or 过 is
chosen by the strong bot's worth corrected by the model fitted on self-play
(:mod:`kwx.bots.learned`); wins and kongs follow the strong bot's figures. It plays out no
decision by default (``kinds`` empty: the tournaments measured no gain from rollouts on top of
the fitted figures, docs/bots.md); given kinds it rolls them out as the advice bot does.
"""

from __future__ import annotations

from kwx.bots.advised import ALL_KINDS, AdvisedBot
from kwx.bots.boosted import Boosted
from kwx.bots.learned import Learned
from kwx.bots.strong import StrongBot

__all__ = ["ALL_KINDS", "KINDS", "BoostedJudgeBot", "JudgeBot"]

KINDS: frozenset[str] = frozenset()
"""The kinds it rolls out by default: none (docs/bots.md, "judge": rollouts of 亮倒, kongs and 碰 on 32 worlds gained nothing measurable over the fitted figures)."""


class JudgeBot(AdvisedBot):
    """The rollout bot over the learned evaluator, rolling out the decisions of ``kinds`` (none by default)."""

    name = "judge"
    default_kinds = KINDS

    @staticmethod
    def default_evaluator() -> StrongBot:
        """The learned evaluator (the shipped model)."""
        return Learned()


class BoostedJudgeBot(JudgeBot):
    """The judge with the boosted evaluator (:mod:`kwx.bots.boosted`: regression trees in place of the linear correction)."""

    name = "boosted"

    @staticmethod
    def default_evaluator() -> StrongBot:
        """The boosted evaluator (the shipped trees)."""
        return Boosted()

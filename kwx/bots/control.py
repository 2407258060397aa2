"""The judge's own value of a choice in one whole world, for a review's control variate.

Not a bot: it reads the sampled world's hidden hands (which are ready) to predict what the
review's playouts will say, so the review can subtract that prediction's noise (docs/bots.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from kwx.bots.learned import Learned
from kwx.bots.strong import StrongBot
from kwx.table.table import Action, Table
from kwx.table.view import view_for


def world_control(seat: int, evaluator: StrongBot | None = None) -> Callable[[Table, Action | None], float]:
    """The judge's own value of ``seat``'s choice in one world, for a review's control variate.

    Its worth with the world's ready hidden hands in view, as if they had declared.
    """
    judge = evaluator or Learned()

    def predict(world: Table, choice: Action | None) -> float:
        a, b, c = (replace(s, liang_dao=True, waits=s.ready_on) if other != seat and not s.liang_dao and s.ready_on else s for other, s in enumerate(world.seats))
        worth = judge.worth_of(view_for(replace(world, seats=(a, b, c)), seat), choice)
        return worth if math.isfinite(worth) else 0.0  # a choice the judge never takes (a kong a revealed hand robs) predicts nothing

    return predict

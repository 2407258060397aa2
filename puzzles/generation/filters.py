"""Which simulated positions make good 何切 puzzles.

The accepted answers are exactly the engine's ``best_discards`` (kwx-rules §4). A
position is kept when (the *margin rule*, also in the README):

1. the best shanten after the discard is at most ``MAX_SHANTEN`` (2): close enough to
   ready that the choice matters;
2. at most ``MAX_ACCEPTED`` (2) discards are tied best;
3. at least ``MIN_PLAUSIBLE`` (2) other discards keep that same shanten (plausible
   alternatives, so the answer is a real choice);
4. the runner-up (the best discard that is not accepted) has the same shanten and
   loses clearly: when ready, on value by at least max(4, 20 % of the best value);
   when not ready, on effective tiles by at least max(2, 15 % of the best count);
5. no accepted discard is an isolated tile (a lone dragon, or a suited tile with no
   other tile of its suit within two ranks): "throw the lone dragon" is no puzzle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kwx.hand.efficiency import DiscardOption, best_discards
from kwx.hand.tiles import Counts, is_dragon

MAX_SHANTEN = 2
MAX_ACCEPTED = 2
MIN_PLAUSIBLE = 2
READY_MARGIN = (4, 0.20)
WIDTH_MARGIN = (2, 0.15)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a position was kept: its answers, how many plausible alternatives, the margin."""

    accepted: tuple[int, ...]
    plausible: int
    measure: str
    best: int
    runner_up: int

    @property
    def margin(self) -> int:
        """How much the runner-up loses by, in the measure's units."""
        return self.best - self.runner_up


def measure_of(option: DiscardOption) -> tuple[str, int]:
    """What ranks a discard among equal shanten: value when ready, effective tiles otherwise."""
    if option.result.shanten == 0:
        return "value", option.result.value or 0
    return "ukeire", option.result.ukeire


def clear_margin(measure: str, best: int, runner_up: int) -> bool:
    """Whether the best beats the runner-up by the margin rule (point 4 above)."""
    floor, share = READY_MARGIN if measure == "value" else WIDTH_MARGIN
    return best - runner_up >= max(floor, math.ceil(share * best))


def is_isolated(concealed: Counts, kind: int) -> bool:
    """A single tile with no partner: a lone dragon, or no tile of its suit within two ranks."""
    if concealed[kind] != 1:
        return False
    if is_dragon(kind):
        return True
    start = kind - kind % 9
    return not any(concealed[k] for k in range(max(start, kind - 2), min(start + 9, kind + 3)) if k != kind)


def plausible_alternatives(options: tuple[DiscardOption, ...], accepted: tuple[int, ...]) -> tuple[DiscardOption, ...]:
    """The non-accepted discards that keep the best shanten."""
    best = options[0].result.shanten
    return tuple(o for o in options if o.discard not in accepted and o.result.shanten == best)


def judge(concealed: Counts, options: tuple[DiscardOption, ...]) -> Verdict | None:
    """The verdict on a position's options, or None when it is not a good puzzle."""
    if not options or options[0].result.shanten > MAX_SHANTEN or options[0].result.shanten < 0:
        return None
    accepted = best_discards(options)
    if len(accepted) > MAX_ACCEPTED or any(is_isolated(concealed, k) for k in accepted):
        return None
    others = plausible_alternatives(options, accepted)
    if len(others) < MIN_PLAUSIBLE:
        return None
    measure, best = measure_of(options[0])
    _, runner = measure_of(others[0])
    if not clear_margin(measure, best, runner):
        return None
    return Verdict(accepted, len(others), measure, best, runner)

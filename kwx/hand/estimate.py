"""What one 13-tile hand is worth from here (the value ``ev.py`` computes and a discard option may carry)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Method = Literal["exact", "monte_carlo"]
"""How an estimate was found: the exact programme or Monte Carlo sampling."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """What one 13-tile hand is worth from here: chances, expected score and how they were found."""

    shanten: int
    ready_probability: float
    win_probability: float
    expected_score: float
    method: Method = "exact"
    samples: int | None = None
    ready_stderr: float | None = None
    win_stderr: float | None = None
    score_stderr: float | None = None

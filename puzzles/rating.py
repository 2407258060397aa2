"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013), for players and puzzles alike.

Pure functions on ``Rating`` values. Each answer is one game: the player scores 1
(right) or 0 (wrong) against the puzzle, and the puzzle gets the opposite result
against the player, as Lichess rates its puzzles. Like Lichess, the change one
puzzle can make is capped: a player's rating moves at most ``PLAYER_CAP`` points,
a puzzle's at most ``PUZZLE_CAP`` (puzzles are played by many and should drift
slowly); deviations stay within [``MIN_RD``, ``MAX_RD``].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's conversion factor between the Glicko scale and the internal one."""
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
PUZZLE_RD = 150.0
"""A shipped puzzle's first deviation: its generator estimate is better than nothing."""
DEFAULT_VOLATILITY = 0.06
TAU = 0.5
"""System constant constraining volatility changes (Glickman suggests 0.3–1.2)."""
PLAYER_CAP = 75.0
PUZZLE_CAP = 25.0
MIN_RD, MAX_RD = 45.0, 350.0
CONVERGENCE = 1e-6


@dataclass(frozen=True, slots=True)
class Rating:
    """A Glicko-2 rating on the familiar scale: rating, deviation (RD), volatility (σ)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The player's expected score against an opponent (0–1)."""
    return _e((player.rating - DEFAULT_RATING) / SCALE, (opponent.rating - DEFAULT_RATING) / SCALE, opponent.rd / SCALE)


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the algorithm: the new volatility by the Illinois root-finding method."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period of games ``(opponent, score)``, uncapped."""
    mu, phi = (player.rating - DEFAULT_RATING) / SCALE, player.rd / SCALE
    if not results:
        return Rating(player.rating, math.sqrt(phi * phi + player.volatility**2) * SCALE, player.volatility)
    v_inv = 0.0
    gain = 0.0
    for opponent, score in results:
        mu_j, phi_j = (opponent.rating - DEFAULT_RATING) / SCALE, opponent.rd / SCALE
        g, e = _g(phi_j), _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1 - e)
        gain += g * (score - e)
    v = 1.0 / v_inv
    sigma = _new_volatility(phi, player.volatility, v * gain, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * gain
    return Rating(mu_new * SCALE + DEFAULT_RATING, phi_new * SCALE, sigma)


def capped(before: Rating, after: Rating, cap: float) -> Rating:
    """``after`` with its rating change limited to ±cap and its RD kept within bounds."""
    change = max(-cap, min(cap, after.rating - before.rating))
    return Rating(before.rating + change, max(MIN_RD, min(MAX_RD, after.rd)), after.volatility)


def rate_answer(player: Rating, puzzle: Rating, correct: bool) -> tuple[Rating, Rating]:
    """New (player, puzzle) ratings after one answer, each change capped."""
    score = 1.0 if correct else 0.0
    new_player = capped(player, update(player, [(puzzle, score)]), PLAYER_CAP)
    new_puzzle = capped(puzzle, update(puzzle, [(player, 1.0 - score)]), PUZZLE_CAP)
    return new_player, new_puzzle

"""``python -m kwx.bots.fit_judge``: fit the judge's learned evaluator on self-play of a pool of bots.

The evaluator is :mod:`kwx.bots.learned`.

Each round plays hands of the pool with the strong bot's seats taken by the evaluator (round 0:
no correction, the strong bot's own play; round ``r``: the model of round ``r − 1`` on its
discards, 碰 and 过 by the strong bot's figures), notes the
features of every discard of an unlocked hand and the strong bot's worth of it, and fits the
money the seat made from then on (kong money made before left out), less that worth, on the
features by ridge least squares. The hands depend on their index only and the sums are added
in a fixed order, so ``--jobs`` does not change the file. Not a bot: it reads whole tables
(the money the seat made) after each hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kwx.bots.fit import CHUNK, POOL, SEED_STRIDE, made_from
from kwx.bots.learned import DATA, NAMES, ZERO, Learned, Model
from kwx.bots.strong import Choice, StrongBot
from kwx.processes import in_processes
from kwx.table.record import Replay
from kwx.table.selfplay import Policy, play, seeded_deal
from kwx.table.table import Action
from kwx.table.view import SeatView

RIDGE = 50.0
"""Weight (in samples) pulling every coefficient towards 0 (no correction)."""


class Recorder(Learned):
    """The bot being fitted (the strong bot, or the judge's evaluator with the model of the round before).

    Noting the features of each discard it makes with an unlocked hand and the strong bot's worth of it.
    """

    def __init__(self, model: Model) -> None:
        super().__init__(model=model)
        self.notes: list[tuple[int, int, tuple[float, ...], float]] = []

    def claim(self, view: SeatView) -> Action | None:
        """The strong bot's claim (the fit samples discards; its hands' 碰 and 过 follow the strong bot's figures in every round)."""
        return StrongBot.claim(self, view)

    def act(self, view: SeatView) -> Action:
        """The bot's action, noted when it is a discard of an unlocked hand."""
        action = super().act(view)
        if action.verb == "discard" and not view.me.liang_dao:
            scored = [c for c in self.discards(view, view.hand, frozenset({action.kind}), action.liang_dao) if c.liang_dao == action.liang_dao]
            if scored:
                c = scored[0]
                self.notes.append((view.seat, view.drawn, self.note(view, c), c.worth))
        return action

    def note(self, view: SeatView, choice: Choice) -> tuple[float, ...]:
        """The features noted for the discard made (the linear model's)."""
        return self.features_of(view, choice, self.results(view))


def targets(done: Replay, notes: list[tuple[int, int, tuple[float, ...], float]]) -> list[tuple[tuple[float, ...], float]]:
    """Per noted discard, its features and the money the seat made from then on less the strong bot's worth.

    Kong money made before left out.
    """
    made = made_from(done)
    return [(x, made(seat, drawn) - worth) for seat, drawn, x, worth in notes]


Sums = tuple[list[list[float]], list[float], int]


def _chunk(args: tuple[int, int, int, tuple[str, ...], Model]) -> Sums:
    """The normal equations' sums over hands ``start`` … ``stop − 1``."""
    start, stop, seed, pool, model = args
    from kwx.bots.registry import policy_factory

    k = len(NAMES)
    xx = [[0.0] * k for _ in range(k)]
    xy = [0.0] * k
    n = 0
    recorder = Recorder(model)
    names = sorted({n for lineup in pool for n in lineup.split(",")})
    policies: dict[str, Policy] = {name: recorder if name == "strong" else policy_factory(name)() for name in names}
    for index in range(start, stop):
        lineup = pool[index % len(pool)].split(",")
        done = play(seeded_deal(seed * SEED_STRIDE + index, index % 3), [policies[name] for name in lineup])
        for x, y in targets(done, recorder.notes):
            n += 1
            for i in range(k):
                xy[i] += x[i] * y
                row = xx[i]
                for j in range(k):
                    row[j] += x[i] * x[j]
        recorder.notes.clear()
    return xx, xy, n


def solve(xx: list[list[float]], xy: list[float], ridge: float = RIDGE) -> list[float]:
    """The ridge least-squares coefficients from the normal equations' sums (Gaussian elimination)."""
    k = len(xy)
    a = [[xx[i][j] + (ridge if i == j else 0.0) for j in range(k)] + [xy[i]] for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [v - f * p for v, p in zip(a[r], a[col])]
    return [a[i][k] / a[i][i] for i in range(k)]


def fit_round(hands: int, seed: int, model: Model, pool: Sequence[str] = POOL, jobs: int = 1) -> tuple[Model, int]:
    """The coefficients fitted on ``hands`` hands of the pool on walls of ``seed``.

    The strong bot's seats played by the evaluator with ``model``; and the samples.
    """
    parts = list(in_processes(_chunk, [(i, min(hands, i + CHUNK), seed, tuple(pool), model) for i in range(0, hands, CHUNK)], jobs))
    k = len(NAMES)
    xx = [[sum(p[0][i][j] for p in parts) for j in range(k)] for i in range(k)]
    xy = [sum(p[1][i] for p in parts) for i in range(k)]
    return Model(tuple(round(b, 4) for b in solve(xx, xy))), sum(p[2] for p in parts)


def fit(hands: int, seed: int, rounds: int = 3, pool: Sequence[str] = POOL, jobs: int = 1, log: Any = None) -> dict[str, Any]:
    """The model after ``rounds`` rounds of ``hands`` hands.

    Round 0 on walls of ``seed`` played by the strong bot, round ``r`` on walls of ``seed + r`` by the evaluator
    with round ``r − 1``'s model.
    """
    model, samples = ZERO, 0
    for r in range(rounds):
        model, samples = fit_round(hands, seed + r, model, pool, jobs)
        if log is not None:
            print(f"round {r}: {samples} discards, {dict(zip(NAMES, model.coefficients))}", file=log, flush=True)
    return {
        "coefficients": dict(zip(NAMES, model.coefficients)),
        "meta": {
            "command": f"python -m kwx.bots.fit_judge --hands {hands} --seed {seed} --rounds {rounds}",
            "hands": hands,
            "seed": seed,
            "rounds": rounds,
            "samples": samples,
            "pool": list(pool),
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Fit the judge's evaluator and write it (``--out``, default the shipped file)."""
    parser = argparse.ArgumentParser(prog="python -m kwx.bots.fit_judge", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2410)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (the file does not depend on it)")
    parser.add_argument("--out", default=str(DATA))
    args = parser.parse_args(argv)
    data = fit(args.hands, args.seed, args.rounds, jobs=args.jobs, log=sys.stderr)
    Path(args.out).write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

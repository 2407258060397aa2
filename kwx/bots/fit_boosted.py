"""``python -m kwx.bots.fit_boosted``: fit the boosted evaluator's trees on self-play of the judge's pool, in rounds.

Each round plays hands of the pool the judge's linear model is fitted on (:data:`kwx.bots.fit.POOL`),
the strong bot's seats taken by the bot of the round before (round 0: the judge's evaluator as
shipped; round ``r``: the boosted evaluator with round ``r − 1``'s trees; 碰 and 过 by the judge's
linear correction in every round), and notes the features (:func:`kwx.bots.boosted.features`) of
every discard of an unlocked hand with the money the seat made from then on (kong money made
before left out) less the strong bot's worth. Gradient-boosted trees (LightGBM, deterministic, one
thread order) are fitted on the samples of every round so far (each round's bot
plays the next round); the last 15 % of the samples (the last hands played) are held out to
stop adding trees once they no longer help. The hands depend on their index only, so ``--jobs``
does not change the file. Fitting needs ``requirements-fit.txt`` (NumPy and LightGBM); the bot,
the site and the tests read the trees in pure Python.

``--samples DIR`` keeps each round's samples (exact, in binary) under ``DIR``, named by the round's hands,
seed and the trees that played it, and reads them back when a later fit asks for the same round, so a
refit with other settings replays only the rounds whose players changed. The name does not see the code:
empty ``DIR`` when the bots or the features change.

``--explore`` gives each round a chance per discard that its player throws a random one of the strong bot's ten
best instead (:class:`Explorer`; round 0, the judge's, never explores), so the trees also learn what the choices
they rank below the best are worth (docs/bots.md, "A fourth round that explores").

``--td LAMBDA`` makes each sample's target a λ-return along the seat's noted discards of the hand (:func:`returns`):
the money made up to its next noted discard plus, weighted ``1 − λ``, what the round's player valued that discard at
(the strong bot's worth plus its correction) and, weighted ``λ``, that discard's own return. ``λ = 1`` (the
default) is the money made from then on, as shipped; smaller ones trade the luck of the rest of the hand for the
player's own estimate of it (docs/bots.md, "Targets that bootstrap").

``--from-trees FILE`` has round 0 played by the trees of an earlier fit's file instead of the judge, so a fit can
add rounds to a shipped bot whose trees are fitted on the new rounds' samples alone."""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import random
import shlex
import sys
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kwx.bots import boosted
from kwx.bots.fit import CHUNK, POOL, SEED_STRIDE, made_from
from kwx.bots.fit_judge import Recorder
from kwx.bots.learned import Learned, load_model
from kwx.bots.strong import Choice
from kwx.processes import in_processes
from kwx.table.record import Replay
from kwx.table.selfplay import Policy, play, seeded_deal
from kwx.table.table import Action
from kwx.table.view import SeatView

HELD_OUT = 0.15
"""The share of the samples (the last hands') held out for early stopping."""
PATIENCE = 100
"""Trees added without a better held-out error before the fit stops (and keeps the best number)."""
MAX_TREES = 2000
"""At most this many trees a round (``--max-trees``; the shipped rounds stopped early, at 185, 351 and 486)."""
PARAMS: dict[str, Any] = {
    "objective": "regression",
    "learning_rate": 0.03,
    "num_leaves": 15,
    "min_data_in_leaf": 1000,
    "feature_fraction": 0.9,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "lambda_l2": 10.0,
    "num_threads": 2,
    "deterministic": True,
    "force_row_wise": True,
    "verbose": -1,
}
"""LightGBM's settings (the seed is the fit's)."""
PLAYER_TOP = 6
"""How many of the strong bot's best discards a round's boosted player ranks (the shipped rounds were played so)."""
EXPLORE_TOP = 10
"""An exploring round's player throws a random one of the strong bot's this many best discards (``--explore``)."""
CHECKS = 8
"""Held-out samples stored with LightGBM's own predictions, so a test can check the pure-Python trees against them."""

Sample = tuple[tuple[float, ...], float]
Note = tuple[int, int, tuple[float, ...], float]
"""A noted discard: the seat, the tiles drawn by then, its features and the strong bot's worth."""


class JudgeRecorder(Recorder):
    """The judge's evaluator as shipped, its 碰 and 过 too, noting each discard it makes with an unlocked hand."""

    def __init__(self) -> None:
        super().__init__(load_model())

    def claim(self, view: SeatView) -> Action | None:
        """The judge's claim (its corrected 碰 or 过)."""
        return Learned.claim(self, view)

    def note(self, view: SeatView, choice: Choice) -> tuple[float, ...]:
        """The boosted evaluator's features of the discard made."""
        return boosted.features(self, view, choice, self.results(view))

    def value(self, x: Sequence[float], worth: float) -> float:
        """What this player values a noted discard at: the strong bot's worth plus the linear correction of its features."""
        return worth + self.model.correction(x[: len(self.model.coefficients)])


class BoostedRecorder(JudgeRecorder, boosted.Boosted):
    """The boosted evaluator with the trees of an earlier fit, noting its discards as :class:`JudgeRecorder` does."""

    def __init__(self, trees: boosted.Trees) -> None:
        super().__init__()
        self.trees = trees
        self.top = PLAYER_TOP

    def value(self, x: Sequence[float], worth: float) -> float:
        """What this player values a noted discard at: the strong bot's worth plus its trees."""
        return worth + self.trees.predict(x)


class Explorer(BoostedRecorder):
    """A round's boosted player that, with chance ``rate`` per discard of an unlocked hand (once per seat and hand),
    throws a random one of the strong bot's :data:`EXPLORE_TOP` best instead of its own best.

    The sample of that discard is the one noted; the seat's samples noted earlier in the hand are dropped (the
    money made after them followed a move their player would not make). So the trees learn what the choices they
    rank below the best are worth, not only the ones they pick.
    """

    def __init__(self, trees: boosted.Trees, rate: float, rng: random.Random) -> None:
        super().__init__(trees)
        self.rate = rate
        self.rng = rng
        self.explored: set[int] = set()

    def act(self, view: SeatView) -> Action:
        """The boosted player's action, or now and then a random one of the ten best discards (see the class)."""
        action = super().act(view)
        if action.verb != "discard" or view.me.liang_dao or view.seat in self.explored or self.rng.random() >= self.rate:
            return action
        scored = self.own_discards(view)[:EXPLORE_TOP]
        if len(scored) < 2:
            return action
        choice = self.rng.choice(scored)
        self.explored.add(view.seat)
        self.notes[:] = [n for n in self.notes if n[0] != view.seat]
        self.notes.append((view.seat, view.drawn, self.note(view, choice), choice.worth))
        return view.discard(choice.kind, choice.liang_dao)


def returns(done: Replay, notes: Sequence[Note], value: Callable[[Sequence[float], float], float], lam: float) -> list[Sample]:
    """Per noted discard, its features and its λ-return less the strong bot's worth.

    The return of a seat's last noted discard of the hand is the money it made from then on (kong money made before
    left out); an earlier one's is the money made up to the seat's next noted discard plus ``(1 − λ) ×`` the player's
    ``value`` of that discard plus ``λ ×`` its return. ``λ = 1``: the money made from then on (:func:`kwx.bots.fit_judge.targets`).
    """
    made = made_from(done)
    later: dict[int, tuple[int, float, float]] = {}
    out: list[Sample] = []
    for seat, drawn, x, worth in reversed(notes):
        money = made(seat, drawn)
        back = float(money)
        if seat in later:
            next_money, next_value, next_return = later[seat]
            back = money - next_money + (1 - lam) * next_value + lam * next_return
        later[seat] = (money, value(x, worth) if lam != 1 else 0.0, back)  # λ = 1 weighs the value 0: not asked
        out.append((x, back - worth))
    return out[::-1]


def _chunk(args: tuple[int, int, int, boosted.Trees | None, float, float]) -> list[Sample]:
    """The samples of hands ``start`` … ``stop − 1`` on walls of ``seed``, played by ``player``'s trees (or the judge).

    A boosted player explores at ``rate`` (:class:`Explorer`), its random choices drawn from the chunk's own seed;
    the targets are λ-returns of ``lam`` (:func:`returns`).
    """
    start, stop, seed, player, rate, lam = args
    from kwx.bots.registry import policy_factory

    if player is None:
        recorder: JudgeRecorder = JudgeRecorder()
    else:
        recorder = Explorer(player, rate, random.Random(f"{seed}-{start}")) if rate else BoostedRecorder(player)
    companion = policy_factory("companion")()
    out: list[Sample] = []
    for index in range(start, stop):
        lineup = POOL[index % len(POOL)].split(",")
        policies: list[Policy] = [recorder if name == "strong" else companion for name in lineup]
        if isinstance(recorder, Explorer):
            recorder.explored.clear()
        done = play(seeded_deal(seed * SEED_STRIDE + index, index % 3), policies)
        out.extend(returns(done, recorder.notes, recorder.value, lam))
        recorder.notes.clear()
    return out


def samples(hands: int, seed: int, jobs: int = 1, player: boosted.Trees | None = None, explore: float = 0.0, lam: float = 1.0) -> list[Sample]:
    """Every noted discard of ``hands`` hands of the pool on walls of ``seed``, in hand order.

    ``player``: the trees playing (None: the judge), exploring at ``explore``; targets: λ-returns of ``lam``.
    """
    items = [(i, min(hands, i + CHUNK), seed, player, explore, lam) for i in range(0, hands, CHUNK)]
    return [s for part in in_processes(_chunk, items, jobs) for s in part]


def trees_digest(trees: boosted.Trees) -> str:
    """A short digest of a player's trees (names its rounds' sample files and a fit's starting trees)."""
    return hashlib.sha256(repr(trees.trees).encode()).hexdigest()[:16]


def sample_file(folder: Path, hands: int, seed: int, player: boosted.Trees | None, explore: float = 0.0, lam: float = 1.0) -> Path:
    """Where ``--samples`` keeps the samples of ``hands`` hands on walls of ``seed`` played by ``player`` (None: the judge)."""
    who = "judge" if player is None else trees_digest(player)
    return folder / f"samples-{hands}-{seed}-{who}{f'-explore{explore!r}' if explore else ''}{f'-td{lam!r}' if lam != 1 else ''}.f64"


def kept_samples(folder: Path, hands: int, seed: int, jobs: int = 1, player: boosted.Trees | None = None, explore: float = 0.0, lam: float = 1.0) -> list[Sample]:
    """:func:`samples`, read from ``folder`` when an earlier fit kept them there, else played and kept."""
    path = sample_file(folder, hands, seed, player, explore, lam)
    width = len(boosted.NAMES) + 1
    if path.exists():
        flat = array("d")
        flat.frombytes(path.read_bytes())
        if len(flat) % width:
            raise ValueError(f"{path}: {len(flat)} numbers are not samples of {width}")
        return [(tuple(flat[i : i + width - 1]), flat[i + width - 1]) for i in range(0, len(flat), width)]
    rows = samples(hands, seed, jobs, player, explore, lam)
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".part")
    partial.write_bytes(array("d", (v for x, y in rows for v in (*x, y))).tobytes())
    partial.replace(path)
    return rows


def compact(node: dict[str, Any]) -> Any:
    """A tree of LightGBM's ``dump_model`` as :class:`~kwx.bots.boosted.Trees` reads it (leaf: its value; split: four items)."""
    if "leaf_value" in node:
        return node["leaf_value"]
    if node["decision_type"] != "<=":
        raise ValueError(f"a split of kind {node['decision_type']!r}: only '<=' is read")
    return [node["split_feature"], node["threshold"], compact(node["left_child"]), compact(node["right_child"])]


def train(rows: Sequence[Sample], seed: int, max_trees: int = MAX_TREES) -> dict[str, Any]:
    """The trees fitted on ``rows`` (at most ``max_trees``), with the held-out errors and the check samples."""
    np = importlib.import_module("numpy")
    lgb = importlib.import_module("lightgbm")
    x = np.array([r[0] for r in rows], dtype=float)
    y = np.array([r[1] for r in rows], dtype=float)
    cut = int(len(rows) * (1 - HELD_OUT))
    params = {**PARAMS, "seed": seed}
    booster = lgb.train(
        params,
        lgb.Dataset(x[:cut], y[:cut]),
        max_trees,
        valid_sets=[lgb.Dataset(x[cut:], y[cut:])],
        callbacks=[lgb.early_stopping(PATIENCE, verbose=False)],
    )
    best = booster.best_iteration
    held, truth = x[cut:], y[cut:]
    predicted = booster.predict(held, num_iteration=best)
    linear = load_model()
    lin = np.array([linear.correction(row[: len(linear.coefficients)]) for row in held])
    dump = booster.dump_model(num_iteration=best)
    return {
        "trees": [compact(t["tree_structure"]) for t in dump["tree_info"]],
        "checks": [[list(map(float, held[i])), float(predicted[i])] for i in range(min(CHECKS, len(held)))],
        "held_out": {
            "samples": len(truth),
            "error_none": float(np.mean(truth**2)),
            "error_linear": float(np.mean((truth - lin) ** 2)),
            "error_trees": float(np.mean((truth - predicted) ** 2)),
        },
        "params": params,
        "lightgbm": lgb.__version__,
        "numpy": np.__version__,
    }


def fit(
    hands: Sequence[int],
    seed: int,
    jobs: int = 1,
    log: Any = None,
    keep: Path | None = None,
    max_trees: int = MAX_TREES,
    explore: Sequence[float] = (),
    td: float = 1.0,
    start: tuple[str, boosted.Trees] | None = None,
) -> dict[str, Any]:
    """The trees of the last of ``len(hands)`` rounds, with how they were made.

    Round ``r`` plays ``hands[r]`` hands on walls of ``seed + r``, the judge's seats played by the
    trees of round ``r − 1`` (round 0: the judge's linear evaluator, or ``start``'s trees, named by its file),
    exploring at ``explore[r]`` (:class:`Explorer`; none when not given), and fits new trees on the samples of every
    round so far (the last hands played held out), their targets λ-returns of ``td`` (:func:`returns`; 1: the money
    made from then on). ``keep``: the folder of :func:`kept_samples`.
    """
    rates = tuple(explore) or (0.0,) * len(hands)
    player: boosted.Trees | None = None if start is None else start[1]
    rounds: list[dict[str, Any]] = []
    rows: list[Sample] = []
    data: dict[str, Any] = {}
    for r, (count, rate) in enumerate(zip(hands, rates, strict=True)):
        new = samples(count, seed + r, jobs, player, rate, td) if keep is None else kept_samples(keep, count, seed + r, jobs, player, rate, td)
        rows.extend(new)
        data = train(rows, seed + r, max_trees)
        player = boosted.Trees.from_json(data)
        rounds.append({"hands": count, "seed": seed + r, "samples": len(new), "trees": len(data["trees"]), "held_out": data["held_out"]} | ({"explore": rate} if rate else {}))
        if log is not None:
            print(f"round {r}: {len(new)} discards, {len(data['trees'])} trees, held-out errors {data['held_out']}", file=log, flush=True)
    command = "python -m kwx.bots.fit_boosted --hands " + " ".join(map(str, hands)) + f" --seed {seed}"
    command += f" --max-trees {max_trees}" if max_trees != MAX_TREES else ""
    command += " --explore " + " ".join(f"{rate:g}" for rate in rates) if any(rates) else ""
    command += f" --td {td:g}" if td != 1 else ""
    command += f" --from-trees {shlex.quote(start[0])}" if start is not None else ""
    data["meta"] = (
        {
            "command": command,
            "hands": list(hands),
            "seed": seed,
            "rounds": rounds,
            "pool": list(POOL),
            "features": list(boosted.NAMES),
        }
        | ({"td": td} if td != 1 else {})
        | ({"from_trees": {"file": start[0], "digest": trees_digest(start[1])}} if start is not None else {})
    )
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """Fit the boosted evaluator's trees and write them (``--out``, default the shipped file)."""
    parser = argparse.ArgumentParser(prog="python -m kwx.bots.fit_boosted", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, nargs="+", default=[40000, 60000, 60000], help="hands of each round (round r on walls of seed + r, played by round r − 1's trees)")
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (the file does not depend on it)")
    parser.add_argument("--out", default=str(boosted.DATA))
    parser.add_argument("--samples", type=Path, help="a folder that keeps each round's samples for later fits (see above)")
    parser.add_argument("--max-trees", type=int, default=MAX_TREES, help=f"at most this many trees a round (default {MAX_TREES})")
    parser.add_argument("--explore", type=float, nargs="+", default=[], help="per round, the chance per discard that its player explores (see Explorer; default none)")
    parser.add_argument("--td", type=float, default=1.0, metavar="LAMBDA", help="targets: λ-returns along each seat's discards of a hand (see returns; default 1, the money made from then on)")
    parser.add_argument("--from-trees", type=Path, metavar="FILE", help="round 0 played by the trees of this fit's file instead of the judge (default: the judge)")
    args = parser.parse_args(argv)
    if args.max_trees < 1:
        parser.error(f"--max-trees: {args.max_trees} is not a number of trees (at least 1)")
    if args.explore and len(args.explore) != len(args.hands):
        parser.error(f"--explore: {len(args.explore)} rates for {len(args.hands)} rounds (give one per round of --hands)")
    for r, rate in enumerate(args.explore):
        if not 0 <= rate < 1:
            parser.error(f"--explore: round {r}'s rate {rate:g} is not a chance from 0 up to 1")
        if r == 0 and rate and args.from_trees is None:
            parser.error(f"--explore: round 0's rate {rate:g}: round 0 is played by the judge, which does not explore (give 0)")
    if not 0 <= args.td <= 1:
        parser.error(f"--td: {args.td:g} is not a λ from 0 up to 1")
    start = None
    if args.from_trees is not None:
        try:
            start = (str(args.from_trees), boosted.load_trees(str(args.from_trees)))
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"--from-trees: {args.from_trees} is not a fit's file of trees ({error})")
    data = fit(args.hands, args.seed, jobs=args.jobs, log=sys.stderr, keep=args.samples, max_trees=args.max_trees, explore=args.explore, td=args.td, start=start)
    Path(args.out).write_text(json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m bench.ev``: how long ``evaluate_discards`` takes (issue 9).

Random 14-tile hands from a fixed seed, sorted into classes by the shanten of their
best discard (1-shanten, 2-shanten, 3-shanten), are evaluated with 12 own draws
left. The engine's result caches are cleared before every measured call, so no hand
is answered from a cache of itself; the per-suit tables are warmed up first.
Medians and maxima per class are printed (the figures in docs/performance.md).

``--budget`` instead measures what one web or API request costs under its work budget
(``ev.Budget``): the costliest request the API takes and random deep hands with 30 draws,
through ``analyze()`` as the API calls it, CPU time by ``time.process_time``, warm caches.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from kwx.hand import ev_analysis
from kwx.hand.analysis import analyze
from kwx.hand.efficiency import improving_draws
from kwx.hand.ev import REQUEST_SECONDS, REQUEST_WORK, Budget, evaluate_discards
from kwx.hand.notation import format_counts
from kwx.hand.rules import make_rules
from kwx.hand.scoring import score_win
from kwx.hand.shapes import shanten
from kwx.hand.tiles import COPIES, EMPTY, NUM_KINDS, Counts, Hand, counts_of

WALL = tuple(k for k in range(NUM_KINDS) for _ in range(COPIES))
TARGETS = {1: 0.2, 2: 2.0}
"""Seconds a hand of each class must stay under (issue 9)."""


def best_shanten(counts: Counts) -> int:
    """The lowest shanten any discard of a 14-tile hand leaves."""
    return min(shanten(tuple(c - (k == j) for k, c in enumerate(counts))) for j in range(NUM_KINDS) if counts[j])


def hands_by_class(seed: int, per_class: int, classes: tuple[int, ...]) -> dict[int, list[Counts]]:
    """``per_class`` random 14-tile hands for each shanten class."""
    rng = random.Random(seed)
    found: dict[int, list[Counts]] = {c: [] for c in classes}
    wall = list(WALL)
    while any(len(v) < per_class for v in found.values()):
        rng.shuffle(wall)
        counts = counts_of(wall[:14])
        cls = best_shanten(counts)
        if cls in found and len(found[cls]) < per_class:
            found[cls].append(counts)
    return found


def measure(counts: Counts, draws: int) -> float:
    """Seconds for one cold ``evaluate_discards`` call."""
    improving_draws.cache_clear()
    score_win.cache_clear()
    rules = make_rules("standard")
    start = time.perf_counter()
    evaluate_discards(Hand(counts), EMPTY, rules, draws)
    return time.perf_counter() - start


COSTLIEST = "13579p13579sZFB1p"
"""The request issue 15 found costing 1–3 s of CPU (with ``draws_left=30`` and 亮倒 when ready)."""


class _Recorded(Budget):
    """A budget that remembers itself, so the bench can print the work it counted."""

    last: Budget | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _Recorded.last = self


def request_costs(seed: int, hands: int, rounds: int) -> None:
    """Print CPU time, work units and precision of budgeted EV requests."""
    rng = random.Random(seed)
    wall = list(WALL)
    texts = [COSTLIEST]
    while len(texts) < hands + 1:
        rng.shuffle(wall)
        counts = counts_of(wall[:14])
        if best_shanten(counts) >= 3:
            texts.append(format_counts(counts))
    ev_analysis.Budget = _Recorded
    print(f"EV requests under the budget ({REQUEST_WORK} units, backstop {REQUEST_SECONDS} s CPU), 30 draws, 亮倒 when ready, {rounds} rounds, warm caches")
    print(f"{'hand':<20}{'median ms':>10}{'max ms':>9}{'units':>8}  complete")
    worst = 0.0
    for text in texts:
        times = []
        for _ in range(rounds + 1):
            start = time.process_time()
            body = analyze(text, depth="ev", draws_left=30, liang_dao_when_ready=True)
            times.append(time.process_time() - start)
        times = times[1:]  # the first round warms the hand's caches
        worst = max(worst, *times)
        used = _Recorded.last.used if _Recorded.last else 0
        print(f"{text:<20}{statistics.median(times) * 1000:>10.0f}{max(times) * 1000:>9.0f}{used:>8}  {body['ev_complete']}")
    print(f"slowest request: {worst * 1000:.0f} ms of CPU (limit 500 ms)")


def main() -> None:
    """Print per-class medians and maxima (or, with --budget, the cost of budgeted requests)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hands", type=int, default=20, help="hands per class")
    parser.add_argument("--draws", type=int, default=12)
    parser.add_argument("--verbose", action="store_true", help="print every hand")
    parser.add_argument("--budget", action="store_true", help="the cost of budgeted EV requests instead")
    parser.add_argument("--rounds", type=int, default=5, help="with --budget: rounds per hand")
    args = parser.parse_args()
    if args.budget:
        request_costs(args.seed, min(args.hands, 8), args.rounds)
        return
    warm = hands_by_class(args.seed + 1, 2, (1, 2))
    for group in warm.values():
        for counts in group:
            measure(counts, args.draws)
    classes = hands_by_class(args.seed, args.hands, (1, 2, 3))
    print(f"evaluate_discards, {args.draws} own draws left, seed {args.seed}, {args.hands} hands per class")
    print(f"{'class':<12}{'median ms':>10}{'max ms':>10}{'target ms':>11}")
    for cls, group in classes.items():
        times = []
        for counts in group:
            seconds = measure(counts, args.draws)
            times.append(seconds)
            if args.verbose:
                print(f"  {format_counts(counts)}  {seconds * 1000:.0f} ms")
        target = TARGETS.get(cls)
        print(f"{cls}-shanten".ljust(12) + f"{statistics.median(times) * 1000:>10.0f}{max(times) * 1000:>10.0f}" + (f"{target * 1000:>11.0f}" if target else f"{'-':>11}"))


if __name__ == "__main__":
    main()

"""``python -m analysis.bench_page``: CPU time of ``analyze()`` and of the analyzer page's path, per hand.

The same hands (random 14-tile deals and 13-tile ready hands from a fixed seed) go
through ``analyze()`` (the API body) and through the analyzer page's work short of
rendering: reading the query into a board and building the page's context. CPU time
by ``time.process_time``, whole-hand caches cleared before each call as in
``bench.engine``; the median per hand is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

import django


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kwx_site.settings")
    django.setup()


def _median_us(calls: list[Callable[[], object]], rounds: int) -> float:
    """Median over the calls of each call's median CPU time (µs) over ``rounds`` rounds."""
    from bench.engine import clear_result_caches

    times: list[list[float]] = [[] for _ in calls]
    for _ in range(rounds):
        for i, call in enumerate(calls):
            clear_result_caches()
            t0 = time.process_time_ns()
            call()
            times[i].append((time.process_time_ns() - t0) / 1e3)
    return statistics.median(statistics.median(t) for t in times)


def main(argv: list[str] | None = None) -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    _setup()
    from django.http import QueryDict
    from django.utils import translation

    from analysis.board import read_board
    from analysis.presenter import page_context
    from bench.engine import random_hand, ready_hand
    from kwx import analyze
    from kwx.hand.notation import format_counts

    rng = random.Random(args.seed)
    hands = [format_counts(random_hand(rng, 14)) for _ in range(args.hands)]
    hands += [format_counts(ready_hand(rng)) for _ in range(args.hands)]
    translation.activate("zh-hans")

    def page(text: str) -> Callable[[], object]:
        query = QueryDict("hand=" + text)
        return lambda: page_context(read_board(query), base="/analyze/")

    for text in hands[:50]:  # warm the per-block caches, as a running server has them
        analyze(text)
        page(text)()
    print(f"{len(hands)} hands ({args.hands} of 14 tiles, {args.hands} of 13), seed {args.seed}, {args.rounds} rounds, Python {sys.version.split()[0]}; median CPU µs per hand")
    print(f"{'analyze() (API body)':32} {_median_us([lambda t=t: analyze(t) for t in hands], args.rounds):8.1f}")
    print(f"{'analyzer page (board + context)':32} {_median_us([page(t) for t in hands], args.rounds):8.1f}")


if __name__ == "__main__":
    main()

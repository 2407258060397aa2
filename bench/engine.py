"""``python -m bench.engine``: the engine against the ``mahjong``-package peer.

Both run in one process on the same hands from a fixed seed, alternating hand by
hand; the per-hand medians and their ratios are printed. The engine's suit
table is shipped precomputed; its small per-block caches fill during a warm-up on
other hands from another seed, as they do in a running server; its whole-hand
result caches are cleared before every measured call, so no hand is answered from
a cache of itself.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable

from kwx import analyze
from kwx.hand.efficiency import improving_draws
from kwx.hand.notation import format_counts
from kwx.hand.scoring import score_win
from kwx.hand.shapes import shanten
from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, counts_of

WALL = tuple(k for k in range(NUM_KINDS) for _ in range(COPIES))


def load_peer() -> Callable[[str], object]:
    """The peer's analyze(): ``bench/peer_mahjong.py``, the repository's copy of ../shared/bench/peer_mahjong.py (tests/test_shared_copies.py)."""
    from bench.peer_mahjong import analyze

    return analyze


def random_hand(rng: random.Random, size: int) -> Counts:
    """``size`` tiles dealt from a shuffled wall."""
    wall = list(WALL)
    rng.shuffle(wall)
    return counts_of(wall[:size])


def ready_hand(rng: random.Random) -> Counts:
    """A random 13-tile ready hand: a random complete hand less one tile."""
    while True:
        counts = [0] * NUM_KINDS
        groups = 0
        while groups < 4:
            kind = rng.randrange(NUM_KINDS)
            if rng.random() < 0.6 and kind < 18 and kind % 9 <= 6:
                needed = (kind, kind + 1, kind + 2)
            else:
                needed = (kind, kind, kind)
            if all(counts[k] + needed.count(k) <= COPIES for k in set(needed)):
                for k in needed:
                    counts[k] += 1
                groups += 1
        pair = rng.randrange(NUM_KINDS)
        if counts[pair] + 2 > COPIES:
            continue
        counts[pair] += 2
        drop = rng.choice([k for k in range(NUM_KINDS) if counts[k]])
        counts[drop] -= 1
        if shanten(tuple(counts)) == 0:
            return tuple(counts)


def clear_result_caches() -> None:
    """Forget whole-hand results (the per-suit tables stay, as lookup tables do)."""
    improving_draws.cache_clear()
    score_win.cache_clear()


def _time_engine(hand: str) -> float:
    clear_result_caches()
    t0 = time.perf_counter()
    analyze(hand)
    return time.perf_counter() - t0


def _time_peer(peer: Callable[[str], object], hand: str) -> float:
    t0 = time.perf_counter()
    peer(hand)
    return time.perf_counter() - t0


def interleaved(hands: list[str], peer: Callable[[str], object]) -> tuple[float, float]:
    """Median seconds per hand, engine and peer taking turns hand by hand."""
    engine_times, peer_times = [], []
    gc.disable()
    try:
        for hand in hands:
            engine_times.append(_time_engine(hand))
            peer_times.append(_time_peer(peer, hand))
    finally:
        gc.enable()
    return statistics.median(engine_times), statistics.median(peer_times)


def in_rounds(hands: list[str], peer: Callable[[str], object], rounds: int) -> tuple[float, float]:
    """Median over hands of each hand's median time, engine and peer taking turns round by round."""
    engine_times: list[list[float]] = [[] for _ in hands]
    peer_times: list[list[float]] = [[] for _ in hands]
    gc.disable()
    try:
        for _ in range(rounds):
            for i, hand in enumerate(hands):
                engine_times[i].append(_time_engine(hand))
            for i, hand in enumerate(hands):
                peer_times[i].append(_time_peer(peer, hand))
    finally:
        gc.enable()
    return (
        statistics.median(statistics.median(t) for t in engine_times),
        statistics.median(statistics.median(t) for t in peer_times),
    )


def main(argv: list[str] | None = None) -> None:
    """Print the benchmark figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--warmup", type=int, default=2000, help="hands from another seed analysed first")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the round-by-round alternation")
    args = parser.parse_args(argv)
    peer = load_peer()
    warm = random.Random(args.seed + 1)
    for _ in range(args.warmup):
        analyze(format_counts(random_hand(warm, 14)))
        analyze(format_counts(ready_hand(warm)))
    rng = random.Random(args.seed)
    suites = {
        "14 tiles, random deals": [format_counts(random_hand(rng, 14)) for _ in range(args.hands)],
        "13 tiles, ready hands": [format_counts(ready_hand(rng)) for _ in range(args.hands)],
        "14 tiles, ready + 1 draw": [format_counts(_plus_one(rng, ready_hand(rng))) for _ in range(args.hands)],
    }
    print(f"{args.hands} hands per suite, seed {args.seed}, warm-up {args.warmup} other hands, Python {sys.version.split()[0]}")
    print("median ms per hand; ratio = peer / engine")
    print(f"{'suite':28} {'alternation':12} {'engine ms':>10} {'peer ms':>10} {'ratio':>7}")
    for name, hands in suites.items():
        for label, (engine, other) in (
            (f"{args.rounds} rounds", in_rounds(hands, peer, args.rounds)),
            ("hand by hand", interleaved(hands, peer)),
        ):
            print(f"{name:28} {label:12} {engine * 1e3:10.3f} {other * 1e3:10.3f} {other / engine:6.1f}×")


def _plus_one(rng: random.Random, counts: Counts) -> Counts:
    kind = rng.choice([k for k in range(NUM_KINDS) if counts[k] < COPIES])
    return tuple(n + (k == kind) for k, n in enumerate(counts))


if __name__ == "__main__":
    main()

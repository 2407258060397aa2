"""Random hands from the 84-tile wall, for the analyzer's "random hand" button.

A uniformly dealt 13-tile hand is usually three or four tiles from ready, which
teaches little. ``practice_hand`` therefore starts from a random *winning*
hand and spoils it by a few random exchanges with the wall: a 13-tile hand is
ready in about two cases of five and at most two exchanges (shanten ≤ 2) from
ready otherwise; a 14-tile hand is one or two exchanges from complete, so its
discard table has real choices. Every function takes the ``random.Random`` to
draw with, so a seeded generator gives the same hand again.
"""

from __future__ import annotations

import random

from kwx.hand.shapes import is_complete
from kwx.hand.tiles import COPIES, EMPTY, NUM_KINDS, Counts, counts_of, kinds_of, with_tile

WALL: Counts = (COPIES,) * NUM_KINDS
"""The full wall: four copies of each of the 21 kinds."""
SEVEN_PAIRS_SHARE = 0.125
"""How often ``complete_hand`` deals seven pairs instead of four sets and a pair."""
RUN_SHARE = 0.6
"""How often a set of ``complete_hand`` is a run (when one fits) rather than a triplet."""
EXCHANGES_13 = ((0, 2), (1, 2), (2, 1))
"""(exchanges, weight) for a 13-tile practice hand: ready in 2 cases of 5."""
EXCHANGES_14 = ((1, 3), (2, 2))
"""(exchanges, weight) for a 14-tile practice hand (one that came out complete gets one more)."""


def left_in_wall(taken: Counts) -> Counts:
    """Copies of each kind not in ``taken`` (never below 0)."""
    return tuple(max(0, COPIES - n) for n in taken)


def draw(rng: random.Random, pool: Counts, n: int) -> Counts:
    """``n`` tiles drawn without replacement from ``pool`` (counts), uniformly."""
    return counts_of(rng.sample(kinds_of(pool), n))


def random_hand(rng: random.Random, size: int = 13, taken: Counts = EMPTY) -> Counts:
    """A uniformly dealt hand of ``size`` tiles from the wall minus ``taken`` (ValueError if too few are left)."""
    return draw(rng, left_in_wall(taken), size)


def complete_hand(rng: random.Random, taken: Counts = EMPTY, attempts: int = 200) -> Counts | None:
    """A random winning 14-tile hand (four sets and a pair, or seven pairs) from the wall minus ``taken``.

    None when ``attempts`` tries found none (only when ``taken`` has emptied most of the wall).
    """
    for _ in range(attempts):
        hand = _seven_pairs(rng, taken) if rng.random() < SEVEN_PAIRS_SHARE else _sets_and_pair(rng, taken)
        if hand is not None:
            return hand
    return None


def practice_hand(rng: random.Random, size: int = 13, taken: Counts = EMPTY) -> Counts:
    """A hand of 13 or 14 tiles a few exchanges from a win (see the module text); uniform if the wall is too bare."""
    if size not in (13, 14):
        raise ValueError("a practice hand has 13 or 14 tiles")
    hand = complete_hand(rng, taken)
    if hand is None:
        return random_hand(rng, size, taken)
    if size == 13:
        hand = with_tile(hand, rng.choice(kinds_of(hand)), -1)
    table = EXCHANGES_13 if size == 13 else EXCHANGES_14
    exchanges = rng.choices([n for n, _ in table], weights=[w for _, w in table])[0]
    for _ in range(exchanges):
        hand = exchange(rng, hand, taken)
    for _ in range(10):
        if size == 13 or not is_complete(hand):
            break
        hand = exchange(rng, hand, taken)
    return hand


def exchange(rng: random.Random, hand: Counts, taken: Counts = EMPTY) -> Counts:
    """``hand`` with one random tile put back and a different kind drawn from the wall in its place."""
    out = rng.choice(kinds_of(hand))
    pool = list(left_in_wall(tuple(h + t for h, t in zip(hand, taken))))
    pool[out] = 0
    if not any(pool):
        return hand
    return with_tile(with_tile(hand, out, -1), rng.choice(kinds_of(tuple(pool))))


def _sets_and_pair(rng: random.Random, taken: Counts) -> Counts | None:
    """Four random sets and a pair, or None when the wall minus ``taken`` ran short."""
    left = list(left_in_wall(taken))
    chosen: list[int] = []

    def take(kinds: tuple[int, ...]) -> bool:
        need = counts_of(list(kinds))
        if any(need[k] > left[k] for k in range(NUM_KINDS)):
            return False
        for k in kinds:
            left[k] -= 1
        chosen.extend(kinds)
        return True

    pairs = [k for k in range(NUM_KINDS) if left[k] >= 2]
    if not pairs or not take((rng.choice(pairs),) * 2):
        return None
    for _ in range(4):
        for _attempt in range(20):
            kind = rng.randrange(NUM_KINDS)
            if kind < 18 and kind % 9 <= 6 and rng.random() < RUN_SHARE:
                if take((kind, kind + 1, kind + 2)):
                    break
            elif take((kind,) * 3):
                break
        else:
            return None
    return counts_of(chosen)


def _seven_pairs(rng: random.Random, taken: Counts) -> Counts | None:
    """Seven random pairs (a kind may give two, making a four), or None when the wall ran short."""
    pairs = [k for k in range(NUM_KINDS) for _ in range(left_in_wall(taken)[k] // 2)]
    if len(pairs) < 7:
        return None
    return counts_of([k for k in rng.sample(pairs, 7) for _ in range(2)])

"""Shapes: shanten by the classic formula, and the readings of a complete hand.

Shanten (kwx-rules §4) is ``8 − 2·sets − partial sets − pair`` with
``concealed sets + partial sets ≤ 4 − melds``, or for seven pairs ``6 − pairs``
where a four of a kind is two pairs. A hand splits into three independent
blocks (筒, 条, dragons); each block's best contribution for every budget of
sets-plus-partials is computed once per block content and cached, so the
shanten of a hand, and of every hand one tile away from it, is a handful of
additions. Readings (§2) are the ways a complete hand splits into sets and a
pair, also found block by block.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Literal

from .tiles import Counts, Hand, MeldType, NUM_KINDS

Vector = tuple[int, ...]
"""A block's best ``2·sets + partials (+1 for a pair)`` for budgets 0..4."""
BlockValue = tuple[Vector, Vector]
"""(without the pair, with the pair) vectors of one block."""

_NONE = -99
_BUDGETS = range(5)
BLOCKS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 18, True), (18, 21, False))
"""(start, stop, runs allowed) of the 筒, 条 and dragon blocks."""


def block_of(kind: int) -> int:
    """Which block (0 筒, 1 条, 2 dragons) a kind belongs to."""
    return 0 if kind < 9 else 1 if kind < 18 else 2


def _take(cs: tuple[int, ...], *indices: int) -> tuple[int, ...]:
    lst = list(cs)
    for i in indices:
        lst[i] -= 1
    return tuple(lst)


def _pareto(states: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    capped = {(m, min(t, 4), p) for m, t, p in states}
    return tuple(
        s for s in capped
        if not any(o != s and o[0] >= s[0] and o[1] >= s[1] and o[2] >= s[2] for o in capped)
    )


@lru_cache(maxsize=None)
def _partial_states(cs: tuple[int, ...], runs: bool) -> tuple[tuple[int, int, int], ...]:
    """Undominated (sets, partial sets, pair) triples a block's tiles can be split into."""
    i = next((j for j, c in enumerate(cs) if c), None)
    if i is None:
        return ((0, 0, 0),)
    n = len(cs)
    out: set[tuple[int, int, int]] = set(_partial_states(_take(cs, i), runs))  # tile i left alone
    if cs[i] >= 2:
        for m, t, p in _partial_states(_take(cs, i, i), runs):
            out.add((m, t + 1, p))
            if not p:
                out.add((m, t, 1))
        if cs[i] >= 3:
            out.update((m + 1, t, p) for m, t, p in _partial_states(_take(cs, i, i, i), runs))
    if runs and i + 1 < n and cs[i + 1]:
        out.update((m, t + 1, p) for m, t, p in _partial_states(_take(cs, i, i + 1), runs))
        if i + 2 < n and cs[i + 2]:
            out.update((m + 1, t, p) for m, t, p in _partial_states(_take(cs, i, i + 1, i + 2), runs))
    if runs and i + 2 < n and cs[i + 2]:
        out.update((m, t + 1, p) for m, t, p in _partial_states(_take(cs, i, i + 2), runs))
    return _pareto(out)


def _budget_value(m: int, t: int, budget: int) -> int:
    sets = min(m, budget)
    return 2 * sets + min(t, budget - sets)


@lru_cache(maxsize=None)
def block_value(cs: tuple[int, ...], runs: bool) -> BlockValue:
    """The best contribution of one block's tiles for each budget, without and with the pair."""
    without = [_NONE] * 5
    with_pair = [_NONE] * 5
    for m, t, p in _partial_states(cs, runs):
        target = with_pair if p else without
        for b in _BUDGETS:
            target[b] = max(target[b], _budget_value(m, t, b) + p)
    return tuple(without), tuple(with_pair)


def merge(a: BlockValue, b: BlockValue) -> BlockValue:
    """The best contribution of two blocks together, for each budget."""
    a0, a1 = a
    b0, b1 = b
    c0 = tuple(max(a0[i] + b0[n - i] for i in range(n + 1)) for n in _BUDGETS)
    c1 = tuple(max(max(a1[i] + b0[n - i], a0[i] + b1[n - i]) for i in range(n + 1)) for n in _BUDGETS)
    return c0, c1


def best_with(block: BlockValue, rest: BlockValue, budget: int) -> int:
    """The best total of one block and the merged other blocks within ``budget``."""
    a0, a1 = block
    r0, r1 = rest
    best = _NONE
    for i in range(budget + 1):
        j = budget - i
        v = a0[i] + (r0[j] if r0[j] > r1[j] else r1[j])
        if v > best:
            best = v
        v = a1[i] + r0[j]
        if v > best:
            best = v
    return best


def block_values(counts: Counts) -> tuple[BlockValue, BlockValue, BlockValue]:
    """The three block values of a counts vector."""
    return (
        block_value(counts[0:9], True),
        block_value(counts[9:18], True),
        block_value(counts[18:21], False),
    )


def standard_shanten(counts: Counts, melds: int = 0) -> int:
    """Shanten toward four sets and a pair, with ``melds`` sets already declared."""
    p, s, d = block_values(counts)
    return 8 - 2 * melds - best_with(p, merge(s, d), 4 - melds)


def seven_pairs_shanten(counts: Counts) -> int:
    """Shanten toward seven pairs, a four of a kind counting as two pairs."""
    return 6 - sum(c // 2 for c in counts)


def shanten(counts: Counts, melds: int = 0) -> int:
    """Shanten of concealed tiles with ``melds`` declared melds (−1 means complete)."""
    value = standard_shanten(counts, melds)
    if melds == 0:
        value = min(value, seven_pairs_shanten(counts))
    return value


def is_complete(counts: Counts, melds: int = 0) -> bool:
    """Whether concealed tiles plus melds form a winning shape (§2)."""
    return shanten(counts, melds) == -1


# ---------------------------------------------------------------- readings

GroupKind = Literal["run", "triplet"]


@dataclass(frozen=True, slots=True)
class Group:
    """One set of a reading: a run (``kind`` is its lowest tile) or a triplet/kong."""

    shape: GroupKind
    kind: int
    meld: MeldType | None = None

    @property
    def kinds(self) -> tuple[int, ...]:
        """The three kinds the set is made of (a kong's fourth tile not repeated)."""
        return (self.kind, self.kind + 1, self.kind + 2) if self.shape == "run" else (self.kind,) * 3


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand: four sets and a pair, or seven pairs."""

    groups: tuple[Group, ...] = ()
    pair: int | None = None
    pairs: tuple[int, ...] = ()

    @property
    def is_seven_pairs(self) -> bool:
        """Whether this is the seven-pairs reading."""
        return bool(self.pairs)


_BlockReading = tuple[tuple[tuple[GroupKind, int], ...], int | None]


@lru_cache(maxsize=None)
def _block_readings(cs: tuple[int, ...], runs: bool) -> tuple[_BlockReading, ...]:
    """Every split of a block's tiles into sets and at most one pair (local indices)."""
    i = next((j for j, c in enumerate(cs) if c), None)
    if i is None:
        return (((), None),)
    out: list[_BlockReading] = []
    if cs[i] >= 3:
        out.extend(((("triplet", i),) + g, p) for g, p in _block_readings(_take(cs, i, i, i), runs))
    if runs and i + 2 < len(cs) and cs[i + 1] and cs[i + 2]:
        out.extend(((("run", i),) + g, p) for g, p in _block_readings(_take(cs, i, i + 1, i + 2), runs))
    if cs[i] >= 2:
        out.extend((g, i) for g, p in _block_readings(_take(cs, i, i), runs) if p is None)
    return tuple(out)


def readings(hand: Hand) -> tuple[Reading, ...]:
    """Every reading of a complete hand (standard splits, then seven pairs)."""
    counts = hand.concealed
    meld_groups = tuple(Group("triplet", m.kind, m.type) for m in hand.melds)
    per_block = [
        [
            (tuple(Group(shape, start + k) for shape, k in groups), None if pair is None else start + pair)
            for groups, pair in _block_readings(counts[start:stop], runs)
        ]
        for start, stop, runs in BLOCKS
    ]
    found: list[Reading] = []
    for combo in product(*per_block):
        pairs = [p for _, p in combo if p is not None]
        if len(pairs) == 1:
            groups = tuple(g for gs, _ in combo for g in gs) + meld_groups
            found.append(Reading(groups=groups, pair=pairs[0]))
    if not hand.melds and sum(counts) == 14 and all(c % 2 == 0 for c in counts):
        found.append(Reading(pairs=tuple(k for k in range(NUM_KINDS) for _ in range(counts[k] // 2))))
    return tuple(found)

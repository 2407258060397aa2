"""Blocks: the sets-and-partials arithmetic behind shanten (kwx-rules §4).

A hand splits into three independent blocks (筒, 条, dragons). For a block's tiles
``block_value`` gives, for every budget 0–4 of sets plus partial sets, the best
``2·sets + partials`` without and with the pair (+1); ``merge`` combines two
blocks and ``best_with`` one block with the merge of the others. ``block_value`` is
the recursive definition; ``tables`` precomputes it for every suit.
"""

from __future__ import annotations

from functools import cache

Vector = tuple[int, ...]
"""A block's best ``2·sets + partials (+1 for a pair)`` for budgets 0..4."""
BlockValue = tuple[Vector, Vector]
"""(without the pair, with the pair) vectors of one block."""

_NONE = -99
_BUDGETS = range(5)
BLOCKS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 18, True), (18, 21, False))
"""(start, stop, runs allowed) of the 筒, 条 and dragon blocks."""


def take(cs: tuple[int, ...], *indices: int) -> tuple[int, ...]:
    """The counts ``cs`` with one tile fewer at each of ``indices`` (an index twice: two fewer)."""
    lst = list(cs)
    for i in indices:
        lst[i] -= 1
    return tuple(lst)


def _pareto(states: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    capped = {(m, min(t, 4), p) for m, t, p in states}
    return tuple(s for s in capped if not any(o != s and o[0] >= s[0] and o[1] >= s[1] and o[2] >= s[2] for o in capped))


@cache
def _partial_states(cs: tuple[int, ...], runs: bool) -> tuple[tuple[int, int, int], ...]:
    """Undominated (sets, partial sets, pair) triples a block's tiles can be split into."""
    i = next((j for j, c in enumerate(cs) if c), None)
    if i is None:
        return ((0, 0, 0),)
    n = len(cs)
    out: set[tuple[int, int, int]] = set(_partial_states(take(cs, i), runs))  # tile i left alone
    if cs[i] >= 2:
        for m, t, p in _partial_states(take(cs, i, i), runs):
            out.add((m, t + 1, p))
            if not p:
                out.add((m, t, 1))
        if cs[i] >= 3:
            out.update((m + 1, t, p) for m, t, p in _partial_states(take(cs, i, i, i), runs))
    if runs and i + 1 < n and cs[i + 1]:
        out.update((m, t + 1, p) for m, t, p in _partial_states(take(cs, i, i + 1), runs))
        if i + 2 < n and cs[i + 2]:
            out.update((m + 1, t, p) for m, t, p in _partial_states(take(cs, i, i + 1, i + 2), runs))
    if runs and i + 2 < n and cs[i + 2]:
        out.update((m, t + 1, p) for m, t, p in _partial_states(take(cs, i, i + 2), runs))
    return _pareto(out)


def _budget_value(m: int, t: int, budget: int) -> int:
    sets = min(m, budget)
    return 2 * sets + min(t, budget - sets)


@cache
def block_value(cs: tuple[int, ...], runs: bool) -> BlockValue:
    """The best contribution of one block's tiles for each budget, without and with the pair."""
    without = [_NONE] * 5
    with_pair = [_NONE] * 5
    for m, t, p in _partial_states(cs, runs):
        target = with_pair if p else without
        for b in _BUDGETS:
            target[b] = max(target[b], _budget_value(m, t, b) + p)
    return tuple(without), tuple(with_pair)


@cache
def merge(a: BlockValue, b: BlockValue) -> BlockValue:
    """The best contribution of two blocks together, for each budget."""
    a0, a1 = a
    b0, b1 = b
    c0 = tuple(max(a0[i] + b0[n - i] for i in range(n + 1)) for n in _BUDGETS)
    c1 = tuple(max(max(a1[i] + b0[n - i], a0[i] + b1[n - i]) for i in range(n + 1)) for n in _BUDGETS)
    return c0, c1


@cache
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

"""Precomputed block tables: every suit's best contribution, looked up by a base-5 index.

A suit's counts ``(c1, …, c9)`` (each 0–4) have the index ``Σ cᵢ·5^(i−1)``, so drawing
or discarding a tile of rank r moves the index by ``±5^(r−1)``. For every suit of at
most 14 tiles the table holds the id of its ``blocks.block_value`` (budgets 0–4 without
and with the pair; there are only 70 distinct values) and a 9-bit mask of
the ranks that touch its tiles (held, or within two of a held rank: the only draws
that can help). It is built once by ``python -m kwx.hand.build_tables`` from the
recursive definition in ``blocks`` and shipped compressed in ``data/``; loading it
takes a few tens of milliseconds. The dragon block (3 kinds) is computed at import, and so
are the merges of every two values, by id, so the hot loop combines blocks with int lookups.
"""

from __future__ import annotations

import struct
import sys
import time
import zlib
from array import array
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import product
from operator import mul
from pathlib import Path

from kwx.hand.blocks import BlockValue, best_with, block_value, merge

POW5: tuple[int, ...] = tuple(5**i for i in range(9))
SUIT_SLOTS = 5**9
MAX_TILES = 14
PATH = Path(__file__).resolve().parent / "data" / "suit_table.zlib"
_NONE_BYTE = 255


def suit_index(counts: tuple[int, ...]) -> int:
    """The base-5 index of a suit's (or dragon block's) counts."""
    return sum(map(mul, counts, POW5))


def reach_mask(counts: tuple[int, ...], reach: int = 2) -> int:
    """Bit i set when rank i is held or within ``reach`` of a held rank."""
    mask = 0
    for i in range(len(counts)):
        if any(counts[j] for j in range(max(0, i - reach), min(len(counts), i + reach + 1))):
            mask |= 1 << i
    return mask


def build() -> bytes:
    """Compute the table for every suit of at most 14 tiles (takes a while)."""
    ids = array("H", bytes(2 * SUIT_SLOTS))
    masks = array("H", bytes(2 * SUIT_SLOTS))
    values: dict[BlockValue, int] = {}
    for counts in product(range(5), repeat=9):
        if sum(counts) <= MAX_TILES:
            index = suit_index(counts)
            ids[index] = values.setdefault(block_value(counts, True), len(values))
            masks[index] = reach_mask(counts)
    encoded = b"".join(bytes(_NONE_BYTE if v < 0 else v for vec in value for v in vec) for value in values)
    return struct.pack("<I", len(values)) + encoded + ids.tobytes() + masks.tobytes()


def _load() -> tuple[tuple[BlockValue, ...], array[int], array[int]]:
    raw = memoryview(zlib.decompress(PATH.read_bytes()))
    (count,) = struct.unpack_from("<I", raw)
    values = []
    for n in range(count):
        v = tuple(-99 if b == _NONE_BYTE else b for b in raw[4 + 10 * n : 14 + 10 * n])
        values.append((v[:5], v[5:]))
    start = 4 + 10 * count
    ids = array("H")
    ids.frombytes(raw[start : start + 2 * SUIT_SLOTS])
    masks = array("H")
    masks.frombytes(raw[start + 2 * SUIT_SLOTS : start + 4 * SUIT_SLOTS])
    return tuple(values), ids, masks


try:
    _VALUES, _IDS, _MASKS = _load()
except (OSError, zlib.error, struct.error, ValueError):  # missing or old: only `main` can run
    _VALUES, _IDS, _MASKS = (), array("H"), array("H")


DRAGON_VALUES: dict[int, BlockValue] = {suit_index(counts): block_value(counts, False) for counts in product(range(5), repeat=3)}


VALUES: tuple[BlockValue, ...] = _VALUES + tuple(sorted(set(DRAGON_VALUES.values()) - set(_VALUES)))
"""Every distinct block value (70): a value's id is its position here."""
SUIT_IDS: Sequence[int] = _IDS
"""The value id of every suit, by base-5 index (read only)."""
DRAGON_IDS: tuple[int, ...] = tuple(VALUES.index(DRAGON_VALUES[index]) for index in range(5**3))
"""The value id of every dragon block, by base-5 index."""


def _merge_table() -> tuple[tuple[BlockValue, ...], tuple[tuple[int, ...], ...]]:
    merged = {(a, b): merge(VALUES[a], VALUES[b]) for a in range(len(VALUES)) for b in range(a, len(VALUES))}
    all_values = VALUES + tuple(sorted(set(merged.values()) - set(VALUES)))
    ids = {value: i for i, value in enumerate(all_values)}
    table = tuple(tuple(ids[merged[min(a, b), max(a, b)]] for b in range(len(VALUES))) for a in range(len(VALUES)))
    return all_values, table


ALL_VALUES, MERGED = _merge_table()
"""``ALL_VALUES`` extends ``VALUES`` with every merge of two block values (about 140 in all);
``MERGED[a][b]`` is the id in ``ALL_VALUES`` of the merge of values ``a`` and ``b``."""


@cache
def best_of_ids(block: int, rest: int, budget: int) -> int:
    """``blocks.best_with`` for a block value and a merged value given by their ids."""
    return best_with(ALL_VALUES[block], ALL_VALUES[rest], budget)


@lru_cache(maxsize=1 << 16)
def block_draws(dragons: bool, index: int) -> tuple[tuple[int, int], ...]:
    """(rank, value id after drawing it) of each kind of a block whose draw could help.

    A suit's kinds within two ranks of a held tile, a dragon block's held kinds; never a
    kind the block already holds four of.
    """
    if dragons:
        return tuple((rank, DRAGON_IDS[index + step]) for rank, step in enumerate(POW5[:3]) if 0 < index // step % 5 < 4)
    return tuple((rank, _IDS[index + step]) for rank, step in mask_ranks(_MASKS[index]) if index // step % 5 < 4)


KIND_BLOCK: tuple[int, ...] = (0,) * 9 + (1,) * 9 + (2,) * 3
"""The block (筒, 条, dragons) of each kind."""
KIND_STEP: tuple[int, ...] = POW5 + POW5 + POW5[:3]
"""How much one tile of each kind moves its block's index."""


def block_indices(counts: tuple[int, ...]) -> tuple[int, int, int]:
    """The base-5 indices of a hand's three blocks (``suit_index`` of each, unrolled: it is hot)."""
    p1, p2, p3, p4, p5, p6, p7, p8, p9, s1, s2, s3, s4, s5, s6, s7, s8, s9, zhong, fa, bai = counts
    return (
        p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (p7 + 5 * (p8 + 5 * p9))))))),
        s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (s7 + 5 * (s8 + 5 * s9))))))),
        zhong + 5 * (fa + 5 * bai),
    )


@cache
def mask_ranks(mask: int) -> tuple[tuple[int, int], ...]:
    """(rank offset, index step) of each bit set in a reach mask."""
    return tuple((i, POW5[i]) for i in range(9) if mask >> i & 1)


def main() -> None:
    """Rebuild data/suit_table.zlib from the recursive definition."""
    sys.setrecursionlimit(10_000)
    start = time.perf_counter()
    raw = build()
    PATH.parent.mkdir(exist_ok=True)
    PATH.write_bytes(zlib.compress(raw, 9))
    print(f"{PATH.name}: {len(raw)} bytes raw, {PATH.stat().st_size} compressed, {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()

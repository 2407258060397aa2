"""Shapes: shanten by the classic formula, and the readings of a complete hand.

Shanten (kwx-rules §4) is ``8 − 2·sets − partial sets − pair`` with
``concealed sets + partial sets ≤ 4 − melds``, or for seven pairs ``6 − pairs``
where a four of a kind is two pairs. The standard value comes from the three
blocks' precomputed tables (``blocks``, ``tables``), so the shanten of a hand,
and of every hand one tile away from it, is a handful of additions. Readings
(§2) are the ways a complete hand splits into sets and a pair, found block by block.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Literal

from kwx.hand.blocks import BLOCKS, take
from kwx.hand.tables import DRAGON_IDS, MERGED, POW5, SUIT_IDS, best_of_ids, block_indices, suit_index
from kwx.hand.tiles import NUM_KINDS, Counts, Hand, MeldType


def standard_shanten(counts: Counts, melds: int = 0) -> int:
    """Shanten toward four sets and a pair, with ``melds`` sets already declared."""
    p, s, d = block_indices(counts)
    return 8 - 2 * melds - best_of_ids(SUIT_IDS[p], MERGED[SUIT_IDS[s]][DRAGON_IDS[d]], 4 - melds)


def pairs_of(counts: Counts) -> int:
    """Pairs among the tiles, a four of a kind counting as two."""
    return (sum(counts) - counts.count(1) - counts.count(3)) >> 1


def seven_pairs_shanten(counts: Counts) -> int:
    """Shanten toward seven pairs, a four of a kind counting as two pairs."""
    return 6 - pairs_of(counts)


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


@cache
def block_readings(cs: tuple[int, ...], runs: bool) -> tuple[_BlockReading, ...]:
    """Every split of a block's tiles into sets and at most one pair (local indices)."""
    i = next((j for j, c in enumerate(cs) if c), None)
    if i is None:
        return (((), None),)
    out: list[_BlockReading] = []
    if cs[i] >= 3:
        out.extend(((("triplet", i),) + g, p) for g, p in block_readings(take(cs, i, i, i), runs))
    if runs and i + 2 < len(cs) and cs[i + 1] and cs[i + 2]:
        out.extend(((("run", i),) + g, p) for g, p in block_readings(take(cs, i, i + 1, i + 2), runs))
    if cs[i] >= 2:
        out.extend((g, i) for g, p in block_readings(take(cs, i, i), runs) if p is None)
    return tuple(out)


_SUIT_SETS: tuple[tuple[GroupKind, int], ...] = tuple(("run", i) for i in range(7)) + tuple(("triplet", i) for i in range(9))


@lru_cache(maxsize=1)
def complete_suit_readings() -> dict[int, tuple[_BlockReading, ...]]:
    """Every split of every suit of at most 14 tiles into sets and at most one pair, by suit index.

    Built on first use by walking the multisets of up to four sets (a few thousand) and
    adding each possible pair; equal to ``block_readings`` for every suit (tested).
    """
    table: dict[int, list[_BlockReading]] = {}
    counts = [0] * 9

    def add(groups: tuple[tuple[GroupKind, int], ...]) -> None:
        index = suit_index(tuple(counts))
        table.setdefault(index, []).append((groups, None))
        for rank in range(9):
            if counts[rank] <= 2:
                table.setdefault(index + 2 * POW5[rank], []).append((groups, rank))

    def walk(first: int, groups: tuple[tuple[GroupKind, int], ...]) -> None:
        add(groups)
        if len(groups) == 4:
            return
        for n in range(first, len(_SUIT_SETS)):
            shape, rank = _SUIT_SETS[n]
            ranks = (rank, rank + 1, rank + 2) if shape == "run" else (rank, rank, rank)
            for r in ranks:
                counts[r] += 1
            if max(counts[r] for r in ranks) <= 4:
                walk(n, groups + (_SUIT_SETS[n],))
            for r in ranks:
                counts[r] -= 1

    walk(0, ())
    return {index: tuple(found) for index, found in table.items()}


@cache
def _global_block_readings(index: int, block: int) -> tuple[tuple[tuple[Group, ...], int | None], ...]:
    """A block's splits with global kinds, as Group values (cached per block content)."""
    start, stop, runs = BLOCKS[block]
    if runs:
        local = complete_suit_readings().get(index, ())
    else:
        local = block_readings(tuple(index // POW5[i] % 5 for i in range(stop - start)), False)
    return tuple((tuple(Group(shape, start + k) for shape, k in groups), None if pair is None else start + pair) for groups, pair in local)


# ---------------------------------------------------------------- split facts

ALL_TRIPLETS = 1
"""Split-fact bit: every set of the split is a triplet (what 碰碰胡 asks of a block)."""
RUN_456 = 2
"""Split-fact bit: the split has a 4-5-6 run (what 卡五星 asks of the winning five's block)."""


@lru_cache(maxsize=1)
def suit_split_facts() -> dict[int, tuple[int, ...]]:
    """By complete suit index, the distinct facts (ALL_TRIPLETS | RUN_456) of its splits, in reading order.

    Built on first use from the complete-suit readings; a suit that does not split is absent.
    """
    table = {}
    for index, splits in complete_suit_readings().items():
        facts: list[int] = []
        for groups, _ in splits:
            fact = (ALL_TRIPLETS if all(shape == "triplet" for shape, _ in groups) else 0) | (RUN_456 if ("run", 3) in groups else 0)
            if fact not in facts:
                facts.append(fact)
        table[index] = tuple(facts)
    return table


def _dragon_split(index: int) -> tuple[int, bool] | None:
    found = _global_block_readings(index, 2)
    if not found:
        return None
    ((groups, pair),) = found  # dragons make no runs: at most one split
    return len(groups), pair is not None


DRAGON_SPLITS: tuple[tuple[int, bool] | None, ...] = tuple(_dragon_split(index) for index in range(5**3))
"""(triplets, has the pair) of the dragon block's one split, by base-5 index; None when it does not split."""


def readings(hand: Hand) -> tuple[Reading, ...]:
    """Every reading of a complete hand (standard splits, then seven pairs)."""
    counts = hand.concealed
    meld_groups = tuple(Group("triplet", m.kind, m.type) for m in hand.melds) if hand.melds else ()
    found: list[Reading] = []
    p, s, d = block_indices(counts)
    per_block = (_global_block_readings(p, 0), _global_block_readings(s, 1), _global_block_readings(d, 2))
    if per_block[0] and per_block[1] and per_block[2]:
        for combo in product(*per_block):
            pairs = [pair for _, pair in combo if pair is not None]
            if len(pairs) == 1:
                groups = combo[0][0] + combo[1][0] + combo[2][0] + meld_groups
                found.append(Reading(groups=groups, pair=pairs[0]))
    if not hand.melds and not counts.count(1) and not counts.count(3) and sum(counts) == 14:
        found.append(Reading(pairs=tuple(k for k in range(NUM_KINDS) for _ in range(counts[k] // 2))))
    return tuple(found)

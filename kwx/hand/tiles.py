"""The 21 kinds of 卡五星 tiles, their ids and names, and the Meld and Hand value types.

A kind is an ``int`` from 0 to 20: 0–8 are 1筒–9筒, 9–17 are 1条–9条, 18–20 are
中 发 白. A hand's tiles are held as a 21-tuple of counts, which is what every
algorithm in the engine works on.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

Counts = tuple[int, ...]
"""How many of each of the 21 kinds, indexed by kind."""

NUM_KINDS: Final = 21
COPIES: Final = 4
DRAGONS: Final = (18, 19, 20)
ZHONG, FA, BAI = DRAGONS
FIVES: Final = (4, 13)
"""5筒 and 5条, the tiles 卡五星 is about."""

TILE_IDS: Final[tuple[str, ...]] = tuple(f"{n}p" for n in range(1, 10)) + tuple(f"{n}s" for n in range(1, 10)) + ("Z", "F", "B")
KIND_OF_ID: Final[dict[str, int]] = {tid: k for k, tid in enumerate(TILE_IDS)}
ZH_NUMERALS: Final = "一二三四五六七八九"
TILE_NAMES_ZH: Final[tuple[str, ...]] = tuple(f"{ZH_NUMERALS[n]}筒" for n in range(9)) + tuple(f"{ZH_NUMERALS[n]}条" for n in range(9)) + ("红中", "发财", "白板")
TILE_NAMES_EN: Final[tuple[str, ...]] = tuple(f"{n} of dots" for n in range(1, 10)) + tuple(f"{n} of bamboo" for n in range(1, 10)) + ("Red dragon", "Green dragon", "White dragon")
EMPTY: Final[Counts] = (0,) * NUM_KINDS


def kind_of(tile: str) -> int:
    """The kind of an ASCII tile id (raises KeyError for anything else)."""
    return KIND_OF_ID[tile]


def is_dragon(kind: int) -> bool:
    """Whether a kind is one of 中 发 白."""
    return kind >= 18


def counts_of(kinds: list[int] | tuple[int, ...]) -> Counts:
    """Counts from a sequence of kinds."""
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return tuple(counts)


def kinds_of(counts: Counts) -> tuple[int, ...]:
    """The kinds of a counts vector, one entry per tile, in canonical order."""
    return tuple(k for k in range(NUM_KINDS) for _ in range(counts[k]))


def add(a: Counts, b: Counts) -> Counts:
    """Element-wise sum of two counts vectors."""
    return tuple(map(operator.add, a, b))


def with_tile(counts: Counts, kind: int, delta: int = 1) -> Counts:
    """A copy of ``counts`` with ``delta`` more tiles of ``kind``."""
    lst = list(counts)
    lst[kind] += delta
    return tuple(lst)


class MeldType(str, Enum):
    """The three kinds of declared meld (副露); 吃 does not exist in 卡五星."""

    PONG = "pong"
    KONG = "kong"
    CONCEALED_KONG = "concealed_kong"

    @property
    def size(self) -> int:
        """Tiles the meld holds: 3 for a pong, 4 for a kong."""
        return 3 if self is MeldType.PONG else 4

    @property
    def name_zh(self) -> str:
        """The Chinese name: 碰, 明杠, 暗杠."""
        return {"pong": "碰", "kong": "明杠", "concealed_kong": "暗杠"}[self.value]


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: a pong, an exposed kong or a concealed kong of one kind."""

    type: MeldType
    kind: int

    @property
    def tile(self) -> str:
        """The ASCII id of the meld's kind."""
        return TILE_IDS[self.kind]

    def as_dict(self) -> dict[str, str]:
        """The API form: ``{"type": "pong", "tile": "5p"}``."""
        return {"type": self.type.value, "tile": self.tile}


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tiles (as counts) plus declared melds; checked by ``rules.validate_hand``.

    ``held`` counts every copy the player holds, concealed or in melds (a kong holds four).
    """

    concealed: Counts
    melds: tuple[Meld, ...] = ()
    held: Counts = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        held = self.concealed
        if self.melds:
            counts = list(held)
            for meld in self.melds:
                counts[meld.kind] += meld.type.size
            held = tuple(counts)
        object.__setattr__(self, "held", held)

    @property
    def tile_count(self) -> int:
        """Concealed tiles plus 3 per meld: 13 waiting, 14 to discard."""
        return sum(self.concealed) + 3 * len(self.melds)

    def with_tile(self, kind: int, delta: int = 1) -> Hand:
        """The same hand with a concealed tile added (or removed with ``delta=-1``)."""
        return Hand(with_tile(self.concealed, kind, delta), self.melds)

    def after_pong(self, kind: int) -> Hand:
        """The hand after ponging ``kind``: two concealed copies and the claimed tile become the meld (before the discard)."""
        return Hand(with_tile(self.concealed, kind, -2), self.melds + (Meld(MeldType.PONG, kind),))

    def after_kong(self, kind: int) -> Hand:
        """The hand after a kong of ``kind`` (before the replacement draw).

        暗杠 of four concealed, 直杠 of three on a discard, else 蓄杠 onto the pong.
        """
        n = self.concealed[kind]
        if n == 4:
            return Hand(with_tile(self.concealed, kind, -4), self.melds + (Meld(MeldType.CONCEALED_KONG, kind),))
        if n == 3:
            return Hand(with_tile(self.concealed, kind, -3), self.melds + (Meld(MeldType.KONG, kind),))
        melds = tuple(Meld(MeldType.KONG, kind) if m.kind == kind and m.type is MeldType.PONG else m for m in self.melds)
        return Hand(with_tile(self.concealed, kind, -1), melds)

    def pong_of(self, kind: int) -> bool:
        """Whether the hand has an exposed pong of ``kind``."""
        return any(m.kind == kind and m.type is MeldType.PONG for m in self.melds)

    def winning_kinds(self) -> frozenset[int]:
        """The kinds that complete this 13-tile hand (none the hand holds all four of)."""
        from kwx.hand.efficiency import improving_draws  # efficiency builds on this module

        full = tuple(k for k in range(NUM_KINDS) if self.held[k] >= COPIES)
        shanten, kinds = improving_draws(self.concealed, len(self.melds), full)
        return frozenset(kinds) if shanten == 0 else frozenset()

"""How every page draws a hand: concealed tiles in canonical order, then each meld, then the winning tile.

One rule for melds (``meld_faces``): a 碰 shows three faces, a 明杠 four, and an 暗杠 (concealed
kong) four with its outer two face down (``back``), as a table shows it. The analyzer, the
learn pages, the drills, the settlement calculator and the play pages all draw through here,
the templates through ``{% hand %}`` and ``{% meld %}`` (``kwx_site/templatetags/kwx.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from kwx.hand.notation import format_hand, parse_hand, parse_tile
from kwx.hand.tiles import TILE_IDS, Hand, Meld, MeldType, kinds_of

BACK = "back"
"""The tile id of a face-down tile (static/tiles/back.svg)."""


@dataclass(frozen=True, slots=True)
class DrawnMeld:
    """A declared meld to draw: its tiles (``back`` face down), its type (pong, kong, concealed_kong) and its tile."""

    tiles: tuple[str, ...]
    type: str
    tile: str


@dataclass(frozen=True, slots=True)
class DrawnHand:
    """A hand ready to draw as tiles: concealed tile ids, melds, the winning tile (if any), its canonical text."""

    concealed: tuple[str, ...]
    melds: tuple[DrawnMeld, ...]
    win: str | None
    text: str


def meld_faces(meld_type: MeldType | str, tile: str) -> tuple[str, ...]:
    """The tiles drawn for a meld: its faces, a concealed kong with its outer two face down."""
    kind = MeldType(meld_type)
    if kind is MeldType.CONCEALED_KONG:
        return (BACK, tile, tile, BACK)
    return (tile,) * kind.size


def drawn_meld(meld: Meld | Mapping[str, Any] | DrawnMeld) -> DrawnMeld:
    """A meld (engine value, or its API form ``{"type", "tile"}``) ready to draw."""
    if isinstance(meld, DrawnMeld):
        return meld
    if isinstance(meld, Meld):
        return DrawnMeld(meld_faces(meld.type, meld.tile), meld.type.value, meld.tile)
    return DrawnMeld(meld_faces(meld["type"], meld["tile"]), str(meld["type"]), meld["tile"])


def drawn_hand(hand: str | Hand | DrawnHand, win: str | None = None) -> DrawnHand:
    """A hand (text or engine value) ready to draw, with the tile it won on if any (a hand drawn already takes ``win`` too)."""
    if isinstance(hand, DrawnHand):
        return replace(hand, win=TILE_IDS[parse_tile(win)]) if win else hand
    parsed = parse_hand(hand) if isinstance(hand, str) else hand
    return DrawnHand(
        tuple(TILE_IDS[k] for k in kinds_of(parsed.concealed)),
        tuple(drawn_meld(m) for m in parsed.melds),
        TILE_IDS[parse_tile(win)] if win else None,
        format_hand(parsed),
    )

"""Template helpers of the drill pages: tile lists from text and signed numbers."""

from __future__ import annotations

from django import template

from kwx.hand.notation import parse_tiles
from kwx.hand.tiles import TILE_IDS, kinds_of

register = template.Library()


@register.filter
def tiles_of(text: str) -> list[str]:
    """The tile ids of plain tile text, one per tile (``55p1s`` → 5p 5p 1s)."""
    return [TILE_IDS[k] for k in kinds_of(parse_tiles(text or "", "visible"))]


@register.filter
def signed(value: float) -> str:
    """A rating change with its sign: +12, −8, ±0."""
    n = round(value or 0)
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "±0"

"""Small helpers to read one win out of an analysis."""

from __future__ import annotations

from kwx import analyze


def win(hand: str, tile: str, side: str = "self_draw", **kwargs) -> dict:
    """The self-draw or discard side of winning ``hand`` on ``tile``."""
    for wait in analyze(hand, **kwargs)["waits"]:
        if wait["tile"] == tile:
            return wait[side]
    raise AssertionError(f"{hand} does not win on {tile}")


def fan_keys(side: dict) -> list[str]:
    """The fan keys of a win side, in order."""
    return [f["key"] for f in side["fans"]]

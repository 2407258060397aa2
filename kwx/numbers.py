"""Whole numbers typed as text, read without Python's int-string limit ever being reached."""

from __future__ import annotations

MAX_DIGITS = 18
"""Digits a whole number typed into a form or an API may have: every figure the site takes is far smaller, and
Python refuses to read more than 4,300 (``ValueError``), so longer text is simply not a number it takes."""


def read_whole(text: str, digits: int = MAX_DIGITS) -> int | None:
    """The text (already stripped) as a whole number of at most ``digits`` decimal digits, or None."""
    if not text.isdecimal() or len(text) > digits:
        return None
    return int(text)

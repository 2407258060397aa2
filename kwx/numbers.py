"""Whole numbers typed as text, read without Python's int-string limit ever being reached; seeds hashed from their parts."""

from __future__ import annotations

import hashlib

MAX_DIGITS = 18
"""Digits a whole number typed into a form or an API may have: every figure the site takes is far smaller, and
Python refuses to read more than 4,300 (``ValueError``), so longer text is simply not a number it takes."""


def read_whole(text: str, digits: int = MAX_DIGITS) -> int | None:
    """The text (already stripped) as a whole number of at most ``digits`` decimal digits, or None."""
    if not text.isdecimal() or len(text) > digits:
        return None
    return int(text)


def seed_of(*parts: object, sep: str = "/", bits: int = 63) -> int:
    """A stable seed of ``bits`` bits (63 or 64): the first 8 bytes of the SHA-256 of the parts joined by ``sep``."""
    text = sep.join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> (64 - bits)

"""One way to write a figure on a page: one rounding (half up, of the number as Python prints it) for text and tables alike.

A drill's explanation and its table used to round the same standard error two ways (``f"{x:.2f}"``
rounds the binary value, Django's ``floatformat`` the decimal one: 0.575 gave "0.57" in the text and
"0.58" in the table), and a cost that rounds to nothing was written "−0.0". Every figure of a drill
page goes through :func:`figure` (the templates through the ``figure`` and ``signed_figure`` filters
of ``{% load kwx %}``), so each number is written once, the same everywhere.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

MINUS = "−"
"""U+2212, the minus sign (not the hyphen)."""


def figure(value: float | int | None, places: int = 2, signed: bool = False) -> str:
    """``value`` rounded half up to ``places`` decimals, minus as U+2212; ``signed`` adds "+"; a figure that rounds to zero has no sign."""
    if value is None:
        return ""
    try:
        rounded = Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError, OverflowError):
        return str(value)
    if rounded == 0:
        rounded = abs(rounded)
    text = f"{abs(rounded):.{places}f}"
    if rounded < 0:
        return MINUS + text
    return ("+" + text) if signed and rounded > 0 else text

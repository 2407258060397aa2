"""The review's figures as text, one formatter for every place they appear (summary, badges, tables): two decimals, a real minus sign, never "−0.00"."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()
MINUS = "\u2212"


def fixed(value: float, signed: bool = False) -> str:
    """``value`` to two decimals with a real minus sign; anything that rounds to zero is ``0.00`` (no sign)."""
    text = f"{abs(value):.2f}"
    if text == "0.00":
        return text
    if value < 0:
        return MINUS + text
    return ("+" + text) if signed else text


@register.simple_tag
def worth(mean: float, se: float) -> str:
    """A choice's expected net for the hand, in base stakes, with its standard error: ``+1.23 ± 0.40``."""
    return f"{fixed(mean, signed=True)} ± {fixed(se)}"


@register.simple_tag
def cost(gap: float, se: float) -> str:
    """What a choice gives away against the best, with its paired standard error: ``−0.57 ± 0.58``; "no cost" when it rounds to zero."""
    if fixed(gap) == "0.00":
        return _("no cost")
    return f"{MINUS}{fixed(gap)} ± {fixed(se)}"

"""The review's figures as text, one formatter for every place they appear (summary, badges, tables): two decimals, a real minus sign, never "−0.00"."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from kwx_site.table import seat_name
from kwx_site.text import tile_label

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
    """What a choice gives away against the best, with its paired standard error: ``−0.57 ± 0.58``; "no cost" when it rounds to zero; ``+0.20 ± 0.31`` when it did better than the best picked on the first deals."""
    if fixed(gap) == "0.00":
        return _("no cost")
    if gap < 0:
        return f"+{fixed(-gap)} ± {fixed(se)}"
    return f"{MINUS}{fixed(gap)} ± {fixed(se)}"


def _share(value: float) -> str:
    return f"{round(100 * value)} %"


@register.simple_tag
def reason_text(reason: dict[str, Any]) -> str:
    """One reason a choice cost (``kwx.hand_review.reasons``), in words."""
    code = reason["code"]
    names = {
        "tile": tile_label(reason.get("tile", "")) if reason.get("tile") else "",
        "seat": seat_name(reason.get("seat", 0), 0),
        "share": _share(reason.get("share", 0.0)),
        "mine": reason.get("mine", ""),
        "best": reason.get("best", ""),
    }
    if code == "deal_in":
        if reason.get("revealed"):
            return _("It throws %(tile)s into %(seat)s's revealed (亮倒) hand: a certain deal-in, paid for everyone (包胡).") % names
        return _("%(tile)s is a likely wait of %(seat)s: it deals in on %(share)s of the deals.") % names
    if code == "robbed":
        if reason.get("revealed"):
            return _("The added kong (蓄杠) of %(tile)s gets robbed: %(seat)s's revealed (亮倒) hand wins on it (抢杠胡), paid for everyone (包胡).") % names
        return _("The added kong (蓄杠) of %(tile)s can be robbed (抢杠胡): %(seat)s wins on it on %(share)s of the deals.") % names
    if code == "win":
        return _("It lets a win on %(tile)s go: the win was there to take.") % names
    if code == "declare_cost":
        return str(
            _(
                "Declaring 亮倒 here costs: the locked hand must throw what it draws and the others hold its waits back, a deal-in by it or a win against it is doubled, and at a drawn hand (荒庄) it pays."
            )
        )
    if code == "declare_gain":
        return str(_("It gives up 亮倒: the best declares, and every win of a declared hand is doubled."))
    if code == "kong_money":
        return _("It gives up the kong of %(tile)s and its kong money.") % names
    if code == "shanten":
        return _("It steps back: it leaves the hand %(mine)s from ready, the best %(best)s.") % names
    if code == "value":
        return _("It gives up fan: the ready hand it leaves is worth %(mine)s (§4), the best's %(best)s.") % names
    if code == "waits":
        return _("It gives up waits: %(mine)s effective tiles, the best %(best)s.") % names
    return str(_("No single reason shows at this step: the difference comes from how the hand plays on."))

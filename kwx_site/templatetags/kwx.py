"""Template helpers for drawing tiles and naming fans in the page's language."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kwx.hand.fans import FAN_BY_KEY
from kwx.hand.tiles import KIND_OF_ID, Hand, Meld
from kwx.rules import PRESETS
from kwx_site.drawing import BACK, DrawnHand, DrawnMeld, drawn_hand, drawn_meld
from kwx_site.figures import figure as figure_text
from kwx_site.text import (
    english,
    fan_label,
    fan_product,
    formula_tail,
    preset_label,
    preset_note,
    refusal_words,
    shanten_words,
    tile_label,
)
from kwx_site.text import (
    fan_name as text_fan_name,
)

register = template.Library()


@register.filter
def figure(value: float | None, places: int = 2) -> str:
    """A figure as every page writes it (``kwx_site.figures.figure``): ``{{ x|figure }}``, ``{{ p|figure:1 }}``."""
    return figure_text(value, int(places))


@register.filter
def signed_figure(value: float | None, places: int = 2) -> str:
    """The same with its sign: +1.25, −0.57, 0.00."""
    return figure_text(value, int(places), signed=True)


@register.filter
def amount(value: float | None) -> str:
    """A value or money figure: a whole one as it is, one with an expected part (马) to 2 decimals."""
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else figure_text(value, 2)


@register.simple_tag
def when(moment: datetime) -> str:
    """A moment as a ``<time>``: the site's time with its offset from UTC (``2026-12-04 20:16 UTC+8``), so a visitor elsewhere
    knows which; ``static/js/site.js`` writes it again in the visitor's own time and zone."""
    local = timezone.localtime(moment)
    offset = local.utcoffset() or timedelta()
    minutes = int(offset.total_seconds()) // 60
    zone = "UTC" + ("+" if minutes >= 0 else "\u2212") + f"{abs(minutes) // 60}" + (f":{abs(minutes) % 60:02d}" if minutes % 60 else "")
    return format_html('<time datetime="{}" data-local>{} {}</time>', local.isoformat(timespec="minutes"), local.strftime("%Y-%m-%d %H:%M"), zone)


MELD_NAMES = {"pong": gettext_noop("碰"), "kong": gettext_noop("明杠"), "concealed_kong": gettext_noop("暗杠")}
"""A meld's name as players say it (its title; the analyzer labels its melds the same way)."""


@register.filter
def tile_name(tile: str) -> str:
    """The name of a tile id (一筒 / 1 of dots) in the active language; anything else as it is."""
    return tile_label(tile) if tile in KIND_OF_ID else tile


@register.simple_tag
def tile(tile_id: str, css: str = "") -> str:
    """An <img> of a tile drawn by the project's SVGs, with its name as alt text (none for a face-down tile)."""
    name = "" if tile_id == BACK else tile_name(tile_id)
    return format_html(
        '<img class="tile {}" src="{}" alt="{}" title="{}" width="60" height="80">',
        css,
        static(f"tiles/{tile_id}.svg"),
        name,
        name,
    )


@register.inclusion_tag("partials/hand.html")
def hand(value: str | Hand | DrawnHand, win: str | None = None, size: str = "") -> dict[str, Any]:
    """A whole hand, drawn one way on every page: concealed tiles, each meld (``{% meld %}``), then the winning tile."""
    return {"drawn": drawn_hand(value, win or None), "size": size}


@register.inclusion_tag("partials/meld.html")
def meld(value: Meld | Mapping[str, Any] | DrawnMeld, size: str = "") -> dict[str, Any]:
    """One declared meld (engine value, API form or drawn): a concealed kong with its outer two tiles face down."""
    drawn = drawn_meld(value)
    return {"meld": drawn, "name": _(MELD_NAMES[drawn.type]), "size": size}


@register.filter
def fan_name(key: str) -> str:
    """A fan's name from the engine's table (中文 first, English when the page is English)."""
    return text_fan_name(key) if key in FAN_BY_KEY else key


@register.filter
def fan_definition(key: str) -> str:
    """A fan's one-line definition from the engine's table, in the active language."""
    f = FAN_BY_KEY.get(key)
    if f is None:
        return ""
    return f.definition_en if english() else f.definition


LEARN_FANS_URL = "/learn/fans/"
"""Where each fan is explained; a fan's key is its anchor there."""


@register.simple_tag
def fan_formula(side: dict) -> str:
    """A win side's fans, each linked to its explanation: ``卡五星 ×2 · 清一色 ×4 = ×8``.

    Fan names stay Chinese in both languages, as players say them; the link's title glosses them.
    """
    fans = side["fans"]
    if not fans:
        return format_html('<span class="formula">{} ×1</span>', _("no fan (屁胡)"))
    total = side["total"] if side["allowed"] else fan_product(fans)
    terms = format_html_join(
        " · ",
        '<a href="{}#{}" title="{}">{}</a> ×{}',
        ((LEARN_FANS_URL, f["key"], fan_label(f), fan_label(f, chinese=True), f["multiplier"]) for f in fans),
    )
    tail = formula_tail(fans, total)
    return format_html('<span class="formula">{}{}</span>', terms, " " + tail if tail else "")


@register.filter
def shanten_text(shanten: int) -> str:
    """听牌 / 一向听 … (ready / 1-shanten …) in the active language."""
    return shanten_words(shanten)


@register.filter
def refusal_text(reason: str | None) -> str:
    """Why a win is not allowed (屁胡只能自摸 …) in the active language."""
    return refusal_words(reason)


@register.inclusion_tag("partials/presets.html")
def presets_explained(element_id: str, chosen: str = "") -> dict:
    """Each rules preset by name with what it changes (the engine's notes), the chosen one marked."""
    return {"id": element_id, "presets": [(key, preset_label(key), preset_note(key), key == chosen) for key in PRESETS]}

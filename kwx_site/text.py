"""Words for analysis figures and the bots' levels, shared by the pages and the ``analyze`` command."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from kwx.hand.fans import FAN_BY_KEY
from kwx.hand.tiles import KIND_OF_ID, TILE_NAMES_EN, TILE_NAMES_ZH
from kwx.rules import PRESETS

_ZH_COUNTS = "一二三四五六七八"
LEVEL_NAMES = {"basic": gettext_noop("basic"), "companion": gettext_noop("companion"), "strong": gettext_noop("strong"), "judge": gettext_noop("judge"), "boosted": gettext_noop("expert")}
LEVEL_DESCRIPTIONS = {
    "basic": gettext_noop("basic: efficiency only, no defence"),
    "companion": gettext_noop("companion: the public basic companion — fastest to ready, 亮倒 whenever ready"),
    "strong": gettext_noop("strong: plays for money, defends against 亮倒"),
    "judge": gettext_noop("judge: the strong bot with its discards and pongs priced by a model learned from self-play"),
    "boosted": gettext_noop("expert: the strongest — the judge with its discards priced by regression trees fitted on its own self-play, round after round"),
}
"""What each level of /play/ plays like, as its radio button says."""


def english() -> bool:
    """Whether the active language is English (otherwise the page is Chinese)."""
    return (get_language() or "zh-hans").startswith("en")


def level_name(level: str) -> str:
    """A bots' level in the active language."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def level_description(level: str) -> str:
    """What a bots' level plays like, in the active language."""
    return _(LEVEL_DESCRIPTIONS[level])


def fan_name(key: str) -> str:
    """A fan's name from the engine's table: 中文, or English when the page is English."""
    f = FAN_BY_KEY[key]
    return f.name_en if english() else f.name


def tile_label(tile: str) -> str:
    """A tile's name in the active language (五筒 / 5 of dots)."""
    kind = KIND_OF_ID[tile]
    return TILE_NAMES_EN[kind] if english() else TILE_NAMES_ZH[kind]


def shanten_words(shanten: int) -> str:
    """和了 / 听牌 / 一向听 … (complete / ready / 1-shanten …)."""
    if shanten < 0:
        return _("complete (和了)")
    if shanten == 0:
        return _("ready (听牌)")
    if english():
        return f"{shanten}-shanten"
    return f"{_ZH_COUNTS[shanten - 1]}向听"


def describe_fans(fans: list[dict[str, Any]]) -> str:
    """``卡五星 ×2 · 清一色 ×4`` or ``屁胡`` for a win with no fan."""
    if not fans:
        return _("no fan (屁胡)")
    return " · ".join(f"{fan_label(f)} ×{f['multiplier']}" for f in fans)


def preset_label(key: str) -> str:
    """A preset's name in the active language (通用 / Standard)."""
    preset = PRESETS[key]
    return preset.name_en if english() else preset.name


def preset_note(key: str) -> str:
    """What a preset changes (its cap, its own multipliers), from the engine's preset data, in the active language."""
    preset = PRESETS[key]
    return preset.note_en if english() else preset.note


def fan_label(fan_item: dict[str, Any], chinese: bool = False) -> str:
    """One fan of an analysis body by name in the active language (or in Chinese), with its tile for a 四归一."""
    name = fan_item["name_en"] if english() and not chinese else fan_item["name"]
    if "tile" in fan_item:
        tile = TILE_NAMES_ZH[KIND_OF_ID[fan_item["tile"]]] if chinese else tile_label(fan_item["tile"])
        name += f"({tile})"
    return name


def fan_product(fans: list[dict[str, Any]]) -> int:
    """The product of the fans' multipliers (1 for 屁胡), before any cap."""
    product = 1
    for f in fans:
        product *= f["multiplier"]
    return product


def formula_tail(fans: list[dict[str, Any]], total: int) -> str:
    """What follows the fan list: ``= ×8``, ``= ×16 → 封顶 ×8``, or '' for a lone uncapped fan."""
    product = fan_product(fans)
    if product != total:
        return _("= ×%(product)d → capped at ×%(total)d") % {"product": product, "total": total}
    return "" if len(fans) <= 1 else f"= ×{total}"


def refusal_words(reason: str | None) -> str:
    """Why a win is not allowed, in words (屁胡只能自摸 …)."""
    if reason == "pinghu":
        return _("屁胡 only by self-draw (no discard win)")
    if reason == "rob_kong_off":
        return _("抢杠胡 is off in these rules")
    if reason == "min_2":
        return _("a self-draw needs ×2 or more in these rules unless you declared 亮倒")
    return _("not allowed")

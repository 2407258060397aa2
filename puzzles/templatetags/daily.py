"""``{% load daily %}{% daily_set %}``: today's set (the daily drill, the reviews due, a hand against the judge, the day streak).

Drawn by the home page and /progress/ (``puzzles/_daily.html``). The day's drill is chosen and stored the first
time anyone's page asks for it (``services.daily_drill``); a page whose database cannot be read leaves the set out.
"""

from __future__ import annotations

import logging
from typing import Any

from django import template
from django.db import DatabaseError
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.selectors import request_player, request_town
from accounts.town import option_text
from kwx.rules import PRESETS, label
from kwx_site.text import english, level_name

from .. import selectors, services
from ..explain import KIND_NAMES
from ..models import Puzzle
from ..text import DRILL_NAMES, THEMES

register = template.Library()
logger = logging.getLogger("kwx.errors")


def daily_kind_name(kind: str) -> str:
    """The name of a daily drill's kind (``selectors.DAILY_ROTATION``) in the active language."""
    if kind == "ev":
        return str(THEMES["ev"].name)
    return str(KIND_NAMES.get(kind) or DRILL_NAMES[kind])


def daily_url(puzzle: Puzzle) -> str:
    """The daily drill's page, asked in the daily mode (its answer leads back to the set)."""
    return reverse("quiz" if puzzle.kind == Puzzle.QUIZ else "drill", args=[puzzle.pk]) + "?mode=daily"


@register.inclusion_tag("puzzles/_daily.html", takes_context=True)
def daily_set(context: Any) -> dict[str, Any]:
    """Today's set for the request's player (never making one); nothing while the database cannot be read."""
    request = context["request"]
    try:
        day = selectors.site_day()
        puzzle = services.daily_drill(day=day)
        shown = selectors.daily_set(player=request_player(request), day=day, puzzle=puzzle)
        town = request_town(request=request)
    except DatabaseError:
        logger.warning("database unavailable: %s %s shown without the daily set", request.method, request.path)
        return {"daily": None}
    return {
        "daily": shown,
        "drill_url": daily_url(puzzle) if puzzle else "",
        "kind_name": daily_kind_name(shown.kind) if puzzle else "",
        "rules_label": label(puzzle.rules, PRESETS[puzzle.rules].values, english()) if puzzle and puzzle.rules in PRESETS else "",
        "level": selectors.DAILY_LEVEL,
        "level_name": level_name(selectors.DAILY_LEVEL),
        "play_rules": town.rules,
        "play_switches": [(key, option_text(value)) for key, value in town.options.items()],
        "play_label": town.label(english()),
        "zone": _("China time (Asia/Shanghai)"),
        "csrf_token": context.get("csrf_token"),
        "request": request,
        "LANGUAGE_CODE": context.get("LANGUAGE_CODE"),
    }

"""``{% load town %}{% town_picker %}``: the town picker any page draws (the preset, its room switches, "孝感（改）").

Use (every page that applies the player's rules: analyzer, calculator, play, drills)::

    {% load town %}
    {% town_picker %}                        {# the player's town: its own form, POST /town/, back to this page #}
    {% town_picker next=url %}               {# back to another link after a plain (no-JavaScript) save #}
    {% town_picker rules values embedded=True %}
        {# inside a page's own GET form: the preset select (name "rules") and the switches
           (named by option key, values as links write them) for rules the page shows; a
           "make it my town" button posts them to /town/ through the page's <form id="town-save"> #}

The page reads the player's choice with ``accounts.selectors.request_town`` (``Town.rules``,
``Town.options`` for a request, ``Town.values``), and a page's own form reads the switches back
with ``analysis.board``'s rules, which turn each with its couplings.
"""

from __future__ import annotations

from typing import Any

from django import template

from accounts.selectors import request_town
from accounts.town import option_text, picker
from kwx.rules import PRESETS, RuleSet
from kwx_site.text import english

register = template.Library()


@register.inclusion_tag("accounts/_town_picker.html", takes_context=True)
def town_picker(context: Any, rules: str = "", values: RuleSet | None = None, *, embedded: bool = False, next: str = "") -> dict[str, Any]:
    """The picker for ``rules`` and ``values`` (default: the player's town), standalone or ``embedded`` in a page's form."""
    request = context["request"]
    stored = request_town(request=request)
    shown = rules if rules in PRESETS else stored.rules
    if values is None:
        values = stored.values if shown == stored.rules else PRESETS[shown].values
    chosen = PRESETS[shown]
    shown_picker = picker(shown, values, english=english())
    return {
        **shown_picker,
        "same_label": shown_picker["label"] == stored.label(english()),
        "embedded": embedded,
        "next": next or request.get_full_path(),
        "stored_label": stored.label(english()),
        "is_stored": shown == stored.rules and values == stored.values,
        "save_fields": [(key, option_text(values.value(key))) for key in chosen.room if values.value(key) != chosen.values.value(key)],
        "csrf_token": context.get("csrf_token"),
        "saved": context.get("saved", False),
        "form_errors": context.get("form_errors"),
        "request": request,
    }

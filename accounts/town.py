"""The town picker as a page draws it: the presets (legacy ones marked), the chosen preset's room switches and its label.

``picker`` shapes any rules (a preset key and every option's value) for
``accounts/_town_picker.html``; ``{% town_picker %}`` (``accounts/templatetags/town.py``) and the
``/town/`` page call it. Every word about a preset or an option comes from ``kwx.rules``
(names, notes, ``OPTIONS`` labels, ``label``); nothing here lists the presets.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from kwx.rules import OPTION_BY_KEY, PRESETS, OptionValue, RuleSet, label


def option_text(value: OptionValue) -> str:
    """An option's value as a form or a link writes it (``kwx.rules.read_option_text`` reads it back): 1/0, none, 8, all_fours."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return "none" if value is None else str(value)


def preset_choice(key: str, english: bool) -> str:
    """A preset as the picker lists it: its name, a legacy preset marked as such."""
    chosen = PRESETS[key]
    name = chosen.name_en if english else chosen.name
    return _("%(name)s (legacy)") % {"name": name} if chosen.legacy else name


def picker(rules: str, values: RuleSet, *, english: bool) -> dict[str, Any]:
    """The picker's content for a preset and its values: preset groups (towns, then legacy), the room switches with their labels, the label ("孝感（改）") and the note."""
    chosen = PRESETS[rules]
    towns = [(key, preset_choice(key, english), key == rules) for key, p in PRESETS.items() if not p.legacy]
    legacy = [(key, preset_choice(key, english), key == rules) for key, p in PRESETS.items() if p.legacy]
    switches = []
    for key in chosen.room:
        option = OPTION_BY_KEY[key]
        value = values.value(key)
        switches.append(
            {
                "key": key,
                "name": option.name_en if english else option.name,
                "meaning": option.meaning_en if english else option.meaning,
                "toggle": isinstance(option.values[0], bool),
                "on": value is True,
                "changed": value != chosen.values.value(key),
                "preset_value": option.label(chosen.values.value(key), english),
                "choices": [(option_text(v), option.label(v, english), v == value) for v in option.values],
            }
        )
    return {
        "rules": rules,
        "groups": [(_("Town rules (地方规则)"), towns), (_("Legacy presets (the site's first three)"), legacy)],
        "switches": switches,
        "label": label(rules, values, english),
        "changed": bool(chosen.changed(values)),
        "note": chosen.note_en if english else chosen.note,
        "legacy": chosen.legacy,
    }

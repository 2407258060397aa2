"""The rules of an API request (town-rules.md §3.1) as every endpoint documents and reads them: a preset key and typed options."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from kwx.rules import OPTIONS, PRESETS, read_option_text

OPTIONS_HELP = "Rule options of town-rules.md §1, each overriding the preset's value: " + "; ".join(
    f"{o.key} ({', '.join('null' if v is None else str(v).lower() for v in o.values)})" for o in OPTIONS
)


def rules_field(**kwargs: Any) -> serializers.ChoiceField:
    """The ``rules`` field: a preset key (legacy or town)."""
    return serializers.ChoiceField(choices=list(PRESETS), help_text="A preset: " + ", ".join(f"{k} ({p.name_en})" for k, p in PRESETS.items()), **kwargs)


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"oneOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "string"}, {"type": "null"}]},
        "description": OPTIONS_HELP,
    }
)
class OptionsField(serializers.DictField):
    """Typed rule options: true/false switches, numbers (8, 16), named choices ("all_fours") and null (no cap)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", OPTIONS_HELP)
        super().__init__(child=serializers.JSONField(), **kwargs)


def query_options(query: Any) -> dict[str, Any]:
    """The rule options a query string sets (``cap=16``, ``shu_kan=1``, ``si_gui_yi=all_fours``), each checked (EngineError naming the option)."""
    return {o.key: read_option_text(o.key, query.get(o.key)[:40]) for o in OPTIONS if o.key in query}

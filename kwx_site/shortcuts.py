"""What views share beyond Django's shortcuts: a selector's "not found" (None) as a 404."""

from __future__ import annotations

from typing import TypeVar

from django.http import Http404

T = TypeVar("T")


def found(value: T | None, what: str) -> T:
    """The selector's answer, or a 404 saying what was not found (selectors answer None, views decide the status)."""
    if value is None:
        raise Http404(what)
    return value

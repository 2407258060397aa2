"""The template context every page gets from accounts: the player's town, read only when a template asks (``kwx_town``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from kwx_site.text import english

from .selectors import Town, request_town


class TownShown:
    """The request's town as the header names it, in the page's language."""

    def __init__(self, town: Town) -> None:
        self.town = town

    @property
    def label(self) -> str:
        """ "孝感（改）", "Standard" …"""
        return self.town.label(english())

    @property
    def chosen(self) -> bool:
        """Whether the player picked a town."""
        return self.town.chosen


def town(request: HttpRequest) -> dict[str, Any]:
    """``kwx_town``: the player's town (``request_town``), looked up the first time a template reads it."""
    return {"kwx_town": SimpleLazyObject(lambda: TownShown(request_town(request=request)))}

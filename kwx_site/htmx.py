"""One rule for every htmx view: when to answer with a fragment, and the header caches need."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers


def wants_fragment(request: HttpRequest) -> bool:
    """An htmx request asks for the fragment, except a history restore, which needs the whole page."""
    htmx = getattr(request, "htmx", None)
    return bool(htmx) and not htmx.history_restore_request


def render_page(request: HttpRequest, template: str, partial: str | None, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The whole page, or its ``partial`` (``{% partialdef %}``) for htmx; ``Vary: HX-Request`` either way.

    ``partial=None``: this request has no fragment (e.g. the GET of a form whose POST has one): the page.
    """
    name = f"{template}#{partial}" if partial and wants_fragment(request) else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response

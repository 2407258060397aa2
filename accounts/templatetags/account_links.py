"""``{% come_back %}``: where a log-in or sign-up link of a page brings the visitor back to (its ``?next=``)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.views import safe_next

register = template.Library()


@register.simple_tag(takes_context=True)
def come_back(context: dict[str, Any]) -> str:
    """The page itself, or on an account page (log in, sign up …) the ``next`` that page carries; empty when there is none (the 500 page has no request)."""
    request = context.get("request")
    if request is None:
        return ""
    if request.path.startswith("/accounts/"):
        return safe_next(request) or ""
    return str(request.get_full_path())

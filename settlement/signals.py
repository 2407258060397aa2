"""Signal receivers of the settlement area: a visitor's sheets follow them into their account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .services import attach_anonymous_sheets

SESSION_KEY = "settle_owner"
"""Session entry holding a visitor's random sheet-owner key (it survives the key change at login)."""


@receiver(user_logged_in, dispatch_uid="settlement_attach_sheets")
def attach_sheets_on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Move the session's sheets to the user who just logged in."""
    if request is not None and hasattr(request, "session"):
        attach_anonymous_sheets(request.session.get(SESSION_KEY, ""), user)

"""The one log-in hook: a visitor who logs in or signs up takes everything their session made into the account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .services import merge_session_into_account


@receiver(user_logged_in, dispatch_uid="accounts-merge-session")
def merge_on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Merge the session's player into the account's player."""
    if request is not None and hasattr(request, "session"):
        merge_session_into_account(session=request.session, user=user)

"""Log-in (and sign-up, which logs in) folds the session's anonymous progress into the account."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .services import merge_session_into_account


@receiver(user_logged_in, dispatch_uid="puzzles-merge-session")
def merge_on_login(sender, request, user, **kwargs) -> None:
    """Merge the anonymous player of this session into the account's player."""
    if request is not None and hasattr(request, "session"):
        merge_session_into_account(request.session, user)

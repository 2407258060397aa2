from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: sign-up, log-in, passwords and their reset by e-mail (Django's auth, the site's pages and limits)."""

    name = "accounts"
    verbose_name = "卡五星 accounts"

    def ready(self) -> None:
        """Connect the log-in merge (the one place a visitor's things move into an account)."""
        from . import signals  # noqa: F401
        from .services import merge_town, on_merge

        on_merge(merge_town, uid="accounts-town")

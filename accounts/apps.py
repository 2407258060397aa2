from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: sign-up, log-in, passwords and their reset by e-mail (Django's auth, the site's pages and limits)."""

    name = "accounts"
    verbose_name = "卡五星 accounts"

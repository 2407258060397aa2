from django.apps import AppConfig


class SettlementConfig(AppConfig):
    """The settlement calculator, the game-night score sheets and the settle API."""

    name = "settlement"
    verbose_name = "卡五星 settlement"

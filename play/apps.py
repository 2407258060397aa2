from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Hands against the bots, their stored kwx-hand/1 records, and reviews (复盘)."""

    name = "play"
    verbose_name = "卡五星 play"

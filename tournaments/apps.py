from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Bot tournaments: ``manage.py tournament``, played in one process or as background tasks sharded by wall."""

    name = "tournaments"
    verbose_name = "卡五星 tournaments"

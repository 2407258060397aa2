from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    """What-to-discard drills: the puzzle bank, attempts, ratings, reviews and progress."""

    name = "puzzles"
    verbose_name = "卡五星 drills"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the log-in merge)

from django.apps import AppConfig


class PuzzlesConfig(AppConfig):
    """What-to-discard drills: the puzzle bank, attempts, ratings, reviews and progress."""

    name = "puzzles"
    verbose_name = "卡五星 drills"

    def ready(self) -> None:
        """A visitor's drills follow them into their account (this area's part of the one merge)."""
        from accounts.services import on_merge

        from .services import merge_drills

        on_merge(merge_drills, uid="puzzles-merge-drills")

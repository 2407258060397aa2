from django.apps import AppConfig


class PlayConfig(AppConfig):
    """Hands against the bots, their stored kwx-hand/1 records, and reviews (复盘)."""

    name = "play"
    verbose_name = "卡五星 play"

    def ready(self) -> None:
        from puzzles.services import player_merging

        from .services import merge_play

        def move(sender, source, target, **kwargs) -> None:
            merge_play(source, target)

        player_merging.connect(move, dispatch_uid="play-merge-players", weak=False)

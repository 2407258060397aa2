"""What the tournaments app stores: the shards of tournaments played as background tasks."""

from __future__ import annotations

from django.db import models


class TournamentShard(models.Model):
    """One shard of a tournament (the wall groups ``g`` with ``g mod shards = shard``), played by a task: its outcomes, the bots' decisions and the time it took."""

    lineup = models.CharField(max_length=600)
    """The three seats, comma-separated (bot names or package.module:Class)."""
    seed = models.BigIntegerField()
    hands = models.PositiveIntegerField()
    rules = models.CharField(max_length=40)
    shards = models.PositiveIntegerField()
    shard = models.PositiveIntegerField()
    outcomes = models.JSONField()
    """Per hand, ``kwx.bots.tournament.outcome_json``."""
    decisions = models.JSONField(default=dict)
    cpu_seconds = models.FloatField()
    wall_seconds = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "analysis_tournamentshard"  # made by the analysis app, which held the model before
        constraints = [models.UniqueConstraint(fields=["lineup", "seed", "hands", "rules", "shards", "shard"], name="tournament_shard_once")]

    def __str__(self) -> str:
        return f"{self.lineup} seed {self.seed}, {self.hands} hands: shard {self.shard} of {self.shards}"

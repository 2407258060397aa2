"""The analysis app's background tasks (Django's tasks API, run by ``manage.py db_worker``): a shard of a tournament."""

from __future__ import annotations

from django_tasks import task

from . import tournaments

OFFLINE_PRIORITY = -10
"""Shards of offline work (tournaments, table drills) wait behind the reviews (priority 0), which a player is waiting for."""


@task(priority=OFFLINE_PRIORITY)
def play_tournament_shard(*, lineup: list[str], seed: int, hands: int, rules: str, shard: int, shards: int) -> int:
    """Play and store one shard of a tournament, its walls from every seat (idempotent: may run twice); the hands it played."""
    stored = tournaments.play_shard(lineup=lineup, seed=seed, hands=hands, rules=rules, shard=shard, shards=shards)
    return len(stored.outcomes)

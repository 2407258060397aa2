"""The tournaments app's background tasks (Django's tasks API, run by ``manage.py db_worker``): a shard of a tournament, and the service that queues them."""

from __future__ import annotations

from collections.abc import Sequence

from django_tasks import task

from kwx_site.priorities import OFFLINE_PRIORITY

from .shards import missing_shards, play_shard


@task(priority=OFFLINE_PRIORITY)
def play_tournament_shard(*, lineup: list[str], seed: int, hands: int, rules: str, shard: int, shards: int) -> int:
    """Play and store one shard of a tournament, its walls from every seat (idempotent: may run twice); the hands it played."""
    stored = play_shard(lineup=lineup, seed=seed, hands=hands, rules=rules, shard=shard, shards=shards)
    return len(stored.outcomes)


def enqueue_shards(*, lineup: Sequence[str], seed: int, hands: int, rules: str, shards: int) -> list[int]:
    """Queue a task for each shard not stored yet; the shards queued."""
    missing = missing_shards(lineup=lineup, seed=seed, hands=hands, rules=rules, shards=shards)
    for k in missing:
        play_tournament_shard.enqueue(lineup=list(lineup), seed=seed, hands=hands, rules=rules, shard=k, shards=shards)
    return missing

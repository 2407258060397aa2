"""The puzzles app's background tasks (Django's tasks API, run by ``manage.py db_worker``): a shard of table-drill work, and the service that queues them."""

from __future__ import annotations

from django_tasks import task

from kwx_site.priorities import OFFLINE_PRIORITY

from . import drill_shards


@task(priority=OFFLINE_PRIORITY)
def play_drill_shard(*, job: str, params: str, shard: int, shards: int) -> int:
    """Do and store one shard of a table-drill job (``generate`` or ``confirm``; idempotent: may run twice); the rows it stored."""
    return len(drill_shards.play_shard(job=job, params=params, shard=shard, shards=shards).rows)


def enqueue_shards(*, job: str, params: str, shards: int) -> list[int]:
    """Queue a task for each shard not stored yet; the shards queued."""
    missing = drill_shards.missing_shards(job=job, params=params, shards=shards)
    for k in missing:
        play_drill_shard.enqueue(job=job, params=params, shard=k, shards=shards)
    return missing

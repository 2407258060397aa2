"""Tournaments as background tasks, sharded by wall: the service that plays and stores a shard, the selectors that read the stored ones (docs/bots.md); ``tasks.py`` queues them."""

from __future__ import annotations

from collections.abc import Sequence

from kwx.bots.tournament import Run, decisions_json, merged, outcome_json, run, run_from_json

from .models import TournamentShard


def play_shard(*, lineup: Sequence[str], seed: int, hands: int, rules: str, shard: int, shards: int) -> TournamentShard:
    """Play shard ``shard`` of ``shards`` of a tournament and store it (idempotent: a shard played twice is stored once, with the same outcomes)."""
    played = run(hands, seed, lineup, rules, shard=(shard, shards))
    stored, _ = TournamentShard.objects.update_or_create(
        lineup=",".join(lineup),
        seed=seed,
        hands=hands,
        rules=rules,
        shards=shards,
        shard=shard,
        defaults={
            "outcomes": [outcome_json(o) for o in played.outcomes],
            "decisions": decisions_json(played),
            "cpu_seconds": played.cpu_seconds,
            "wall_seconds": played.wall_seconds,
        },
    )
    return stored


def missing_shards(*, lineup: Sequence[str], seed: int, hands: int, rules: str, shards: int) -> list[int]:
    """The shards of a tournament not stored yet."""
    done = set(TournamentShard.objects.filter(lineup=",".join(lineup), seed=seed, hands=hands, rules=rules, shards=shards).values_list("shard", flat=True))
    return [k for k in range(shards) if k not in done]


def stored_run(*, lineup: Sequence[str], seed: int, hands: int, rules: str, shards: int) -> Run | None:
    """The whole tournament merged from its stored shards, or None while a shard is missing."""
    rows = list(TournamentShard.objects.filter(lineup=",".join(lineup), seed=seed, hands=hands, rules=rules, shards=shards).order_by("shard"))
    if len(rows) < shards:
        return None
    return merged([run_from_json(lineup, seed, rules, r.outcomes, r.cpu_seconds, r.wall_seconds, r.decisions) for r in rows])

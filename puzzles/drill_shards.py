"""Table-drill work as background tasks, sharded like tournaments (docs/drills.md): the service that does and stores a shard, the selectors that read a finished job (``tasks.py`` queues them).

Two jobs: ``generate`` makes drill indices ``0 … indices − 1`` of some kinds (shard ``k`` of ``n``: the indices ``i mod n = k``),
and ``confirm`` confirms the shipped table bank (shard ``k``: its drills at positions ``k, k + n, …``), tied to the bank file's digest so
that a shard never mixes two banks. Any number of ``manage.py db_worker`` processes, on any machines sharing the database, share the shards.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from puzzles.generation.table_bank import TABLE_BANK_PATH, confirm_bank, index_rows, read_table_bank

from .models import DrillShard


def bank_digest(path: Path = TABLE_BANK_PATH) -> str:
    """The digest of a bank file (a ``confirm`` job's params): the shards of one job all confirm the same bank."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:32]


def generation_params(kinds: Sequence[str], indices: int) -> str:
    """A ``generate`` job's params: the kinds and how many indices of each."""
    return f"kinds={','.join(kinds)};indices={indices}"


def _generation(params: str) -> tuple[list[str], int]:
    match = re.fullmatch(r"kinds=([a-z,]+);indices=(\d+)", params)
    if not match:
        raise ValueError(f"not a generation job's params: {params!r}")
    return match[1].split(","), int(match[2])


def play_shard(*, job: str, params: str, shard: int, shards: int) -> DrillShard:
    """Do shard ``shard`` of ``shards`` of a job and store its rows (idempotent: a shard done twice is stored once, with the same rows)."""
    started = time.process_time()
    rows: list[dict[str, Any]]
    if job == "generate":
        kinds, indices = _generation(params)
        rows = index_rows(kinds, indices, (shard, shards))
    elif job == "confirm":
        if params != bank_digest():
            raise ValueError("the table bank changed since this confirmation was queued: queue it again")
        rows, _cpu = confirm_bank(read_table_bank(TABLE_BANK_PATH), shard=(shard, shards))
    else:
        raise ValueError(f"no drill job {job!r} (generate or confirm)")
    stored, _ = DrillShard.objects.update_or_create(job=job, params=params, shards=shards, shard=shard, defaults={"rows": rows, "cpu_seconds": time.process_time() - started})
    return stored


def missing_shards(*, job: str, params: str, shards: int) -> list[int]:
    """The shards of a job not stored yet."""
    done = set(DrillShard.objects.filter(job=job, params=params, shards=shards).values_list("shard", flat=True))
    return [k for k in range(shards) if k not in done]


def stored_rows(*, job: str, params: str, shards: int) -> tuple[list[dict[str, Any]], float] | None:
    """Every row of a finished job (shard by shard) and the CPU seconds its shards took, or None while a shard is missing."""
    done = list(DrillShard.objects.filter(job=job, params=params, shards=shards).order_by("shard"))
    if len(done) < shards:
        return None
    return [row for s in done for row in s.rows], sum(s.cpu_seconds for s in done)

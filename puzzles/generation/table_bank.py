"""The bank of table drills (碰不碰, 杠不杠, 亮不亮, defence): ``puzzles/data/table_bank.json.gz``.

Each record is ``kwx.drills.table_drills.build(kind, index)``: drill ``index`` of a kind is made
from its own seeds, so the bank is the records of indices 0, 1, … of each kind until ``count``
are kept (an index whose deals give no clear decision is skipped). The work is spread over
worker processes by index; the result does not depend on how many there are. A cache file
(one JSON record a line) lets an interrupted run go on where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any

from kwx.drills.table_drills import KINDS, build

TABLE_BANK_PATH = Path(__file__).resolve().parent.parent / "data" / "table_bank.json.gz"
SPARE = 1.0
"""Indices tried per wanted drill in a round (a few give none: the next round tries more)."""


def _build(job: tuple[str, int]) -> tuple[str, int, dict[str, Any] | None, float]:
    started = time.process_time()
    record = build(*job)
    return job[0], job[1], record, time.process_time() - started


@dataclass
class TableStats:
    """What a run did: drills kept and indices given up per kind, and the CPU seconds spent."""

    kept: dict[str, int] = field(default_factory=dict)
    empty: dict[str, int] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0


def _read_cache(cache: Path | None, stats: TableStats) -> dict[tuple[str, int], dict[str, Any] | None]:
    done: dict[tuple[str, int], dict[str, Any] | None] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["kind"] in stats.cpu:
                done[(row["kind"], row["index"])] = row["record"]
                stats.cpu[row["kind"]] += row.get("cpu", 0.0)
    return done


def generate_table_drills(
    count: int | Mapping[str, int],
    kinds: Iterable[str] = KINDS,
    jobs: int = 1,
    cache: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[dict[str, Any]], TableStats]:
    """``count`` drills of each kind (or ``count[kind]``), the records of the lowest indices that give one (deterministic)."""
    kinds = tuple(kinds)
    wanted_of = dict(count) if isinstance(count, Mapping) else dict.fromkeys(kinds, count)
    stats = TableStats(kept=dict.fromkeys(kinds, 0), empty=dict.fromkeys(kinds, 0), cpu=dict.fromkeys(kinds, 0.0))
    done = _read_cache(cache, stats)
    started = time.perf_counter()
    out = cache.open("a", encoding="utf-8") if cache is not None else None
    try:
        with ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else _Inline() as pool:
            while True:
                rounds = []
                for kind in kinds:
                    have = sum(1 for (k, _i), r in done.items() if k == kind and r is not None)
                    tried = max((i for (k, i) in done if k == kind), default=-1) + 1
                    short = wanted_of[kind] - have
                    rounds.append([(kind, i) for i in range(tried, tried + max(1, int(short * SPARE)))] if short > 0 else [])
                # the kinds take turns, so a run stopped early has as many of each as it could
                wanted = [job for turn in zip_longest(*rounds) for job in turn if job is not None]
                if not wanted:
                    break
                for kind, index, record, cpu in pool.map(_build, wanted, chunksize=1):
                    done[(kind, index)] = record
                    stats.cpu[kind] += cpu
                    if out is not None:
                        out.write(json.dumps({"kind": kind, "index": index, "cpu": round(cpu, 3), "record": record}, ensure_ascii=False) + "\n")
                        out.flush()
                    if progress:
                        progress(1)
    finally:
        if out is not None:
            out.close()
    stats.seconds = time.perf_counter() - started
    records = []
    for kind in kinds:
        indices = sorted(i for (k, i) in done if k == kind)
        kept = [done[(kind, i)] for i in indices if done[(kind, i)] is not None][: wanted_of[kind]]
        stats.kept[kind] = len(kept)
        last = kept[-1]["source"]["index"] if kept else -1
        stats.empty[kind] = sum(1 for i in indices if i <= last and done[(kind, i)] is None)
        records += kept  # type: ignore[arg-type]
    return records, stats


class _Inline:
    """A stand-in for the process pool when one job is asked for (same order, same results)."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any], chunksize: int = 1) -> Iterable[Any]:
        return map(fn, items)

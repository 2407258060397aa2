"""The bank of table drills (碰不碰, 杠不杠, 亮不亮, defence): ``puzzles/data/table_bank.json.gz``.

Each record is ``kwx.drills.confirm.build(kind, index)``: drill ``index`` of a kind is selected
from its own seeds and confirmed on a second set of worlds, so the bank is the records of indices
0, 1, … of each kind until ``count`` are kept (an index that gives no drill is skipped). The work is spread over
worker processes by index; the result does not depend on how many there are. A cache file
(one JSON record a line) lets an interrupted run go on where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import zip_longest
from pathlib import Path
from typing import Any, TextIO

from kwx.drills.confirm import build, confirm
from kwx.drills.record import TableDrill
from kwx.drills.table_drills import KINDS
from kwx.processes import in_processes
from puzzles.generation.bank import read_bank

TABLE_BANK_PATH = Path(__file__).resolve().parent.parent / "data" / "table_bank.json.gz"
SPARE = 1.0
"""Indices tried per wanted drill in a round (a few give none: the next round tries more)."""


def read_table_bank(path: Path = TABLE_BANK_PATH) -> list[TableDrill]:
    """The drills of a table bank file."""
    return [TableDrill.from_json(record) for record in read_bank(path)]


def _build(job: tuple[str, int]) -> tuple[str, int, TableDrill | None, float]:
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


def _read_cache(cache: Path | None, stats: TableStats) -> dict[tuple[str, int], TableDrill | None]:
    done: dict[tuple[str, int], TableDrill | None] = {}
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["kind"] in stats.cpu:
                done[(row["kind"], row["index"])] = _drill(row["record"])
                stats.cpu[row["kind"]] += row.get("cpu", 0.0)
    return done


def generate_table_drills(
    count: int | Mapping[str, int],
    kinds: Iterable[str] = KINDS,
    jobs: int = 1,
    cache: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[TableDrill], TableStats]:
    """``count`` drills of each kind (or ``count[kind]``), the records of the lowest indices that give one (deterministic)."""
    kinds = tuple(kinds)
    wanted_of = dict(count) if isinstance(count, Mapping) else dict.fromkeys(kinds, count)
    stats = TableStats(kept=dict.fromkeys(kinds, 0), empty=dict.fromkeys(kinds, 0), cpu=dict.fromkeys(kinds, 0.0))
    done = _read_cache(cache, stats)
    started = time.perf_counter()
    out = cache.open("a", encoding="utf-8") if cache is not None else None
    try:
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
            for kind, index, record, cpu in _pooled(_build, wanted, jobs, out, _index_row, progress):
                done[(kind, index)] = record
                stats.cpu[kind] += cpu
    finally:
        if out is not None:
            out.close()
    stats.seconds = time.perf_counter() - started
    return assemble(done, wanted_of, kinds, stats), stats


def assemble(done: Mapping[tuple[str, int], TableDrill | None], wanted_of: Mapping[str, int], kinds: Iterable[str], stats: TableStats) -> list[TableDrill]:
    """The bank from the indices tried (``done``: kind and index to drill, None when the index gave none): per kind the ``wanted_of[kind]`` lowest kept."""
    records: list[TableDrill] = []
    for kind in kinds:
        indices = sorted(i for (k, i) in done if k == kind)
        kept = [r for r in (done[(kind, i)] for i in indices) if r is not None][: wanted_of[kind]]
        stats.kept[kind] = len(kept)
        last = kept[-1].source.index if kept else -1
        stats.empty[kind] = sum(1 for i in indices if i <= last and done[(kind, i)] is None)
        records += kept
    return records


def index_rows(kinds: Iterable[str], indices: int, shard: tuple[int, int]) -> list[dict[str, Any]]:
    """Drills ``i`` < ``indices`` of each kind with ``i mod n = k`` (shard ``k`` of ``n``, a background task's share of a bank): one row each, as the cache stores it."""
    k, n = shard
    rows = []
    for kind in kinds:
        for index in range(k, indices, n):
            rows.append(_index_row(_build((kind, index))))
    return rows


def _index_row(result: tuple[str, int, TableDrill | None, float]) -> dict[str, Any]:
    """A made drill index as the generation cache stores it."""
    kind, index, record, cpu = result
    return {"kind": kind, "index": index, "cpu": round(cpu, 3), "record": None if record is None else record.to_json()}


def _drill(record: dict[str, Any] | None) -> TableDrill | None:
    """A drill from a cache row's record (None: the index gave none)."""
    return None if record is None else TableDrill.from_json(record)


def drills_of(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, int], TableDrill | None]:
    """The drills of generation rows (as ``index_rows`` makes them), by kind and index."""
    return {(row["kind"], row["index"]): _drill(row["record"]) for row in rows}


def _pooled(fn: Callable[[Any], Any], items: list[Any], jobs: int, out: TextIO | None, row_of: Callable[[Any], dict[str, Any]], progress: Callable[[int], None] | None) -> Iterator[Any]:
    """``fn`` of each item, in order, over ``jobs`` processes; each result's row appended to the cache ``out`` as it comes."""
    for result in in_processes(fn, items, jobs):
        if out is not None:
            out.write(json.dumps(row_of(result), ensure_ascii=False, sort_keys=True) + "\n")
            out.flush()
        if progress:
            progress(1)
        yield result


def _confirm(record: TableDrill) -> tuple[dict[str, Any], float]:
    started = time.process_time()
    done = confirm(record)
    confirmed = None if done.record is None else done.record.to_json()
    row = {"key": done.key, "kind": done.kind, "status": done.status, "before": sorted(done.before), "accepted": sorted(done.accepted), "record": confirmed}
    return row, time.process_time() - started


def confirm_bank(
    records: list[TableDrill],
    jobs: int = 1,
    cache: Path | None = None,
    shard: tuple[int, int] = (0, 1),
    progress: Callable[[int], None] | None = None,
) -> tuple[list[dict[str, Any]], float]:
    """Confirm the bank's drills (``kwx.drills.confirm``): one row per drill of shard ``k`` of ``n`` (``status``, answers selected and accepted, the
    record or None), in bank order, and the CPU seconds spent. Rows already in the files of the ``cache`` folder are read, not played again;
    new ones are appended to its file of this shard, so shards run apart (on other machines) share one folder and a stopped run goes on."""
    k, n = shard
    done: dict[str, dict[str, Any]] = {}
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        for part in sorted(cache.glob("*.jsonl")):
            for line in part.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                done[row["key"]] = row
    mine = [r for i, r in enumerate(records) if i % n == k]
    todo = [r for r in mine if r.key not in done]
    cpu = 0.0
    out = (cache / f"shard-{k}-of-{n}.jsonl").open("a", encoding="utf-8") if cache is not None else None
    try:
        for row, spent in _pooled(_confirm, todo, jobs, out, lambda result: result[0], progress):
            done[row["key"]] = row
            cpu += spent
    finally:
        if out is not None:
            out.close()
    return [done[r.key] for r in mine], cpu

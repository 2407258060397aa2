"""``manage.py confirm_table_drills``: every shipped table drill confirmed on its own second set of worlds; the bank rewritten from what holds (docs/drills.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from kwx.drills.confirm import CHAIN, CONFIRM_WORLDS, POLICY
from kwx.drills.record import TableDrill
from kwx.drills.table_drills import KINDS
from puzzles import drill_shards, tasks
from puzzles.generation.bank import read_meta, write_bank
from puzzles.generation.table_bank import TABLE_BANK_PATH, confirm_bank, read_table_bank


class Command(BaseCommand):
    help = (
        "Confirm the table drills on their confirming worlds (kwx.drills.confirm): per kind how many hold, are re-answered or leave the bank; "
        "with --write, the bank rewritten from them (then `manage.py load_banks`). CPU-heavy: --jobs, or --shard k/n with a shared --cache folder."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--jobs", type=int, default=1, help="worker processes (the figures do not depend on it)")
        parser.add_argument("--shard", default="0/1", help="k/n: only the drills at positions k, k + n, … of the bank (run the shards apart, e.g. on several machines)")
        parser.add_argument("--cache", type=Path, default=None, help="a folder of confirmed drills (one JSON a line per shard): done drills are read, not played again")
        parser.add_argument("--write", action="store_true", help="rewrite the bank from the confirmed drills (needs every shard done)")
        parser.add_argument("--bank", type=Path, default=TABLE_BANK_PATH, help="the bank to read, and with --write to write")
        parser.add_argument("--tasks", type=int, default=None, help="queue the confirmation as N background tasks (manage.py db_worker runs them); with --report, the figures of the stored shards")
        parser.add_argument("--report", action="store_true", help="with --tasks: the figures of the stored shards (and with --write, the bank written from them)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **opts: Any) -> None:
        match = re.fullmatch(r"(\d+)/(\d+)", opts["shard"])
        if not match or not 0 <= int(match[1]) < int(match[2]):
            raise CommandError(f"--shard takes k/n with 0 ≤ k < n, not {opts['shard']!r}")
        shard = (int(match[1]), int(match[2]))
        if opts["write"] and shard != (0, 1):
            raise CommandError("--write rewrites the whole bank: run it without --shard (with the --cache of the shards)")
        if not 1 <= opts["jobs"] <= 64:
            raise CommandError("--jobs must be from 1 to 64")
        records = read_table_bank(opts["bank"])
        if opts["tasks"] is not None:
            rows, cpu = self._tasks(records, opts)
            if not rows:
                return
        else:
            if opts["report"]:
                raise CommandError("--report reads the shards of --tasks N: give --tasks too")
            mine = len(records[shard[0] :: shard[1]])
            with tqdm(total=mine, unit="drill", disable=opts["no_progress"], file=self.stderr._out) as bar:
                rows, cpu = confirm_bank(records, jobs=opts["jobs"], cache=opts["cache"], shard=shard, progress=bar.update)
        for kind in KINDS:
            mine_rows = [r for r in rows if r["kind"] == kind]
            if not mine_rows:
                continue
            count = {s: sum(r["status"] == s for r in mine_rows) for s in ("holds", "re-answered", "retired")}
            shown = [r["record"]["selection"]["diff"] for r in mine_rows if r["record"]]
            fresh = [r["record"]["margin"]["diff"] for r in mine_rows if r["record"]]
            margins = f"; margin of those kept: {sum(shown) / len(shown):.2f} on their selecting worlds, {sum(fresh) / len(fresh):.2f} on their confirming ones" if shown else ""
            self.stdout.write(f"{kind}: {len(mine_rows)} drills — {count['holds']} hold, {count['re-answered']} re-answered, {count['retired']} leave the bank{margins}")
        self.stdout.write(f"{len(rows)} drills confirmed on {CONFIRM_WORLDS} worlds each (rollouts by {POLICY}), {cpu / 60:.1f} CPU-minutes spent")
        if opts["write"]:
            kept = [r["record"] for r in rows if r["record"] is not None]
            meta = read_meta(opts["bank"])
            meta["counts"] = {kind: sum(1 for r in kept if r["kind"] == kind) for kind in meta["kinds"]}
            meta["confirm"] = {"worlds": CONFIRM_WORLDS, "policy": POLICY, "chain": list(CHAIN)}
            write_bank(kept, opts["bank"], meta)
            self.stdout.write(f"{len(kept)} drills written to {opts['bank']} ({len(rows) - len(kept)} left the bank); run `manage.py load_banks` to bring a database up to it")

    def _tasks(self, records: list[TableDrill], opts: dict[str, Any]) -> tuple[list[dict[str, Any]], float]:
        """Queue the shards not stored yet (nothing to report: empty rows), or (``--report``) the stored shards' rows in bank order."""
        shards = opts["tasks"]
        if not 1 <= shards <= len(records):
            raise CommandError(f"--tasks must be from 1 to {len(records)} (the drills of the bank)")
        if opts["bank"].resolve() != TABLE_BANK_PATH.resolve() or opts["shard"] != "0/1" or opts["cache"] is not None:
            raise CommandError("--tasks confirms the shipped bank, which the workers read: no --bank, --shard or --cache with it")
        key = {"job": "confirm", "params": drill_shards.bank_digest(), "shards": shards}
        if not opts["report"]:
            if opts["write"]:
                raise CommandError("--write with --tasks needs --report (the bank is written from the stored shards)")
            queued = tasks.enqueue_shards(**key)
            self.stdout.write(f"queued {len(queued)} of {shards} shards ({shards - len(queued)} already stored); run manage.py db_worker, then this command with --report")
            return [], 0.0
        stored = drill_shards.stored_rows(**key)
        if stored is None:
            raise CommandError(f"shards {drill_shards.missing_shards(**key)} of {shards} are not stored yet (are workers running?)")
        rows, cpu = stored
        order = {r.key: i for i, r in enumerate(records)}
        return sorted(rows, key=lambda r: order[r["key"]]), cpu

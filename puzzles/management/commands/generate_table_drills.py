"""``manage.py generate_table_drills``: the table drills' bank (碰不碰, 杠不杠, 亮不亮, defence), rebuilt byte for byte."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from kwx.drills.confirm import CHAIN, CONFIRM_WORLDS, POLICY
from kwx.drills.table_drills import KINDS, MAX_ATTEMPTS, REFUSAL_ATTEMPTS, REFUSALS_FROM, RULE, SHARP_DEFENCE_FROM, SHARP_SAFE
from puzzles import drill_shards, tasks
from puzzles.generation.bank import write_bank
from puzzles.generation.table_bank import TABLE_BANK_PATH, TableStats, assemble, drills_of, generate_table_drills

DEFAULT_COUNT = 300


class Command(BaseCommand):
    help = "Generate the table drills from self-play, each verified by paired rollouts (docs/drills.md). CPU-heavy: run it with nice."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help=f"Drills of each kind (default {DEFAULT_COUNT}).")
        parser.add_argument("--kinds", default=",".join(KINDS), help=f"Comma-separated kinds (default {','.join(KINDS)}).")
        parser.add_argument("--counts", default="", help="Drills of some kinds instead of --count, e.g. pong=200,defence=150 (the shipped bank's meta says which).")
        parser.add_argument("--jobs", type=int, default=1, help="Worker processes (the bank is the same for any number).")
        parser.add_argument("--cache", type=Path, default=None, help="A file of finished drills, one JSON a line: a stopped run goes on from it.")
        parser.add_argument("--output", type=Path, default=TABLE_BANK_PATH, help="Where to write the bank.")
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")
        parser.add_argument("--tasks", type=int, default=None, help="Queue the work as N background tasks (manage.py db_worker runs them), over --indices indices of each kind.")
        parser.add_argument("--indices", type=int, default=None, help="With --tasks: drill indices 0 … N-1 of each kind are made (enough that each kind keeps its count).")
        parser.add_argument("--report", action="store_true", help="With --tasks: write the bank from the stored shards.")

    def handle(self, *args, count: int, kinds: str, counts: str, jobs: int, cache: Path | None, output: Path, no_progress: bool, **options) -> None:
        chosen = [k for k in kinds.split(",") if k]
        unknown = [k for k in chosen if k not in KINDS]
        if unknown:
            raise CommandError(f"Unknown kind {unknown[0]!r}: use {', '.join(KINDS)}.")
        wanted = dict.fromkeys(chosen, count)
        for part in filter(None, counts.split(",")):
            kind, _sep, number = part.partition("=")
            if kind not in wanted or not number.isdecimal():
                raise CommandError(f"--counts takes kind=number for the kinds chosen, not {part!r}.")
            wanted[kind] = int(number)
        if options["tasks"] is not None:
            done = self._tasks(chosen, options)
            if done is None:
                return
            stats = TableStats(kept=dict.fromkeys(chosen, 0), empty=dict.fromkeys(chosen, 0), cpu=dict.fromkeys(chosen, 0.0))
            for row in done:
                stats.cpu[row["kind"]] += row["cpu"]
            records = assemble(drills_of(done), wanted, chosen, stats)
            if short := [k for k in chosen if stats.kept[k] < wanted[k]]:
                raise CommandError(f"{', '.join(f'{k}: {stats.kept[k]} of {wanted[k]}' for k in short)} drills in {options['indices']} indices: queue more --indices")
        elif options["report"] or options["indices"] is not None:
            raise CommandError("--report and --indices go with --tasks N")
        else:
            with tqdm(unit="index", disable=no_progress, file=self.stderr._out) as bar:
                records, stats = generate_table_drills(wanted, chosen, jobs=jobs, cache=cache, progress=bar.update)
        meta = {
            "counts": wanted,
            "kinds": chosen,
            "rule": asdict(RULE),
            "max_attempts": MAX_ATTEMPTS,
            "refusals": {"from": REFUSALS_FROM, "attempts": REFUSAL_ATTEMPTS},
            "sharp_defence": {"from": SHARP_DEFENCE_FROM, "safe": SHARP_SAFE},
            "confirm": {"worlds": CONFIRM_WORLDS, "policy": POLICY, "chain": list(CHAIN)},
        }
        write_bank([r.to_json() for r in records], output, meta)
        for kind in chosen:
            self.stdout.write(f"{kind}: {stats.kept[kind]} drills ({stats.empty[kind]} indices gave none), {stats.cpu[kind] / 60:.1f} CPU-minutes")
        wall = "played by the task workers" if options["tasks"] is not None else f"in {stats.seconds / 60:.1f} minutes of wall time"
        self.stdout.write(f"{len(records)} drills {wall}, {sum(stats.cpu.values()) / 60:.1f} CPU-minutes, written to {output}")

    def _tasks(self, kinds: list[str], options: dict) -> list[dict] | None:
        """Queue the shards not stored yet (None), or (``--report``) every stored row."""
        shards, indices = options["tasks"], options["indices"]
        if indices is None or indices < 1:
            raise CommandError("--tasks needs --indices N (N ≥ 1): the drill indices of each kind to make")
        if not 1 <= shards <= indices:
            raise CommandError(f"--tasks must be from 1 to {indices} (the indices of each kind)")
        key = {"job": "generate", "params": drill_shards.generation_params(kinds, indices), "shards": shards}
        if not options["report"]:
            queued = tasks.enqueue_shards(**key)
            self.stdout.write(f"queued {len(queued)} of {shards} shards ({shards - len(queued)} already stored); run manage.py db_worker, then this command with --report")
            return None
        stored = drill_shards.stored_rows(**key)
        if stored is None:
            raise CommandError(f"shards {drill_shards.missing_shards(**key)} of {shards} are not stored yet (are workers running?)")
        return stored[0]

"""``manage.py recheck_table_drills``: play a sample of the table-drill bank out on fresh worlds and say which drills keep their answer set (issue 24 item 6; docs/drills.md)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from kwx.bots.registry import UnknownBot, policy_factory
from kwx.drills.confirm import recheck, summary_lines
from puzzles.generation.table_bank import TABLE_BANK_PATH, read_table_bank

KINDS = ("pong", "kong", "declare", "defence")


class Command(BaseCommand):
    help = "Re-check table drills on fresh worlds (e.g. --per-kind 25 --worlds 256 --seed 1): per drill whether its answer set holds, and a summary per kind."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--per-kind", type=int, default=25, help="drills of each kind, spread evenly over the bank")
        parser.add_argument("--worlds", type=int, default=256, help="fresh worlds per drill (every choice on each)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the fresh worlds (another seed: another independent set)")
        parser.add_argument("--policy", default="strong", help="the rollout policy: a bot name or package.module:Class")
        parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")

    def handle(self, *args: Any, **opts: Any) -> None:
        kinds = [k.strip() for k in opts["kinds"].split(",")]
        if unknown := [k for k in kinds if k not in KINDS]:
            raise CommandError(f"--kinds: {unknown} are not table-drill kinds ({', '.join(KINDS)})")
        if not 1 <= opts["per_kind"] <= 1000 or not 2 <= opts["worlds"] <= 10_000:
            raise CommandError("--per-kind must be from 1 to 1000 and --worlds from 2 to 10000")
        try:
            policy = policy_factory(opts["policy"])
        except UnknownBot as exc:
            raise CommandError(f"--policy: {exc}") from exc
        records = read_table_bank(TABLE_BANK_PATH)
        checks = []
        start = time.process_time()
        for kind in kinds:
            mine = [r for r in records if r.kind == kind]
            step = max(1, len(mine) // opts["per_kind"])
            for record in mine[::step][: opts["per_kind"]]:
                check = recheck(record, opts["worlds"], opts["seed"], policy)
                diff, se = check.margin()
                self.stdout.write(
                    f"{check.key}: {'holds' if check.holds else 'CHANGES'} — bank accepts {sorted(check.shown)}, fresh worlds {sorted(check.accepted)}; "
                    f"margin shown {check.margin_shown:.2f}, fresh {diff:.2f} ± {se:.2f}" + ("; its no-kong discard declares 亮倒" if check.hidden_declaration else "")
                )
                checks.append(check)
        for line in summary_lines(checks):
            self.stdout.write(line)
        self.stdout.write(f"{len(checks)} drills, {opts['worlds']} fresh worlds each (seed {opts['seed']}, rollouts by {opts['policy']}), {time.process_time() - start:.0f} CPU s")

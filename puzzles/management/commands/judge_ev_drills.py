"""``manage.py judge_ev_drills``: judge the 期望值 drills at the table (issue 36; docs/drills.md): each kept with the table's figures, or out of the bank."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from puzzles.generation.bank import read_bank, read_meta, write_bank
from puzzles.generation.ev import EV_BANK_PATH, TABLE_POLICY, TABLE_WORLDS, judge_at_table


class Command(BaseCommand):
    help = "Play each 期望值 drill's discards out at the table (the judge in every seat): keep it with the table's figures when the table agrees, else it leaves the bank (with --write)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--keys", default="", help="comma-separated keys (default: every drill not judged yet)")
        parser.add_argument("--limit", type=int, default=0, help="at most this many drills this run (0: all)")
        parser.add_argument("--worlds", type=int, default=TABLE_WORLDS, help="worlds per drill, every discard on each")
        parser.add_argument("--write", action="store_true", help="rewrite the bank: drills judged keep the table's figures, the others judged leave it")

    def handle(self, *args: Any, **opts: Any) -> None:
        if not 2 <= opts["worlds"] <= 10_000:
            raise CommandError("--worlds must be from 2 to 10000")
        records = read_bank(EV_BANK_PATH)
        keys = [k.strip() for k in opts["keys"].split(",") if k.strip()]
        if unknown := sorted(set(keys) - {r["key"] for r in records}):
            raise CommandError(f"--keys: no 期望值 drill {', '.join(unknown)}")
        todo = [r for r in records if (r["key"] in keys if keys else "table" not in r["ev"])]
        if opts["limit"]:
            todo = todo[: opts["limit"]]
        judged: dict[str, dict[str, Any] | None] = {}
        start = time.process_time()
        for record in todo:
            judged[record["key"]] = done = judge_at_table(record, opts["worlds"])
            if done is None:
                self.stdout.write(f"{record['key']}: leaves the bank — at the table another discard is as good, or the plain best is not clearly worse")
            else:
                table = done["ev"]["table"]
                self.stdout.write(
                    f"{record['key']}: stays — at the table {table['options'][0]['discard']} {table['options'][0]['mean']:+.2f}, ahead of the plain best by {table['margin']['diff']:.2f} ± {table['margin']['se']:.2f}"
                )
        kept = sum(r is not None for r in judged.values())
        self.stdout.write(f"{len(judged)} judged ({opts['worlds']} worlds each, {TABLE_POLICY} in every seat): {kept} stay, {len(judged) - kept} leave; {time.process_time() - start:.0f} CPU s")
        if opts["write"] and judged:
            out = [judged[r["key"]] if r["key"] in judged else r for r in records]
            meta = read_meta(EV_BANK_PATH)
            left = sorted({*meta.get("table", {}).get("left", ()), *(key for key, r in judged.items() if r is None)})
            meta["table"] = {"policy": TABLE_POLICY, "worlds": opts["worlds"], "left": left}
            write_bank([r for r in out if r is not None], EV_BANK_PATH, meta)
            self.stdout.write(f"wrote {EV_BANK_PATH.name}")

"""``manage.py tournament``: bots play hands on seeded walls; points, rates and speed per bot."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from kwx.bots.registry import BOTS, UnknownBot, policy_factory
from kwx.bots.tournament import BotFailed, Paired, Run, ending_lines, paired_lines, paired_run, report, run, summarise
from kwx.rules import PRESETS
from tournaments.shards import missing_shards, stored_run
from tournaments.tasks import enqueue_shards


class Command(BaseCommand):
    help = (
        "Play bot hands on seeded walls, each wall from every seat (e.g. --hands 20000 --seed 1 "
        "--seats strong,basic,basic) and print points per hand with a 95 % interval, win, deal-in and 亮倒 rates, speed."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=300, help="hands to play (a multiple of 3 plays every wall from every seat)")
        parser.add_argument("--seed", type=int, default=1, help="seed of the walls")
        parser.add_argument("--seats", default="strong,basic,basic", help=f"three bots, comma-separated: {', '.join(sorted(BOTS))}, or package.module:Class (a Policy, docs/bots.md)")
        parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
        parser.add_argument("--records", default=None, help="write every hand's kwx-hand/1 record to this file, one JSON per line")
        parser.add_argument("--jobs", type=int, default=1, help="processes to play in (the figures do not depend on it)")
        parser.add_argument(
            "--paired",
            default=None,
            metavar="BOT",
            help="also play the same walls with BOT in the first seat's place and print the first bot's gain over it per wall group (same seats, same walls)",
        )
        parser.add_argument(
            "--tasks",
            type=int,
            default=None,
            metavar="N",
            help="play as N background tasks sharded by wall (manage.py db_worker runs them, on any number of workers); then the same command with --report prints the figures",
        )
        parser.add_argument("--endings", action="store_true", help="also print the first bot's hands by how each ended for it (won, dealt in, another won, drawn; hidden or 亮倒) with their money")
        parser.add_argument("--report", action="store_true", help="with --tasks: print the figures of the stored shards (an error naming the shards still missing)")

    def handle(self, *args: Any, **opts: Any) -> None:
        seats = [s.strip() for s in opts["seats"].split(",")]
        if len(seats) != 3:
            raise CommandError(f"--seats needs three bots (of {', '.join(sorted(BOTS))}, or package.module:Class); got {opts['seats']!r}")
        for seat in seats:
            try:
                policy_factory(seat)
            except UnknownBot as exc:
                raise CommandError(f"--seats: {exc}") from exc
        if opts["hands"] < 1:
            raise CommandError("--hands must be at least 1")
        if not 1 <= opts["jobs"] <= 64:
            raise CommandError("--jobs must be from 1 to 64")
        if opts["paired"] is not None:
            try:
                policy_factory(opts["paired"])
            except UnknownBot as exc:
                raise CommandError(f"--paired: {exc}") from exc
        if opts["tasks"] is not None:
            self._tasks(seats, opts)
            return
        if opts["report"]:
            raise CommandError("--report reads the shards of --tasks N: give --tasks too")
        if opts["paired"] is not None:
            if opts["records"]:
                raise CommandError("--records cannot be used with --paired (two runs play the same walls)")
            try:
                paired = paired_run(opts["hands"], opts["seed"], seats, opts["paired"], opts["rules"], opts["jobs"])
            except BotFailed as exc:
                raise CommandError(f"--seats: {exc}") from exc
            for line in paired_lines(paired):
                self.stdout.write(line)
            self._endings(opts, paired.first, paired.second)
            return
        try:
            result = run(opts["hands"], opts["seed"], seats, opts["rules"], opts["jobs"], keep_records=bool(opts["records"]))
        except BotFailed as exc:
            raise CommandError(f"--seats: {exc}") from exc
        if opts["records"]:
            with open(opts["records"], "w", encoding="utf-8") as out:
                for outcome in result.outcomes:
                    out.write(json.dumps(outcome.record, ensure_ascii=False) + "\n")
        for line in report(result, summarise(result)):
            self.stdout.write(line)
        self._endings(opts, result)

    def _endings(self, opts: dict[str, Any], *runs: Run) -> None:
        """With ``--endings``: each run's first bot by how its hands ended."""
        if opts["endings"]:
            for done in runs:
                for line in ending_lines(done):
                    self.stdout.write(line)

    def _tasks(self, seats: list[str], opts: dict[str, Any]) -> None:
        """Queue the shards not stored yet, or (``--report``) print the figures of the stored ones."""
        shards, hands = opts["tasks"], opts["hands"]
        groups = (hands + 2) // 3
        if not 1 <= shards <= groups:
            raise CommandError(f"--tasks must be from 1 to {groups} (the walls of {hands} hands)")
        if opts["records"]:
            raise CommandError("--records cannot be used with --tasks (the shards store no records)")
        lineups = [seats] + ([[opts["paired"], *seats[1:]]] if opts["paired"] is not None else [])
        key = {"seed": opts["seed"], "hands": hands, "rules": opts["rules"], "shards": shards}
        if not opts["report"]:
            for lineup in lineups:
                queued = enqueue_shards(lineup=lineup, **key)
                self.stdout.write(f"seats {','.join(lineup)}: queued {len(queued)} of {shards} shards ({shards - len(queued)} already stored)")
            self.stdout.write("run manage.py db_worker (any number, on any machine sharing the database), then this command with --report")
            return
        runs = []
        for lineup in lineups:
            done = stored_run(lineup=lineup, **key)
            if done is None:
                missing = missing_shards(lineup=lineup, **key)
                raise CommandError(f"seats {','.join(lineup)}: shards {missing} of {shards} are not stored yet (are workers running?)")
            runs.append(done)
        lines = paired_lines(Paired(runs[0], runs[1])) if len(runs) == 2 else report(runs[0], summarise(runs[0]))
        for line in lines:
            self.stdout.write(line)
        self._endings(opts, *runs)

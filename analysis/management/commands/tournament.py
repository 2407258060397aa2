"""``manage.py tournament``: bots play hands on seeded walls; points, rates and speed per bot."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from kwx.bots.registry import BOTS, UnknownBot, policy_factory
from kwx.bots.tournament import BotFailed, paired_lines, paired_run, report, run, summarise
from kwx.hand.rules import PRESETS


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
            if opts["records"]:
                raise CommandError("--records cannot be used with --paired (two runs play the same walls)")
            try:
                paired = paired_run(opts["hands"], opts["seed"], seats, opts["paired"], opts["rules"], opts["jobs"])
            except BotFailed as exc:
                raise CommandError(f"--seats: {exc}") from exc
            for line in paired_lines(paired):
                self.stdout.write(line)
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

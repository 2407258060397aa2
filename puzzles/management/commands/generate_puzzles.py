"""``manage.py generate_puzzles``: build the puzzle bank from simulated play (reproducible from a seed)."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from kwx.rules import town_presets
from puzzles.generation.bank import BANK_PATH, generate, town_bank_path, write_bank
from puzzles.generation.filters import MAX_ACCEPTED, MAX_SHANTEN, MIN_PLAUSIBLE, READY_MARGIN, WIDTH_MARGIN

DEFAULT_SEED = 20261130


class Command(BaseCommand):
    help = "Generate 何切 puzzles and 算番 quiz items from simulated play into a gzip'd JSON bank: the mixed legacy presets, or with --rules one town preset's bank (puzzles/data/bank_<town>.json.gz)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"Random seed (default {DEFAULT_SEED}).")
        parser.add_argument("--count", type=int, default=2400, help="何切 puzzles to keep (default 2400).")
        parser.add_argument("--quiz", type=int, default=600, help="算番 quiz items to make (default 600).")
        parser.add_argument("--rules", choices=town_presets(), help="A town preset: deal, judge and count under its rules (default: the legacy presets mixed).")
        parser.add_argument("--output", type=Path, help=f"Where to write the bank (default {BANK_PATH.name}, or bank_<town>.json.gz with --rules).")
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")

    def handle(self, *args, seed: int, count: int, quiz: int, rules: str | None, output: Path | None, no_progress: bool, **options) -> None:
        if count < 0 or quiz < 0:
            raise CommandError("--count and --quiz are numbers of items: 0 or more.")
        output = output or (town_bank_path(rules) if rules else BANK_PATH)
        cpu = time.process_time()
        with tqdm(total=count, unit="puzzle", disable=no_progress, file=self.stderr._out) as bar:
            records, stats = generate(seed, count, quiz, progress=bar.update, rules=rules)
        cpu = time.process_time() - cpu
        meta = {
            "seed": seed,
            "count": count,
            "quiz": quiz,
            **({"rules": rules} if rules else {}),
            "filters": {
                "max_shanten": MAX_SHANTEN,
                "max_accepted": MAX_ACCEPTED,
                "min_plausible": MIN_PLAUSIBLE,
                "ready_margin": READY_MARGIN,
                "width_margin": WIDTH_MARGIN,
            },
        }
        write_bank(records, output, meta)
        self.stdout.write(
            f"{stats.kept} puzzles and {stats.quiz} quiz items from {stats.deals} deals "
            f"({stats.positions} positions analysed once each, {stats.duplicates} duplicates skipped, "
            f"{stats.rejected.get('kong', 0)} decisions that also offer a kong left out, "
            f"{stats.replaced} quiz items that could not happen replaced under new keys) "
            f"in {stats.seconds:.1f} s ({cpu:.1f} CPU s): {stats.rate:.0f} items/s, written to {output}"
        )

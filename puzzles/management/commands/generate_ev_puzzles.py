"""``manage.py generate_ev_puzzles``: the 期望值 drill's bank from simulated play (reproducible from a seed)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand
from tqdm import tqdm

from puzzles.generation.bank import write_bank
from puzzles.generation.ev import EV_BANK_PATH, EV_MARGIN, MAX_EV_ACCEPTED, MAX_EV_SHANTEN, generate_ev

DEFAULT_SEED = 20261209
DEFAULT_COUNT = 80


class Command(BaseCommand):
    help = "Generate 期望值 puzzles (EV-best discard differs from the plain best) into a gzip'd JSON bank."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"Random seed (default {DEFAULT_SEED}).")
        parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help=f"Puzzles to keep (default {DEFAULT_COUNT}).")
        parser.add_argument("--output", type=Path, default=EV_BANK_PATH, help="Where to write the bank.")
        parser.add_argument("--no-progress", action="store_true", help="No progress bar.")

    def handle(self, *args, seed: int, count: int, output: Path, no_progress: bool, **options) -> None:
        with tqdm(total=count, unit="puzzle", disable=no_progress, file=self.stderr._out) as bar:
            records, stats = generate_ev(seed, count, progress=bar.update)
        meta = {
            "seed": seed,
            "count": count,
            "filters": {"max_shanten": MAX_EV_SHANTEN, "max_accepted": MAX_EV_ACCEPTED, "ev_margin": EV_MARGIN},
        }
        write_bank(records, output, meta)
        rejected = ", ".join(f"{n} {why}" for why, n in sorted(stats.rejected.items()))
        self.stdout.write(
            f"{stats.kept} 期望值 puzzles from {stats.deals} deals ({stats.positions} positions evaluated, "
            f"rejected: {rejected}; {stats.duplicates} duplicates skipped) in {stats.seconds:.1f} s: "
            f"{stats.rate:.2f} puzzles/s, written to {output}"
        )

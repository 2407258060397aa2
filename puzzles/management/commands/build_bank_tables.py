"""``manage.py build_bank_tables``: the table (rivers, melds, dealer, drawn tile) of every shipped 何切 and 期望值 puzzle."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from puzzles.generation.bank_tables import BANK_TABLES_PATH, BankMismatch, write_bank_tables


class Command(BaseCommand):
    help = "Play the shipped banks' seeds again and write each puzzle's table to a gzip'd JSON file (byte for byte the same each run)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--output", type=Path, default=BANK_TABLES_PATH, help="Where to write the tables.")

    def handle(self, *args, output: Path, **options) -> None:
        started = time.process_time()
        try:
            count = write_bank_tables(output)
        except BankMismatch as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"{count} tables in {time.process_time() - started:.1f} CPU-seconds, written to {output}")

"""The shipped banks in the database, by command (``manage.py load_banks``), not by migration.

Each bank file is read by its own reader (``puzzles.generation.bank.read_bank``) and upserted by
``Puzzle.key``: missing puzzles are added, stored ones take their record's figures, and no row is
ever deleted or made again, so attempts and review cards keep pointing at the same puzzles. The
old 何切 and 期望值 puzzles then take their tables (``bank_tables.load_bank_tables``). Loading what
is already there changes nothing, so it runs at every ``make setup`` and deploy.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db import transaction

from puzzles.generation.bank import BANK_PATH, Loaded, load_bank
from puzzles.generation.bank_tables import BANK_TABLES_PATH, load_bank_tables
from puzzles.generation.ev import EV_BANK_PATH
from puzzles.generation.table_bank import TABLE_BANK_PATH

BANKS: dict[str, Path] = {"bank": BANK_PATH, "ev_bank": EV_BANK_PATH, "table_bank": TABLE_BANK_PATH}
"""The bank files of puzzles, by name: 何切 and 算番, 期望值, the table drills."""
TABLES = "bank_tables"
"""The tables of the 何切 and 期望值 puzzles: loaded after their banks, onto puzzles already stored."""
FILES: dict[str, Path] = {**BANKS, TABLES: BANK_TABLES_PATH}
NAMES = tuple(FILES)


def load_banks(*, names: Iterable[str] = NAMES, model: Any = None) -> dict[str, Loaded]:
    """Upsert the named bank files (all by default) in one transaction; what each did, by name."""
    from puzzles.models import Puzzle

    model = model or Puzzle
    wanted = list(names)
    unknown = [n for n in wanted if n not in NAMES]
    if unknown:
        raise ValueError(f"no bank named {', '.join(unknown)} (the banks: {', '.join(NAMES)})")
    done: dict[str, Loaded] = {}
    with transaction.atomic():
        for name, path in BANKS.items():
            if name in wanted:
                done[name] = load_bank(model, path)
        if TABLES in wanted:
            done[TABLES] = load_bank_tables(model, FILES[TABLES])
    return done

"""The shipped banks in the database, by command (``manage.py load_banks``), not by migration.

Each bank file is read by its own reader (``puzzles.generation.bank.read_bank``) and upserted by
``Puzzle.key``: missing puzzles are added, stored ones take their record's figures, and no row is
ever deleted or made again, so attempts and review cards keep pointing at the same puzzles. The
puzzles of the banks made before (keys ``d``, ``q``, ``e``: ``bank.RETIRED_PREFIXES``) and the
table drills (``p``, ``k``, ``l``, ``f``), 期望值 drills (``v``) and 算番 quiz items (``s``) that no shipped bank holds — a drill its confirming
worlds (``manage.py confirm_table_drills``) or the table (``manage.py judge_ev_drills``) no longer keep leaves the bank, a quiz item whose win could not happen is
replaced under a new key (``generation.possible``), and a town bank's items (``xiaogan-h00001`` …) that its bank no longer ships — are retired: kept
with their attempts, never served again, their review cards never due. Loading what is already there changes
nothing, so it runs at every ``make setup`` and deploy.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Q

from kwx.drills.table_drills import PREFIX as TABLE_PREFIX
from kwx.rules import town_presets
from puzzles.generation.bank import BANK_PATH, PREFIX, RETIRED_PREFIXES, WITHDRAWN, Loaded, load_bank, read_bank, town_bank_path
from puzzles.generation.ev import EV_BANK_PATH
from puzzles.generation.table_bank import TABLE_BANK_PATH

TOWN_BANK = "bank_"
"""A town bank's name: ``bank_`` and the preset's key (``bank_xiaogan``)."""
BANKS: dict[str, Path] = {
    "bank": BANK_PATH,
    "ev_bank": EV_BANK_PATH,
    "table_bank": TABLE_BANK_PATH,
    **{f"{TOWN_BANK}{rules}": town_bank_path(rules) for rules in town_presets() if town_bank_path(rules).exists()},
}
"""The bank files of puzzles, by name: 何切 and 算番 (legacy presets), 期望值, the table drills, and each town preset's 何切 and 算番 that ships a bank."""
FILES = BANKS
NAMES = tuple(BANKS)


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
    return done


def retire_old(*, shipped: Iterable[str] | None = None, model: Any = None) -> int:
    """Retire the stored puzzles that no shipped bank holds or serves — of the banks made before, table drills that left the bank when confirmed, 算番 quiz items replaced because they could not happen or withdrawn (``WITHDRAWN``), a town bank's items it no longer ships; how many were retired now.

    ``shipped``: every key the bank files ship, when the caller has just read them all (``load_banks``' ``keys``); read here otherwise.
    """
    from puzzles.models import Puzzle

    model = model or Puzzle
    shipped = set(shipped) if shipped is not None else {r["key"] for path in BANKS.values() for r in read_bank(path)} - WITHDRAWN
    old = Q()
    for prefix in (*RETIRED_PREFIXES, *TABLE_PREFIX.values(), PREFIX["quiz"], PREFIX["ev"]):  # a 期望值 drill the table does not bear out leaves its bank too
        old |= Q(key__regex=rf"^{prefix}[0-9]{{5}}$")
    old |= Q(key__regex=rf"^[a-z_]+-[{PREFIX['discard']}{PREFIX['quiz']}][0-9]{{5}}$")  # a town bank's 何切 and 算番
    return int(model.objects.filter(old, retired=False).exclude(key__in=shipped).update(retired=True))

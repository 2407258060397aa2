"""The old drills' tables: recovered by playing the banks' seeds again, consistent with what each puzzle records, loaded by migrate."""

from __future__ import annotations

from collections import Counter

import pytest

from kwx.hand.notation import parse_tiles
from kwx.hand.tiles import TILE_IDS, kinds_of
from puzzles.generation.bank import BANK_PATH, read_bank
from puzzles.generation.bank_tables import BANK_TABLES_PATH
from puzzles.generation.ev import EV_BANK_PATH
from puzzles.models import Puzzle

TABLES = {r["key"]: r for r in read_bank(BANK_TABLES_PATH)}
PUZZLES = {r["key"]: r for r in read_bank(BANK_PATH) + read_bank(EV_BANK_PATH) if r["kind"] == "discard"}


def _tiles(text: str) -> Counter:
    return Counter(TILE_IDS[k] for k in kinds_of(parse_tiles(text, "t")))


def _meld_tiles(melds: list[dict]) -> Counter:
    return Counter({m["tile"]: 3 if m["type"] == "pong" else 4 for m in melds})


def test_every_old_puzzle_has_a_table():
    assert set(TABLES) == set(PUZZLES)


def test_each_table_holds_exactly_the_tiles_the_puzzle_saw_and_its_own_melds():
    for key, row in TABLES.items():
        puzzle, table = PUZZLES[key], row["table"]
        seen = Counter()
        for seat in ("me", "right", "left"):
            seen.update(table[seat]["river"])
        for seat in ("right", "left"):
            seen.update(_meld_tiles(table[seat]["melds"]))
        assert seen == _tiles(puzzle["visible"]), key  # the pooled visible tiles, now by seat and in order
        assert table["me"]["melds"] == puzzle["melds"] and table["wall_left"] == puzzle["wall_left"], key
        if table["drawn"] is not None:
            assert _tiles(puzzle["hand"])[table["drawn"]] >= 1, key
        assert table["offered"] is None and not any("revealed" in table[s] for s in ("right", "left"))


@pytest.mark.django_db
def test_load_banks_gave_the_shipped_puzzles_their_tables():
    from tests.puzzles.factories import ensure_bank

    ensure_bank("bank", "ev_bank", "bank_tables")
    sample = Puzzle.objects.filter(key__in=["d00001", "e00001"])
    assert {p.key: p.table for p in sample} == {k: TABLES[k]["table"] for k in ("d00001", "e00001")}

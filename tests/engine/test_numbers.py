"""Whole numbers read from text and the seeds hashed from their parts (kwx/numbers.py)."""

from __future__ import annotations

from datetime import date

from kwx.drills.confirm import confirm_seed, world_seed
from kwx.drills.table_drills import drill_seed
from kwx.numbers import read_whole, seed_of
from kwx.table.review import second_seed
from puzzles.generation.bank import read_bank
from puzzles.generation.ev import table_seed
from puzzles.generation.table_bank import TABLE_BANK_PATH


def test_read_whole_takes_only_short_decimal_text():
    assert read_whole("45") == 45
    assert read_whole("4.5") is None
    assert read_whole("9" * 19) is None


def test_every_shipped_table_drill_was_dealt_from_the_seed_its_source_names():
    records = read_bank(TABLE_BANK_PATH)
    assert records
    for record in records:
        source = record["source"]
        assert drill_seed(record["kind"], source["index"], source["attempt"]) == source["seed"], record["key"]


def test_the_seeds_are_the_numbers_the_banks_and_reviews_were_made_with():
    # values the sha256 lines produced before seed_of took them over
    assert drill_seed("pong", 1, 2) == 6450729835908640438
    assert confirm_seed("p00002") == 6177140757098250427
    assert confirm_seed("p00002", "judge") == 5541544633489527699
    assert world_seed("p00002", 7) == 7310874390572700874
    assert table_seed("e00001") == 7778408897714734208
    assert second_seed(12345) == 10204165873033582305
    assert seed_of("kwx-daily", date(2026, 12, 5).isoformat(), bits=64) == 7888789720927050176


def test_a_seed_of_63_bits_is_the_64_bit_seed_halved():
    assert seed_of("a", 1, bits=63) == seed_of("a", 1, bits=64) >> 1 < 2**63
    assert seed_of("a", 1, sep="|") != seed_of("a", 1)

"""The shipped bank: every accepted answer is the engine's, recomputed now; every quiz total too."""

from __future__ import annotations

from collections import Counter

import pytest

from kwx import build_hand
from kwx.hand.efficiency import best_discards, discard_options
from kwx.hand.rules import make_rules
from kwx.hand.scoring import score_win
from kwx.hand.serial import option_row
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS, Hand
from puzzles.generation.bank import PREFIX, read_bank
from puzzles.generation.filters import judge
from puzzles.generation.themes import TAGGERS, tag

RECORDS = read_bank()
DISCARDS = [r for r in RECORDS if r["kind"] == "discard"]
QUIZ = [r for r in RECORDS if r["kind"] == "quiz"]


def _hand(record) -> tuple[Hand, tuple[int, ...]]:
    """The record's hand and visible tiles, parsed and checked by the engine."""
    return build_hand(record["hand"], record["melds"], record["visible"])


def test_bank_size_and_keys():
    assert len(DISCARDS) >= 2000
    assert len(QUIZ) >= 300
    assert len({r["key"] for r in RECORDS}) == len(RECORDS)
    assert len({(r["hand"], str(r["melds"]), r["visible"], r["rules"]) for r in DISCARDS}) == len(DISCARDS)


def test_every_shipped_puzzle_matches_the_engine():
    """All of them, recomputed: accepted == best_discards, the option table as shipped, still a good puzzle."""
    for r in DISCARDS:
        hand, seen = _hand(r)
        options = discard_options(hand, seen, make_rules(r["rules"], r["situation"]))
        assert r["accepted"] == [TILE_IDS[k] for k in best_discards(options)], r["key"]
        assert r["options"] == [option_row(o) for o in options], r["key"]
        assert judge(hand.concealed, options) is not None, r["key"]
        assert r["themes"] == list(tag(hand, options)), r["key"]


def test_every_quiz_total_matches_the_engine():
    for r in QUIZ:
        hand, _ = build_hand(r["hand"], r["melds"])
        values = score_win(hand, KIND_OF_ID[r["win"]], make_rules(r["rules"], r["situation"]))
        value = values[0] if r["side"] == "self_draw" else values[1]
        assert value.allowed, r["key"]
        assert r["accepted"] == [str(value.total)], r["key"]
        assert r["options"]["total"] in r["options"]["choices"], r["key"]
        assert [f["key"] for f in r["options"]["fans"]] == [h.key for h in value.fans], r["key"]


def test_every_theme_is_represented():
    themes = Counter(t for r in DISCARDS for t in r["themes"])
    for key in TAGGERS:  # the 期望值 theme has its own bank (tests/puzzles/test_ev.py)
        assert themes[key] >= 50, (key, themes[key])


def test_some_puzzles_have_melds_and_several_presets():
    assert sum(1 for r in DISCARDS if r["melds"]) >= 100
    assert {r["rules"] for r in DISCARDS} == {"standard", "xiangyang", "shiyan"}


@pytest.mark.django_db
def test_load_banks_loaded_the_bank():
    from puzzles.models import Puzzle
    from tests.puzzles.factories import ensure_bank

    ensure_bank("bank")
    assert Puzzle.objects.filter(kind="discard", key__startswith=PREFIX["discard"]).count() == len(DISCARDS)
    assert Puzzle.objects.filter(kind="quiz").count() == len(QUIZ)

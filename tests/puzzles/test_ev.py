"""The 期望值 drill: the EV filter, the generator, and every shipped EV puzzle recomputed by the engine."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from kwx import build_hand
from kwx.hand.ev import compare_rankings
from kwx.hand.rules import make_rules
from kwx.hand.serial import estimate_row, option_row
from kwx.hand.tiles import TILE_IDS
from puzzles.generation.bank import PREFIX, read_bank, read_meta
from puzzles.generation.ev import (
    EV_BANK_PATH,
    MAX_EV_ACCEPTED,
    clear_ev_margin,
    draws_left_at,
    generate_ev,
    judge_ev,
)
from puzzles.generation.themes import EV_THEME, THEME_KEYS

EV_RECORDS = read_bank(EV_BANK_PATH)


def _comparison(notation: str, draws: int, visible: str = ""):
    hand, seen = build_hand(notation, visible=visible)
    return compare_rankings(hand, seen, make_rules("standard"), draws)


def test_ev_is_a_theme():
    assert EV_THEME == "ev" and EV_THEME in THEME_KEYS


def test_a_position_where_the_rankings_differ_is_kept_with_the_ev_best_as_answer():
    comparison = _comparison("34556p123789sZZZ", 3)
    verdict = judge_ev(comparison)
    assert comparison.differs and verdict is not None
    assert verdict.accepted == comparison.ev_best
    assert not set(verdict.accepted) & set(comparison.plain_best)
    assert clear_ev_margin(verdict.best, verdict.runner_up)


def test_the_same_hand_with_more_draws_agrees_and_is_rejected():
    comparison = _comparison("34556p123789sZZZ", 12)
    assert not comparison.differs and judge_ev(comparison) is None


def test_a_position_where_the_rankings_agree_is_rejected():
    comparison = _comparison("124568p45566789s", 10)
    assert set(comparison.ev_best) & set(comparison.plain_best)
    assert judge_ev(comparison) is None


def test_a_thin_margin_is_rejected():
    """The same differing position, with the runner-up moved to within the margin of the EV-best."""
    comparison = _comparison("34556p123789sZZZ", 3)
    best = comparison.ev_options[0].estimate.expected_score
    runner = comparison.ev_options[1]
    close = replace(runner, estimate=replace(runner.estimate, expected_score=best * 0.98))
    thin = replace(comparison, ev_options=(comparison.ev_options[0], close, *comparison.ev_options[2:]))
    assert thin.differs and judge_ev(thin) is None


def test_margin_rule():
    assert clear_ev_margin(1.0, 0.95) and not clear_ev_margin(1.0, 0.951)
    assert clear_ev_margin(0.4, 0.35) and not clear_ev_margin(0.4, 0.36)  # the 0.05 floor


def test_draws_left_from_the_wall():
    assert [draws_left_at(w) for w in (0, 2, 3, 35, 68)] == [0, 0, 1, 11, 22]


def test_generation_is_reproducible_and_every_record_passes_the_filter():
    first, stats = generate_ev(7, 2)
    again, _ = generate_ev(7, 2)
    assert first == again and stats.kept == 2 and stats.positions >= 2 and stats.rate > 0
    for r in first:
        hand, seen = build_hand(r["hand"], r["melds"], r["visible"])
        comparison = compare_rankings(hand, seen, make_rules(r["rules"]), r["draws_left"])
        assert r["accepted"] == [TILE_IDS[k] for k in comparison.ev_best] and judge_ev(comparison) is not None


def test_the_bank_holds_the_generators_drills_that_the_table_kept():
    """Made by ``generate_ev_puzzles`` (its seed and count in the meta), then judged at the table by ``judge_ev_drills --write``:
    each drill either stays, with the table's figures, or left, its key kept in the meta."""
    meta = read_meta(EV_BANK_PATH)
    shipped, left = [r["key"] for r in EV_RECORDS], meta["table"]["left"]
    assert sorted(shipped + left) == [f"{PREFIX['ev']}{n:05d}" for n in range(1, meta["count"] + 1)] and meta["table"]["policy"] == "judge"
    assert all("table" in r["ev"] and r["themes"] == [EV_THEME] for r in EV_RECORDS)
    assert len({(r["hand"], str(r["melds"]), r["visible"], r["rules"]) for r in EV_RECORDS}) == len(EV_RECORDS)


def test_every_shipped_ev_puzzle_matches_the_engine():
    """Each of them, recomputed: accepted == ev_best, both rankings as shipped, still passing the EV filter."""
    for r in EV_RECORDS:
        hand, seen = build_hand(r["hand"], r["melds"], r["visible"])
        comparison = compare_rankings(hand, seen, make_rules(r["rules"], r["situation"]), r["draws_left"])
        assert r["accepted"] == [TILE_IDS[k] for k in comparison.ev_best], r["key"]
        assert len(r["accepted"]) <= MAX_EV_ACCEPTED, r["key"]
        assert r["ev"]["plain_best"] == [TILE_IDS[k] for k in comparison.plain_best], r["key"]
        assert r["ev"]["options"] == [estimate_row(o.discard, o.estimate) for o in comparison.ev_options], r["key"]
        assert r["options"] == [option_row(o) for o in comparison.plain_options], r["key"]
        assert judge_ev(comparison) is not None, r["key"]


@pytest.mark.django_db
def test_load_banks_loads_the_ev_bank_and_retires_the_drills_that_left_it():
    """A database loaded before the table judged the drills holds them: ``load_banks`` retires those the bank no longer ships."""
    from django.core.management import call_command

    from puzzles.generation.bank import bank_row
    from puzzles.models import Puzzle

    before = Puzzle.objects.create(**bank_row(generate_ev(7, 1)[0][0]))  # v00001 as an old bank stored it
    call_command("load_banks", stdout=io.StringIO())  # every bank, as a deploy runs it: then what no bank holds is retired
    loaded = Puzzle.objects.filter(themes__contains=f" {EV_THEME} ", retired=False)
    assert sorted(p.key for p in loaded) == sorted(r["key"] for r in EV_RECORDS)
    assert all(p.is_ev and p.draws_left >= 1 for p in loaded)
    before.refresh_from_db()
    assert before.retired == (before.key in read_meta(EV_BANK_PATH)["table"]["left"]) == True  # noqa: E712

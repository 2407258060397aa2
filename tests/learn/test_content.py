"""Every figure the learn pages state is recomputed here with the engine (or §6 of the rules)."""

from __future__ import annotations

from collections import Counter
from math import prod

import pytest

from kwx.hand.fans import FAN_BY_KEY, FANS
from kwx.hand.notation import format_hand, parse_hand, parse_tile
from kwx.hand.rules import make_rules
from kwx.hand.scoring import reading_fans
from kwx.hand.shapes import readings
from kwx.rules import LEGACY_PRESETS
from kwx.table import settlement
from learn import content as lc
from puzzles.generation.themes import THEME_KEYS
from tests.conftest import ROOT


@pytest.mark.parametrize("worked", lc.every_worked(), ids=lambda w: w.key)
def test_every_worked_example_states_the_engines_value(worked):
    result = lc.win_result(worked.hand, worked.win, worked.side, worked.situation, worked.rules, worked.options)
    assert result is not None, f"{worked.hand} does not win on {worked.win}"
    assert result.allowed is worked.allowed
    assert result.total == worked.total
    if worked.allowed:
        assert sorted(k for k, _ in result.fans) == sorted(worked.fans)


def _engine_readings(worked):
    rules = make_rules(worked.rules, worked.situation, dict(worked.options))
    return [(sorted(h.key for h in hits), prod(h.multiplier for h in hits)) for hits in reading_fans(parse_hand(worked.hand), parse_tile(worked.win), rules)]


@pytest.mark.parametrize("worked", [w for w in lc.COMBINATION_EXAMPLES if w.readings], ids=lambda w: w.key)
def test_each_described_reading_is_one_the_engine_finds(worked):
    found = _engine_readings(worked)
    for claim in worked.readings:
        assert claim.product == prod(FAN_BY_KEY[k].multiplier(worked.rules) for k in claim.fans)
        assert (sorted(claim.fans), claim.product) in found
    assert max(c.product for c in worked.readings) == max(p for _, p in found)


@pytest.mark.parametrize("row", lc.PRESET_ROWS, ids=lambda r: r.key)
def test_presets_side_by_side_totals(row):
    assert [c["preset"] for c in row.cells()] == list(LEGACY_PRESETS)
    for preset, total in row.totals:
        result = lc.win_result(row.hand, row.win, row.side, row.situation, preset)
        assert result is not None and result.allowed
        assert result.total == total, preset


@pytest.mark.parametrize("shape", lc.SHAPE_EXAMPLES, ids=lambda s: s.key)
def test_shape_examples_have_the_shape_they_illustrate(shape):
    hand = parse_hand(shape.worked.hand).with_tile(parse_tile(shape.worked.win))
    kinds = {r.is_seven_pairs for r in readings(hand)}
    assert shape.seven_pairs in kinds


@pytest.mark.parametrize("example", lc.NOTATION_EXAMPLES, ids=lambda e: e.typed)
def test_notation_examples_parse_to_the_stated_canonical_form(example):
    assert format_hand(parse_hand(example.typed)) == example.canonical


@pytest.mark.parametrize("fan", FANS, ids=lambda f: f.key)
def test_every_fan_example_scores_its_fan(fan):
    views = lc.fan_examples(fan.key)
    assert views, "every fan has an example"
    for view in views:
        assert view.result is not None and view.result.allowed
        assert fan.key in {k for k, _ in view.result.fans}
        assert view.url.startswith("/analyze/?hand=")


def _hand_input(example):
    """The example's inputs in the form of the settlement module (seats A, B, C = players 0, 1, 2)."""
    seat = lc.SEATS.index
    winners = tuple(settlement.Winner(seat(s), parse_hand(w.hand), parse_tile(w.win), frozenset(w.situation) - {"liang_dao"}) for s, w in example.wins)
    liang = {seat(s) for s, w in example.wins if "liang_dao" in w.situation} | {seat(s) for s in example.declarers}
    piao = dict(example.piao)
    result = "draw" if not winners else "discard" if example.discarder else "self_draw"
    return settlement.HandInput(
        players=lc.SEATS,
        piao=tuple(piao.get(s, 0) for s in lc.SEATS),
        kongs=tuple(settlement.Kong(seat(who), kind, parse_tile(tile), seat(feeder) if feeder else None, chain) for chain, (kind, who, feeder, tile) in enumerate(example.kongs, start=1)),
        liang_dao=frozenset(liang),
        result=result,
        discarder=seat(example.discarder) if example.discarder else None,
        winners=winners,
    )


@pytest.mark.parametrize("example", lc.SETTLEMENT_EXAMPLES, ids=lambda e: e.key)
def test_settlement_examples_agree_with_the_settlement_module(example):
    stated: Counter = Counter()
    for p in example.payments:
        stated[(p.payer, p.payee)] += p.amount
    result = settlement.settle(_hand_input(example))
    computed: Counter = Counter()
    for p in result.payments:
        computed[(lc.SEATS[p.payer], lc.SEATS[p.payee])] += p.amount
    assert stated == computed
    assert tuple(example.net()[s] for s in lc.SEATS) == result.nets
    for (_seat, worked), win in zip(example.wins, result.wins):
        assert win.value.total == worked.total


def test_repo_copy_of_the_kouque_has_exactly_the_shared_couplets():
    def pairs(text):
        lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
        return [(lines[i], lines[i + 1]) for i in range(0, len(lines), 2)]

    copy = pairs((ROOT / "learn" / "data" / "kouque.txt").read_text(encoding="utf-8"))
    assert [(c.first, c.second) for c in lc.couplets()] == copy
    assert len(copy) == 15


def test_every_couplet_has_a_note_and_only_drill_themes_the_drills_have():
    assert set(lc.COUPLET_NOTES) == {c.number for c in lc.couplets()}
    for note in lc.COUPLET_NOTES.values():
        assert set(note.themes) <= set(THEME_KEYS)
    assert sum(len(note.themes) for note in lc.COUPLET_NOTES.values()) >= 6


def test_glossary_links_point_at_learn_pages_and_fan_terms_use_the_fan_table():
    for term in lc.GLOSSARY:
        assert term.url.startswith("/learn/")
        anchor = term.url.partition("#")[2]
        if anchor in FAN_BY_KEY:
            assert term.term == FAN_BY_KEY[anchor].name

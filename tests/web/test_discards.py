"""One discard table: the analyzer's and the drills' rows have one shape (analysis.discards) and one partial draws them."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from analysis.discards import DiscardRow, EVCell, TileLeft, ev_cell, from_api, from_bank
from kwx import build_hand
from kwx.hand.analysis import analyze_hand, to_json
from kwx.hand.rules import make_rules
from kwx.hand.serial import option_row
from tests.puzzles.factories import aid, discard_puzzle, ev_puzzle

pytestmark = pytest.mark.django_db
HANDS = ("4556p123789sZZZ8p", "1358p246799sZFB2s", "33455p[999s]{FFFF}ZZB", "11223344556677p")


def _table(html: str, css: str = "") -> str:
    return re.search(rf'<table class="discards{css}">(.*?)</table>', html, re.S).group(1)


def _cells(table: str) -> list[tuple[str, str, list[str], str]]:
    """Each row's discard, its shanten, the tiles (with copies left) it leaves and its value cell, in order."""
    rows = re.findall(r'data-discard="(\w+)">.*?</td>\s*<td><span class="then">(.*?)</span>(.*?)</td>\s*<td class="num">(.*?)</td>', table, re.S)
    return [(tile, shanten, re.findall(r'tiles/(\w+)\.svg"[^>]*><span class="tile-left">(\d)', then), value) for tile, shanten, then, value in rows]


@pytest.mark.parametrize("notation", HANDS)
def test_the_api_body_and_the_puzzle_bank_give_the_same_rows(notation):
    hand, seen = build_hand(notation)
    analysis = analyze_hand(hand, seen, make_rules())
    api = from_api(to_json(analysis)["options"])
    bank = from_bank([option_row(o) for o in analysis.options], accepted=())
    assert api == bank and len(api) == len(analysis.options)
    for row, option in zip(api, analysis.options):
        assert row.left == option.result.ukeire and row.value == option.result.value
        if row.waits:  # ready: the winning tiles, with copies left
            assert row.then == tuple((w.tile, w.remaining) for w in row.waits)
        else:  # not ready: the effective tiles
            assert row.left == sum(n for _, n in row.then) > 0


def test_the_analyzer_and_a_drill_of_one_hand_show_one_table():
    puzzle = discard_puzzle("4556p123789sZZZ8p")
    with translation.override("en"):
        analyzer = Client().get("/?hand=45568p123789sZZZ", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        drill = Client().post(f"/drills/{puzzle.pk}/", {"discard": "4p", "attempt": aid("one")}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    ours, theirs = _table(analyzer), _table(drill)
    assert re.search(r"<thead>.*?</thead>", ours, re.S).group(0) == re.search(r"<thead>.*?</thead>", theirs, re.S).group(0)
    assert _cells(ours) == _cells(theirs) and len(_cells(ours)) == 11
    assert all(then for _, _, then, _ in _cells(ours))
    best = set(re.findall(r'<tr class="best[^"]*" data-discard="(\w+)"', ours))
    assert best == set(re.findall(r'<tr class="best[^"]*" data-discard="(\w+)"', theirs)) == set(puzzle.accepted)
    assert 'class="discard-link"' in ours and 'class="discard-link"' not in theirs  # the analyzer's rows open their hand
    assert re.search(r'<tr class=" mine" data-discard="4p">.*?your discard', theirs, re.S)  # said in words, not only coloured


def test_ev_rows_follow_the_estimates_and_keep_what_each_discard_leaves():
    puzzle = ev_puzzle("34556p123789sZZZ", 3)
    rows = from_bank(puzzle.options, accepted=puzzle.accepted, plain_best=puzzle.ev["plain_best"], mine="3p", estimates=puzzle.ev["options"])
    plain = {r.discard: r for r in from_bank(puzzle.options, accepted=puzzle.accepted)}
    assert [r.discard for r in rows] == [e["discard"] for e in puzzle.ev["options"]]
    least = min(r.shanten for r in rows)
    for row, estimate in zip(rows, puzzle.ev["options"]):
        assert row.ev == EVCell(100 * estimate["ready"], 100 * estimate["win"], estimate["score"])
        assert (row.then, row.left, row.value) == (plain[row.discard].then, plain[row.discard].left, plain[row.discard].value)
        assert row.reference == (row.shanten > least)
        assert (row.best, row.plain_best, row.mine) == (row.discard == "Z", row.discard == "3p", row.discard == "3p")


def test_an_ev_cell_has_standard_errors_only_when_sampled():
    exact = {"ready_probability": 0.5, "win_probability": 0.25, "expected_score": 1.5, "method": "exact"}
    assert ev_cell(exact) == EVCell(50.0, 25.0, 1.5)
    sampled = {**exact, "method": "monte_carlo", "stderr": {"ready_probability": 0.01, "win_probability": 0.02, "expected_score": 0.1}}
    assert ev_cell(sampled) == EVCell(50.0, 25.0, 1.5, 1.0, 2.0, 0.1)
    assert ev_cell({"discard": "5p"}) is None


def test_the_partial_says_every_mark_and_waits_for_missing_ev_figures():
    row = DiscardRow("5p", 0, (TileLeft("Z", 3),), 3, 3, deals_in=True, plain_best=True, mine=True, reference=True, link="/?hand=x")
    with translation.override("zh-hans"):
        html = render_to_string("partials/discards.html", {"rows": [row], "ev": True, "target": "#app"})
    for words in ("包胡", "普通排序最佳", "你的打法", "退向听"):
        assert words in html
    assert re.search(r'<span class="tile-slot"><img[^>]*src="/static/tiles/Z.svg"[^>]*><span class="tile-left">3</span>', html)
    assert 'colspan="3">…</td>' in html and 'hx-target="#app"' in html and 'class="discards discards-ev"' in html
    plain = render_to_string("partials/discards.html", {"rows": [row]})
    assert "evc" not in plain and "hx-get" not in plain and 'href="/?hand=x"' in plain

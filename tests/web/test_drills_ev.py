"""The 期望值 drill on the pages and the API: theme selection, both rankings in the feedback, the analyzer link."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from analysis.board import analyzer_url
from kwx_site.figures import figure
from puzzles.generation.bank import bank_row
from puzzles.generation.ev import generate_ev
from puzzles.models import Puzzle
from puzzles.text import ev_explanation
from tests.puzzles.factories import aid, discard_puzzle, ensure_bank, ev_puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def puzzle():
    """34556p123789sZZZ with 3 own draws left: the EV-best discard is Z, the plain best 3p (docs/ev-model.md)."""
    return ev_puzzle("34556p123789sZZZ", 3)


def _rows(html: str, table: str) -> list[str]:
    body = re.search(rf'<table class="discards(?: discards-ev)? {table}">(.*?)</table>', html, re.S).group(1)
    return re.findall(r'<tr class="([^"]*)" data-discard="(\w+)">', body)


def test_the_factory_puzzle_answers_by_expected_score(puzzle):
    assert puzzle.accepted == ["Z"] and puzzle.ev["plain_best"] == ["3p"] and puzzle.is_ev


def test_theme_ev_gives_an_ev_puzzle_in_theme_mode(puzzle):
    for query in ({"theme": "ev"}, {"mode": "theme", "theme": "ev"}):
        r = Client().get("/drills/", query)
        assert r.status_code == 302 and re.match(r"^/drills/\d+/\?mode=theme&theme=ev$", r["Location"])
        picked = Puzzle.objects.get(pk=r["Location"].split("/")[2])
        assert picked.is_ev and "ev" in picked.theme_list
        page = Client().get(r["Location"]).content.decode()
        assert f"<strong>{picked.draws_left}</strong>" in page  # the draws left are part of the question


def test_a_theme_no_served_puzzle_carries_is_not_offered_and_its_link_says_so():
    Puzzle.objects.update(retired=True)
    discard_puzzle("34556p123789sZZZ")  # a 卡五星 puzzle; no 期望值 one
    r = Client().get("/drills/", {"mode": "theme", "theme": "ev"}, HTTP_ACCEPT_LANGUAGE="en")
    html = r.content.decode()
    assert r.status_code == 200 and "No puzzle carries this theme now. Try another theme." in html
    chip = 'class="chip" href="/drills/?mode=theme&amp;theme={}"'.format
    assert chip("ev") not in html and chip("ka_wu_xing") in html  # the sidebar offers only themes that have puzzles
    progress = Client().get("/progress/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "卡五星 wait choice" in progress and "Expected value (期望值)" not in progress  # nor does the progress page, unless answered
    api = Client().get("/api/v1/puzzles/next/", {"theme": "ev"}, HTTP_ACCEPT_LANGUAGE="en")
    assert api.status_code == 404 and api.json()["error"]["field"] == "theme" and 'No puzzle carries the theme "ev" now.' in api.json()["error"]["message"]
    ev_puzzle("34556p123789sZZZ", 3)
    assert chip("ev") in Client().get("/drills/", {"mode": "theme", "theme": "ka_wu_xing"}, follow=True).content.decode()


def test_feedback_fragment_shows_both_rankings_and_why(puzzle):
    with translation.override("en"):
        r = Client().post(f"/drills/{puzzle.pk}/?mode=theme&theme=ev", {"discard": "3p", "attempt": aid("e1"), "mode": "theme", "theme": "ev"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html and "is-wrong" in html
    ev_rows, plain_rows = _rows(html, "ev-ranking"), _rows(html, "plain-ranking")
    assert [t for _, t in ev_rows] == [o["discard"] for o in puzzle.ev["options"]]
    assert [t for _, t in plain_rows] == [o["discard"] for o in puzzle.options]
    assert ev_rows[0] == ("best", "Z") and plain_rows[0][1] == "3p" and "plain-best" in plain_rows[0][0]
    assert "mine" in dict((t, c) for c, t in ev_rows)["3p"]
    with translation.override("en"):
        sentences = ev_explanation(puzzle)
    assert all(sentence in html for sentence in sentences) and "Why the rankings differ" in html
    assert escape(analyzer_url("34556p123789sZZZ", ev=True, draws=3)) in html
    top = puzzle.ev["options"][0]
    first = re.search(r'<table class="discards discards-ev ev-ranking">.*?<tbody>\s*<tr(.*?)</tr>', html, re.S).group(1)
    win = re.search(r'class="num evc win-p"><strong>([\d.]+)%</strong>', first).group(1)
    assert f"<strong>{top['score']:.2f}</strong>" in first and abs(float(win) - 100 * top["win"]) <= 0.05
    assert "best-badge" in first and "3p" in re.search(r'<table class="discards plain-ranking">.*?</tr>.*?</tr>', html, re.S).group(0)


def test_explanation_names_both_tiles_and_their_figures(puzzle):
    with translation.override("en"):
        plain, why, model = ev_explanation(puzzle)
    rows = {o["discard"]: o for o in puzzle.ev["options"]}
    plain_rows = {o["discard"]: o for o in puzzle.options}
    assert "3 of dots" in plain and f"value (tiles left × what a win pays) is {plain_rows['3p']['value']}" in plain
    assert f"{rows['Z']['score']:.2f}" in why and f"{rows['3p']['score']:.2f}" in why and "(3)" in why
    assert "wall never ran out" in model  # both ready: the value's assumptions
    with translation.override("zh-hans"):
        assert "三筒" in ev_explanation(puzzle)[0]


def test_plain_puzzles_keep_their_single_table():
    from tests.puzzles.factories import discard_puzzle

    plain = discard_puzzle("34556p123789sZZZ")
    html = Client().post(f"/drills/{plain.pk}/", {"discard": "3p", "attempt": aid("p1")}, HTTP_HX_REQUEST="true").content.decode()
    assert "ev-ranking" not in html and "ev=1" not in html and '<table class="discards">' in html


def test_api_next_puzzle_with_theme_ev_and_its_answer(puzzle):
    client = Client()
    for query in ({"theme": "ev"}, {"mode": "theme", "theme": "ev"}):
        body = client.get("/api/v1/puzzles/next/", query).json()
        assert body["themes"] == ["ev"] and body["draws_left"] >= 1
    puzzle = Puzzle.objects.get(pk=body["id"])
    answer = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", {"discard": puzzle.accepted[0], "attempt": aid("api-ev")}, content_type="application/json").json()
    assert answer["correct"] and answer["best"] == puzzle.accepted
    assert answer["ev"]["draws_left"] == puzzle.draws_left and answer["ev"]["options"][0]["discard"] in puzzle.accepted
    assert answer["ev"]["plain_best"] == puzzle.ev["plain_best"]


def test_every_ev_puzzle_has_an_explanation_that_fits_its_figures(puzzle):
    """The shipped ones, the generator's first few (the bank keeps only those the table bears out) and the factory's."""
    ensure_bank()
    Puzzle.objects.bulk_create([Puzzle(**{**bank_row(r), "key": f"g{r['key']}"}) for r in generate_ev(7, 3)[0]])
    with translation.override("en"):
        asked = list(Puzzle.objects.filter(themes__contains=" ev "))
        assert len(asked) >= 4
        for p in asked:
            plain, why, model = ev_explanation(p)
            rows = {o["discard"]: o for o in p.ev["options"]}
            a, b = rows[p.accepted[0]], rows[p.ev["plain_best"][0]]
            assert ("wins more often" in why) == (a["win"] > b["win"] + 0.005), p.key
            assert figure(a["score"]) in why and figure(b["score"]) in why, p.key  # as the EV table writes them
            assert figure(100 * a["win"], 1) + "%" in why, p.key
            ready = p.options[0]["shanten"] == 0
            assert ("wall never ran out" in model) == ready and ("next draw" in model) != ready, p.key

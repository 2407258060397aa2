"""Every link to the analyzer, on the learn pages and in the drills, is already its canonical link (200, never a 302)."""

from __future__ import annotations

import html
import re

import pytest
from django.http import QueryDict
from django.test import Client

from analysis.board import analyzer_url, apply_edit, board_url, canonical_query, read_board
from kwx import build_hand
from puzzles.banks import BANKS
from puzzles.generation.bank import WITHDRAWN, read_bank
from puzzles.models import Puzzle
from puzzles.views import analyzer_url as puzzle_url
from tests.puzzles.factories import aid, discard_puzzle, ev_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db
LEARN_PAGES = ["/learn/", "/learn/tiles/", "/learn/play/", "/learn/shapes/", "/learn/fans/", "/learn/settlement/", "/learn/glossary/", "/learn/koujue/"]
LINK = re.compile(r'href="(/(?:analyze/)?\?[^"]*)"')


def analyzer_links(page: str) -> set[str]:
    """The analyzer links of a page (with a query), unescaped."""
    return {html.unescape(link) for link in LINK.findall(page)}


def assert_canonical(client: Client, links: set[str]) -> None:
    for link in sorted(links):
        response = client.get(link)
        assert response.status_code == 200, (link, response.status_code, response.get("Location"))


def test_every_analyzer_link_on_the_learn_pages_is_canonical():
    client = Client()
    links: set[str] = set()
    for url in LEARN_PAGES:
        response = client.get(url)
        assert response.status_code == 200, url
        links |= analyzer_links(response.content.decode())
    assert len(links) > 20  # the fans page alone links every example under each preset
    assert_canonical(client, links)


def test_the_drills_analyzer_links_after_an_answer_are_canonical():
    client = Client()
    puzzles = [
        (discard_puzzle("34556p123789sZZZ", visible="55s"), {"discard": "3p"}),
        (discard_puzzle("46p11s8p[555s][FFF][BBB]", rules="shiyan"), {"discard": "8p"}),
        (ev_puzzle("34556p123789sZZZ", 3), {"discard": "Z"}),
        (quiz_puzzle("1p[ZZZ][FFF][BBB][444p]", "1p", situation=("liang_dao", "hai_di_lao")), None),
    ]
    links: set[str] = set()
    for n, (puzzle, answer) in enumerate(puzzles):
        if answer is None:
            answer = {"choice": puzzle.accepted[0]}
        url = f"/learn/quiz/{puzzle.pk}/" if puzzle.kind == "quiz" else f"/drills/{puzzle.pk}/"
        page = client.post(url, {**answer, "attempt": aid(n), "mode": "rated"})
        assert page.status_code == 200
        found = analyzer_links(page.content.decode())
        assert found, puzzle.notation
        links |= found
    assert_canonical(client, links)


BANK_KEYS = sorted(r["key"] for path in BANKS.values() for r in read_bank(path) if r["key"] not in WITHDRAWN)
SLICES = [BANK_KEYS[n : n + 200] for n in range(0, len(BANK_KEYS), 200)]
"""Every puzzle the shipped banks serve, in slices of 200 keys (one test each, so workers share them)."""


@pytest.mark.parametrize("keys", SLICES, ids=[f"{k[0]}-{k[-1]}" for k in SLICES])
def test_every_bank_puzzle_links_to_its_canonical_analyzer_state(keys):
    """The link opens the puzzle's position as it is (no error, no notice, no edit) and is the link
    the analyzer itself gives that state: the page answers it without redirecting."""
    puzzles = list(Puzzle.objects.filter(key__in=keys))
    assert len(puzzles) == len(keys)
    for puzzle in puzzles:
        url = puzzle_url(puzzle)
        path, _, query = url.partition("?")
        board, edited = apply_edit(read_board(QueryDict(query)), QueryDict(query))
        assert not edited and not board.errors and not board.notice, (puzzle.key, url, board.errors, board.notice)
        assert board_url(board, path) == url, puzzle.key
        assert board.hand is not None and board.hand.concealed == build_hand(puzzle.notation)[0].concealed, puzzle.key


@pytest.mark.parametrize("kinds", [("discard",), ("quiz",), Puzzle.TABLE_KINDS], ids=["discard", "quiz", "table"])
def test_bank_puzzle_links_are_answered_without_a_redirect(kinds):
    """Fetched as a visitor would: every 40th puzzle of the banks and the first 40 with melds or a situation, by kind."""
    every = list(Puzzle.objects.filter(key__in=BANK_KEYS).order_by("key"))
    fetched = [p for p in every[::40] + [p for p in every if p.melds or p.situation][:40] if p.kind in kinds]
    assert fetched
    assert_canonical(Client(), {puzzle_url(p) for p in fetched})


def test_analyzer_url_is_the_canonical_link_of_its_state():
    url = analyzer_url("1p [ZZZ][FFF][BBB][444p]", rules="shiyan", situation=("hai_di_lao", "liang_dao"))
    path, _, query = url.partition("?")
    assert path == "/analyze/" and canonical_query(read_board(QueryDict(query))) == query
    assert "rules=shiyan" in url and url.index("situation=hai_di_lao") < url.index("situation=liang_dao")
    assert Client().get(url).status_code == 200


def test_the_analyzer_examples_are_canonical_links():
    client = Client()
    links = {link for link in analyzer_links(client.get("/").content.decode()) if "hand=" in link}
    assert len(links) == 5
    assert_canonical(client, links)

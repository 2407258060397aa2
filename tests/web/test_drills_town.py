"""Drills and quiz under a town (issue 35 item 7), in Chinese and English: every item shows the rules it is asked under, linked to
their learn page, on its page and in its feedback; the player's town picks the items; where it has none of a kind the page says so."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from kwx.rules import OPTION_BY_KEY, PRESETS
from puzzles.models import Puzzle
from puzzles.selectors import quiz_money
from tests.puzzles.factories import aid, ensure_bank

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def banks():
    ensure_bank()


def _client(rules: str | None = None, language: str = "zh-hans") -> Client:
    client = Client()
    if language != "zh-hans":
        client.cookies["django_language"] = language
    if rules is not None:
        assert client.post("/town/", {"rules": rules}).status_code == 302
    return client


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _followed(client: Client, url: str) -> tuple[Puzzle, str]:
    """The item a /drills/ or /learn/quiz/ link redirects to, and its page."""
    response = client.get(url)
    assert response.status_code == 302
    pk = int(re.search(r"/(\d+)/", response["Location"]).group(1))
    return Puzzle.objects.get(pk=pk), _page(client, response["Location"])


@pytest.mark.parametrize(
    ("language", "label", "counted"),
    [("zh-hans", "孝感", '按<a href="/learn/towns/xiaogan/">孝感</a>规则计算'), ("en", "Xiaogan", 'Counted under the <a href="/learn/towns/xiaogan/">Xiaogan</a> rules')],
)
def test_a_xiaogan_player_gets_a_xiaogan_drill_labelled_and_linked_on_its_page_and_in_its_feedback(language, label, counted):
    client = _client("xiaogan", language)
    puzzle, html = _followed(client, "/drills/?mode=rated")
    assert puzzle.rules == "xiaogan" and puzzle.key.startswith("xiaogan-h")
    assert f'<a class="tap" href="/learn/towns/xiaogan/">{label}</a> · ' in html  # the rules it is asked under, and the cap ×16
    assert "×16" in html and "town-notice" not in html
    answered = client.post(f"/drills/{puzzle.pk}/", {"discard": puzzle.accepted[0], "attempt": aid(f"x-{language}"), "mode": "rated"}).content.decode()
    assert counted in answered
    assert (OPTION_BY_KEY["shu_kan"].name_en if language == "en" else OPTION_BY_KEY["shu_kan"].name) in answered  # the value counts 坎 on each win
    assert escape("rules=xiaogan") in answered  # the analyzer opens under the same rules


def test_a_xiaogan_drills_explanation_names_the_kan_on_top():
    puzzle = next(p for p in Puzzle.objects.filter(rules="xiaogan", kind=Puzzle.DISCARD).order_by("key") if any("worth" in w for w in p.options[0]["waits"]))
    html = _client("xiaogan", "en").post(f"/drills/{puzzle.pk}/", {"discard": puzzle.accepted[0], "attempt": aid("kan"), "mode": "rated"}).content.decode()
    wait = next(w for w in puzzle.options[0]["waits"] if "worth" in w)
    assert f"({wait['self_draw']}+{wait['discard']}, plus {wait['worth'] - wait['self_draw'] - wait['discard']} flat)" in html
    assert f"= {int(puzzle.options[0]['value'])}" in html


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_xiaogan_quiz_item_says_what_the_answer_is_and_what_is_paid_on_top(language):
    client = _client("xiaogan", language)
    puzzle, html = _followed(client, "/learn/quiz/")
    assert puzzle.rules == "xiaogan"
    names = OPTION_BY_KEY["shu_kan"].name_en if language == "en" else OPTION_BY_KEY["shu_kan"].name
    note = "The multiplier a payer who did not declare pays, after the cap." if language == "en" else "答案是没亮倒的一家要付的倍数（封顶后）。"
    assert note in html and names in html
    answered = client.post(f"/learn/quiz/{puzzle.pk}/", {"choice": puzzle.accepted[0], "attempt": aid(f"q-{language}")}).content.decode()
    money = quiz_money(puzzle=puzzle).money
    assert money.kan is not None and f"<td>+{money.kan}</td>" in answered  # 坎, counted by the engine
    assert f"<td>{money.amount}</td>" in answered  # ×M + 坎: what a payer who did not declare pays (漂 0)
    assert "/learn/towns/xiaogan/" in answered


def test_a_quiz_item_shows_what_a_declared_payer_pays_and_bao_hu_where_the_town_has_them():
    declared = next(p for p in Puzzle.objects.filter(rules="xiaogan", kind=Puzzle.QUIZ, win_side="self_draw").order_by("key") if not p.situation)
    money = quiz_money(puzzle=declared).money
    html = _client("xiaogan", "en").post(f"/learn/quiz/{declared.pk}/", {"choice": declared.accepted[0], "attempt": aid("d1")}).content.decode()
    assert money.declared_total == 2 * money.total or money.declared_total == PRESETS["xiaogan"].values.cap
    assert f"A payer who declared 亮倒 pays</th><td>×{money.declared_total}</td>" in html  # 孝感: 亮倒 of the payer doubles too
    bao = next(p for p in Puzzle.objects.filter(rules="xiangyang_town", kind=Puzzle.QUIZ, win_side="discard", situation=["liang_dao"]).order_by("key"))
    html = _client(None, "en").post(f"/learn/quiz/{bao.pk}/", {"choice": bao.accepted[0], "attempt": aid("d2")}).content.decode()
    assert f"包胡</th><td>×{quiz_money(puzzle=bao).money.bao_hu}</td>" in html  # the discarder pays both shares, capped on the sum


@pytest.mark.parametrize(
    ("language", "notice"),
    [
        ("zh-hans", "你的规则（十堰（地方规则））还没有这类题：本题按通用规则出题。"),
        ("en", "No drills of this kind under your rules (Shiyan (town rules)) yet: this one is asked under the Standard rules."),
    ],
)
def test_where_the_town_has_no_bank_of_a_kind_the_page_says_which_rules_it_is_asked_under(language, notice):
    client = _client("shiyan_town", language)
    puzzle, html = _followed(client, "/drills/?mode=rated&kind=pong")  # the table drills: standard rules only
    assert puzzle.rules == "standard" and notice in html
    assert 'href="/town/?next=' in html  # the town is one tap away
    quiz, quiz_html = _followed(client, "/learn/quiz/")  # 十堰 has a quiz of its own
    assert quiz.rules == "shiyan_town" and "town-notice" not in quiz_html
    assert "上楼" in quiz_html  # the dice double is paid apart, not part of the answer


def test_an_item_under_another_town_says_so_and_a_player_without_a_town_sees_only_its_label():
    item = Puzzle.objects.filter(rules="suizhou", kind=Puzzle.QUIZ).order_by("key").first()
    html = _page(_client("xiaogan", "en"), f"/learn/quiz/{item.pk}/")
    assert "This one is asked under the Suizhou rules, not yours (Xiaogan)." in html and '<a class="tap" href="/learn/towns/suizhou/">Suizhou</a>' in html
    html = _page(_client(), f"/learn/quiz/{item.pk}/")
    assert "town-notice" not in html and '<a class="tap" href="/learn/towns/suizhou/">随州</a>' in html


def test_a_legacy_item_keeps_its_legacy_label_and_a_visitor_gets_only_legacy_items():
    puzzle, html = _followed(_client(), "/drills/?mode=rated")
    assert puzzle.rules in ("standard", "xiangyang", "shiyan") and "-" not in puzzle.key
    assert f'<a class="tap" href="/learn/towns/{puzzle.rules}/">{PRESETS[puzzle.rules].name}</a>' in html


def test_the_api_names_the_rules_of_the_next_puzzle_for_the_players_town():
    client = _client("xiaogan", "en")
    body = client.get("/api/v1/puzzles/next/", {"mode": "quiz"}).json()
    assert body["rules"] == "xiaogan" and body["rules_label"] == "Xiaogan" and body["rule_options"]["shu_kan"] is True

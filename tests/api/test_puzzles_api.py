"""The drills API: next puzzle, answering (idempotent, one player's own progress only), progress."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Player
from puzzles.models import Attempt
from tests.puzzles.factories import aid, discard_puzzle, ensure_bank, quiz_puzzle

pytestmark = pytest.mark.django_db


def _answer(client, puzzle, body):
    return client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", body, content_type="application/json")


def test_next_puzzle_shape():
    ensure_bank()
    body = Client().get("/api/v1/puzzles/next/", {"mode": "theme", "theme": "dragons"}).json()
    assert {"id", "hand", "melds", "visible", "rules", "situation", "themes", "rating"} <= set(body)
    assert "dragons" in body["themes"] and "accepted" not in body and "options" not in body


@pytest.mark.parametrize("query, field", [({"mode": "nope"}, "mode"), ({"mode": "theme", "theme": "nope"}, "theme"), ({"mode": "theme"}, "theme")])
def test_next_puzzle_bad_query(query, field):
    r = Client().get("/api/v1/puzzles/next/", query)
    assert r.status_code == 400 and r.json()["error"]["field"] == field


def test_review_with_nothing_due_is_a_404_with_a_message():
    r = Client().get("/api/v1/puzzles/next/", {"mode": "review"})
    assert r.status_code == 404 and r.json()["error"]["message"]


def test_answer_right_and_wrong():
    puzzle = discard_puzzle("34556p123789sZZZ")
    client = Client()
    body = _answer(client, puzzle, {"discard": "3p", "attempt": str(uuid.uuid4())}).json()
    assert body["correct"] is True and body["best"] == ["3p"]
    assert body["options"][0]["discard"] == "3p" and body["options"][0]["value"] is not None
    assert body["rating"]["rated"] and body["rating"]["change"] > 0
    body = _answer(client, discard_puzzle("34556p123789sZZZ"), {"discard": "中", "attempt": str(uuid.uuid4())}).json()
    assert body["correct"] is False and body["answer"] == "Z" and body["rating"]["change"] < 0


def test_quiz_answer_returns_the_fan_breakdown():
    quiz = quiz_puzzle("4556p123789sZZZ", "5p", side="discard", situation=("liang_dao",))
    body = _answer(Client(), quiz, {"choice": 4, "attempt": aid("q")}).json()
    assert body["correct"] and body["best"] == [4]
    assert [f["key"] for f in body["options"]] == ["ka_wu_xing", "liang_dao"]


def test_same_attempt_twice_counts_once():
    puzzle = discard_puzzle("34556p123789sZZZ")
    client = Client()
    attempt = str(uuid.uuid4())
    first = _answer(client, puzzle, {"discard": "3p", "attempt": attempt}).json()
    second = _answer(client, puzzle, {"discard": "3p", "attempt": attempt}).json()
    assert second["replay"] and second["rating"] == first["rating"]
    assert Attempt.objects.count() == 1
    assert client.get("/api/v1/progress/").json()["attempts"] == 1


@pytest.mark.parametrize(
    "body, field",
    [({"discard": "9p", "attempt": aid("a")}, "discard"), ({"discard": "3p"}, "attempt"), ({"discard": "3p", "attempt": "x" * 65}, "attempt"), ({}, "discard")],
)
def test_bad_answers_say_which_field(body, field):
    r = _answer(Client(), discard_puzzle("34556p123789sZZZ"), body)
    assert r.status_code == 400 and r.json()["error"]["field"] == field
    assert not Attempt.objects.exists()


def test_unknown_puzzle_is_404():
    assert Client().post("/api/v1/puzzles/999999/answer/", {"discard": "3p", "attempt": aid("a")}, content_type="application/json").status_code == 404


def test_players_only_see_and_change_their_own_progress():
    puzzle = discard_puzzle("34556p123789sZZZ")
    ann, bob = Client(), Client()
    _answer(ann, puzzle, {"discard": "3p", "attempt": aid("shared")})
    assert ann.get("/api/v1/progress/").json()["attempts"] == 1
    assert bob.get("/api/v1/progress/").json()["attempts"] == 0
    # Bob replaying Ann's attempt id is Bob's own answer, and Ann's record is untouched.
    body = _answer(bob, puzzle, {"discard": "Z", "attempt": aid("shared")}).json()
    assert body["correct"] is False and not body["replay"]
    assert ann.get("/api/v1/progress/").json()["correct"] == 1
    assert Player.objects.count() == 2


def test_logged_in_players_need_csrf_for_answers():
    User.objects.create_user("cat", password="pw-12345678")
    client = Client(enforce_csrf_checks=True)
    client.login(username="cat", password="pw-12345678")
    r = _answer(client, discard_puzzle("34556p123789sZZZ"), {"discard": "3p", "attempt": aid("a")})
    assert r.status_code == 403 and not Attempt.objects.exists()


def test_answers_are_throttled(settings):
    puzzle = discard_puzzle("34556p123789sZZZ")
    client = Client()
    codes = [_answer(client, puzzle, {"discard": "3p", "attempt": aid(f"a{i}")}).status_code for i in range(62)]
    assert codes[:60] == [200] * 60 and codes[-1] == 429


@pytest.mark.parametrize("attempt", ["a\x00b", "not-a-uuid", "3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3a" + "\x00"])
def test_an_attempt_id_must_be_a_uuid(attempt):
    r = _answer(Client(), discard_puzzle("34556p123789sZZZ"), {"discard": "3p", "attempt": attempt})
    assert r.status_code == 400 and r.json()["error"]["field"] == "attempt" and not Attempt.objects.exists()


def test_a_bad_discard_names_invisible_characters_by_code_point():
    r = _answer(Client(), discard_puzzle("34556p123789sZZZ"), {"discard": "3\u202ep", "attempt": aid("rtl")})
    assert r.status_code == 400 and "U+202E" in r.json()["error"]["message"] and "\u202e" not in r.json()["error"]["message"]


def test_an_empty_theme_is_refused_as_the_schema_says():
    r = Client().get("/api/v1/puzzles/next/", {"theme": ""})
    assert r.status_code == 400 and r.json()["error"]["field"] == "theme"

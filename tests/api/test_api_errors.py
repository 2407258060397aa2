"""Hostile input under /api/: strict parsing with a 400 naming the field, and one JSON error shape for every failure."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import Client

from puzzles.models import Attempt
from tests.puzzles.factories import aid, discard_puzzle

pytestmark = pytest.mark.django_db
HAND = "4556p123789sZZZ"
SETTLE = {"players": ["甲", "乙", "丙"], "result": "self_draw", "winners": [{"player": "甲", "hand": HAND, "tile": "5p"}]}


def _post(url, raw, **extra):
    return Client(raise_request_exception=False).post(url, raw, content_type="application/json", **extra)


def _error(response, status=400):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"field", "message"} and body["error"]["message"]
    return body["error"]


@pytest.mark.parametrize(
    "url, raw, field",
    [
        ("/api/v1/analyze/", '{"hand": "\\ud800"}', "hand"),
        ("/api/v1/analyze/", '{"hand": "%s", "visible": "5p\\udfff"}' % HAND, "visible"),
        ("/api/v1/analyze/", '{"hand": "%s", "melds": [{"type": "pong", "tile": "\\ud83d"}]}' % "46p11s[FFF][BBB]", "melds"),
        ("/api/v1/analyze/", '{"hand": "%s", "revealed": ["\\ud800"]}' % HAND, "revealed"),
        ("/api/v1/analyze/", '{"\\ud800": 1, "hand": "%s"}' % HAND, "U+D800"),
        ("/api/v1/settle/", json.dumps(SETTLE).replace('"\\u7532"', '"\\ud800"', 1), "players"),
        ("/api/v1/settle/", json.dumps(SETTLE | {"dealer": "\ud800"}, ensure_ascii=True, default=str).replace("\\\\", "\\"), "dealer"),
    ],
)
def test_lone_surrogates_are_a_400_naming_the_field(url, raw, field):
    error = _error(_post(url, raw))
    assert error["field"] == field and "U+D" in error["message"]


def test_a_lone_surrogate_in_an_answer_is_a_400():
    puzzle = discard_puzzle("34556p123789sZZZ")
    error = _error(_post(f"/api/v1/puzzles/{puzzle.pk}/answer/", '{"discard": "\\ud800", "attempt": "%s"}' % aid(1)))
    assert error["field"] == "discard" and not Attempt.objects.exists()


@pytest.mark.parametrize(
    "url, body, field",
    [
        ("/api/v1/analyze/", {"hand": HAND, "revealed": None}, "revealed"),
        ("/api/v1/analyze/", {"hand": HAND, "visible": None}, "visible"),
        ("/api/v1/settle/", SETTLE | {"dealer": None}, "dealer"),
        ("/api/v1/settle/", SETTLE | {"winners": [{"player": "甲", "hand": HAND, "tile": None}]}, "winners"),
    ],
)
def test_null_is_refused_naming_the_field(url, body, field):
    assert _error(_post(url, json.dumps(body)))["field"] == field


@pytest.mark.parametrize(
    "query, field",
    [
        ({"rob_kong": "maybe"}, "rob_kong"),
        ({"liang_dao_when_ready": "sometimes", "depth": "ev", "draws_left": "3"}, "liang_dao_when_ready"),
    ],
)
def test_a_flag_that_is_neither_true_nor_false_is_refused(query, field):
    error = _error(Client().get("/api/v1/analyze/", {"hand": HAND, **query}))
    assert error["field"] == field


@pytest.mark.parametrize("word, value", [("1", True), ("true", True), ("0", False), ("false", False), ("off", False)])
def test_true_and_false_words_are_read(word, value):
    body = Client().get("/api/v1/analyze/", {"hand": HAND, "rob_kong": word}).json()
    assert body["rule_options"]["rob_kong"] is value


@pytest.mark.parametrize("visible", ["5x", "55", "5p55"])
def test_a_bad_visible_text_is_reported_as_visible_by_get_and_post(visible):
    for r in (_post("/api/v1/analyze/", json.dumps({"hand": HAND, "visible": visible})), Client().get("/api/v1/analyze/", {"hand": HAND, "visible": visible})):
        assert _error(r)["field"] == "visible"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"discard": "3p", "attempt": aid(2), "mode": "zzz"}, "mode"),
        ({"discard": "3p", "attempt": aid(3), "mode": 7}, "mode"),
        ({"discard": "3p", "attempt": aid(4), "foo": 1}, "foo"),
        ({"discard": "3p", "attempt": aid(5), "choice": 8}, "choice"),
    ],
)
def test_an_answer_with_an_unknown_mode_or_field_is_refused(body, field):
    puzzle = discard_puzzle("34556p123789sZZZ")
    assert _error(_post(f"/api/v1/puzzles/{puzzle.pk}/answer/", json.dumps(body)))["field"] == field
    assert not Attempt.objects.exists()


def test_an_answer_body_that_is_not_an_object_is_refused():
    puzzle = discard_puzzle("34556p123789sZZZ")
    assert _error(_post(f"/api/v1/puzzles/{puzzle.pk}/answer/", "[1, 2]"))["field"] == "body"


@pytest.mark.parametrize("language, word", [("zh-hans", "题"), ("en", "puzzle")])
def test_a_missing_puzzle_is_a_404_in_the_requests_language(language, word):
    error = _error(_post("/api/v1/puzzles/999999/answer/", json.dumps({"discard": "3p", "attempt": aid(6)}), HTTP_ACCEPT_LANGUAGE=language), 404)
    assert error["field"] == "id" and word in error["message"]


@pytest.mark.parametrize("text", ["abc", "-1", "1.5", "%E2%80%AE7"])
def test_a_puzzle_id_that_is_not_a_whole_number_is_a_404_naming_id(text):
    error = _error(_post(f"/api/v1/puzzles/{text}/answer/", json.dumps({"discard": "3p", "attempt": aid(7)}), HTTP_ACCEPT_LANGUAGE="en"), 404)
    assert error["field"] == "id" and "whole number" in error["message"]
    assert "\u202e" not in error["message"]  # an invisible character is named by its code point, not sent raw


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_failure_under_the_api_has_the_json_shape_in_the_requests_language(language):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    too_big = _error(client.post("/api/v1/analyze/", json.dumps({"hand": "x" * 70_000}), content_type="application/json"), 413)
    many = _error(client.get("/api/v1/analyze/?" + "&".join(f"a{i}=1" for i in range(1100))))
    unknown = _error(client.get("/api/v1/nope/"), 404)
    not_an_id = _error(client.post("/api/v1/puzzles/abc/answer/", "{}", content_type="application/json"), 404)
    chunked = _error(client.post("/api/v1/analyze/", b"", content_type="application/json", HTTP_TRANSFER_ENCODING="chunked"), 411)
    assert too_big["field"] == chunked["field"] == "body" and many["field"] == "query"
    chinese = [e["message"] for e in (too_big, many, unknown, not_an_id, chunked)]
    has_han = [any("\u4e00" <= c <= "\u9fff" for c in m) for m in chinese]
    assert has_han == [language == "zh-hans"] * 5, chinese


def test_trace_is_refused_everywhere():
    for path in ("/", "/api/v1/analyze/", "/healthz/"):
        r = Client().generic("TRACE", path)
        assert r.status_code == 405 and "TRACE" not in r["Allow"]


def test_a_database_outage_is_a_json_503_with_retry_after(monkeypatch):
    from puzzles import selectors

    def down(*args, **kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(selectors, "progress", down)
    r = Client(raise_request_exception=False).get("/api/v1/progress/", HTTP_ACCEPT_LANGUAGE="en")
    error = _error(r, 503)
    assert int(r["Retry-After"]) > 0 and "database" in error["message"]


def test_any_other_server_failure_is_a_json_500(monkeypatch):
    from puzzles import selectors

    monkeypatch.setattr(selectors, "progress", lambda *a, **k: 1 / 0)
    _error(Client(raise_request_exception=False).get("/api/v1/progress/"), 500)

"""The analysis API beyond the vectors: GET links, languages, limits, schema."""

from __future__ import annotations

import re

import pytest
from django.test import Client

URL = "/api/v1/analyze/"


def test_get_answers_like_post(client):
    posted = client.post(
        URL,
        {"hand": "46p11s", "melds": [{"type": "pong", "tile": "5p"}, {"type": "pong", "tile": "F"}, {"type": "pong", "tile": "B"}], "rules": "shiyan", "situation": ["liang_dao"]},
        content_type="application/json",
    ).json()
    got = client.get(URL, {"hand": "46p11s[555p][FFF][BBB]", "rules": "shiyan", "situation": "liang_dao"}).json()
    assert got == posted
    assert got["notation"] == "46p11s[555p][FFF][BBB]"


def test_get_takes_rule_options(client):
    body = client.get(URL, {"hand": "3333445678s[777s]", "si_gui_yi_big_hand": "1"}).json()
    assert body["waits"][0]["self_draw"]["total"] == 32


def test_fourteen_tiles_best_first(client):
    body = client.get(URL, {"hand": "34556p123789sZZZ"}).json()
    assert body["tile_count"] == 14
    assert body["options"][0]["discard"] == "3p" and body["options"][0]["value"] == 8


def test_error_messages_are_chinese_by_default_and_english_on_request(client):
    zh = client.post(URL, {"hand": "123x456p789s11sZZ"}, content_type="application/json").json()["error"]
    en = client.post(URL, {"hand": "123x456p789s11sZZ"}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en").json()["error"]
    assert zh["field"] == en["field"] == "hand"
    assert "x" in zh["message"] and "4" in zh["message"] and "字符" in zh["message"]
    assert en["message"] == 'Unknown character "x" at position 4.'


@pytest.mark.parametrize(
    "body, field",
    [
        ({"hand": "4556p123789sZZZ", "melds": "pong"}, "melds"),
        ({"hand": "4556p123789sZZZ", "melds": [{"type": "pong"}]}, "melds"),
        ({"hand": "4556p123789sZZZ", "melds": [["pong", "5p"]]}, "melds"),
        ({"hand": "4556p123789sZZZ", "visible": 5}, "visible"),
        ({"hand": "4556p123789sZZZ", "situation": "liang_dao"}, "situation"),
        ({"hand": "4556p123789sZZZ", "situation": [None]}, "situation"),
        ({"hand": "4556p123789sZZZ", "options": {"rob_kong": "yes"}}, "options"),
        ({"hand": "4556p123789sZZZ", "options": []}, "options"),
        ({"hand": "4556p123789sZZZ", "rules": None}, "rules"),
        ({"hand": "4556p123789sZZZ", "colour": "red"}, "colour"),
        ({"melds": []}, "hand"),
        ({"hand": "4556p" * 60}, "hand"),
    ],
)
def test_bad_fields_are_named(client, body, field):
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field


@pytest.mark.parametrize("raw", [b"[1, 2]", b'"hand"', b"{", b"\xff\xfe", b"[" * 5000 + b"]" * 5000, b"null"])
def test_malformed_bodies_get_a_400(client, raw):
    response = client.post(URL, raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["message"]


def test_bodies_over_10_kb_are_refused(client):
    body = '{"hand": "4556p123789sZZZ", "visible": "' + " " * 11000 + '"}'
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 413
    assert "10240" in response.json()["error"]["message"]


def test_other_methods_get_the_error_shape(client):
    response = client.delete(URL)
    assert response.status_code == 405
    assert response.json()["error"]["message"]


def test_schema_and_docs_are_served_without_a_cdn(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    assert "/api/v1/analyze/" in text and "/api/v1/hands/replay/" in text
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html and "cdn" not in html.lower() and "//unpkg" not in html


@pytest.mark.parametrize("char, code", [("\x00", "U+0000"), ("\u202e", "U+202E"), ("\u200b", "U+200B"), ("\ufeff", "U+FEFF")])
def test_invisible_characters_are_named_by_their_code_point(char, code):
    for r in (
        Client().post("/api/v1/analyze/", {"hand": f"45{char}56p123789sZZZ"}, content_type="application/json"),
        Client().post("/api/v1/analyze/", {"hand": "4556p123789sZZZ", "visible": f"5{char}p"}, content_type="application/json"),
        Client().get("/api/v1/analyze/", {"hand": f"45{char}56p123789sZZZ"}, HTTP_ACCEPT_LANGUAGE="en"),
    ):
        message = r.json()["error"]["message"]
        assert r.status_code == 400 and code in message and char not in message
    page = Client().get("/analyze/", {"hand": f"45{char}56p123789sZZZ"}).content.decode()
    outside_inputs = re.sub(r'value="[^"]*"', "", page)  # the text field keeps what was typed
    assert code in page and char not in outside_inputs

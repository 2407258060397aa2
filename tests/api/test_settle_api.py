"""``POST /api/v1/settle/``: payments with reasons, nets, next dealer, 400s with a field and a message."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/api/v1/settle/"
BODY = {
    "players": ["甲", "乙", "丙"],
    "base": 1,
    "piao": [1, 2, 0],
    "kongs": [{"who": "乙", "type": "an_gang", "tile": "F"}],
    "result": "self_draw",
    "winners": [{"player": "甲", "hand": "4556p123s789sZZZ", "tile": "5p"}],
}


def post(client, body, **headers):
    return client.post(URL, body, content_type="application/json", **headers)


def test_self_draw_with_piao_and_a_kong(client):
    response = post(client, BODY)
    assert response.status_code == 200
    body = response.json()
    assert body["wins"][0]["multiplier"] == 2 and body["wins"][0]["fans"][0]["key"] == "ka_wu_xing"
    first = body["payments"][0]
    assert (first["payer"], first["payee"], first["amount"]) == ("乙", "甲", 2 + 3)
    assert [r["key"] for r in first["reasons"]] == ["self_draw", "piao"]
    assert first["reasons"][1]["numbers"] == {"winner": 1, "payer": 2, "base": 1}
    assert first["text"] == "自摸 ×2 = 2 · 漂 1+2 = 3"
    assert body["nets"] == [{"player": "甲", "net": 5 + 3 - 2}, {"player": "乙", "net": -5 + 4}, {"player": "丙", "net": -3 - 2}]
    assert body["next_dealer"] == "甲"


def test_reasons_in_english_on_request(client):
    body = post(client, BODY, HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["payments"][0]["text"] == "self-draw (自摸) ×2 = 2 · 漂 (piao) 1+2 = 3"
    assert body["payments"][-1]["text"] == "暗杠 (concealed kong) Green dragon 2 = 2"


def test_drawn_hand_keeps_the_dealer_given(client):
    body = post(client, {"players": ["甲", "乙", "丙"], "result": "draw", "liang_dao": ["乙"], "dealer": "丙"}).json()
    assert [n["net"] for n in body["nets"]] == [1, -2, 1]
    assert body["next_dealer"] == "丙"
    assert post(client, {"players": ["甲", "乙", "丙"], "result": "draw"}).json()["next_dealer"] is None


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"winners": [{"player": "丁", "hand": "4556p123s789sZZZ", "tile": "5p"}]}, "winners", "丁"),
        ({"kongs": [{"who": "乙", "type": "an_gang", "tile": "Z"}]}, "kongs", "只有 4 张"),
        ({"winners": [{"player": "甲", "hand": "4556p123s789sZZZ", "tile": "9p"}]}, "winners", "9p"),
        ({"dealer": "丁"}, "dealer", "丁"),
        ({"base": "many"}, "base", "1"),
    ],
)
def test_bad_input_is_a_400_with_field_and_message(client, change, field, words):
    response = post(client, {**BODY, **change})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == field
    assert words in error["message"]


def test_bad_input_message_in_english(client):
    error = post(client, {**BODY, "winners": [{"player": "甲", "hand": "4556p123s789sZZZ", "tile": "9p"}]}, HTTP_ACCEPT_LANGUAGE="en").json()["error"]
    assert error == {"field": "winners", "message": "甲's hand does not win on 9p."}


def test_a_winner_hand_that_does_not_parse_names_the_winner_and_the_character(client):
    error = post(client, {**BODY, "winners": [{"player": "甲", "hand": "4556p123s789sZZx", "tile": "5p"}]}, HTTP_ACCEPT_LANGUAGE="en").json()["error"]
    assert error["field"] == "winners"
    assert error["message"] == '甲\'s hand: Unknown character "x" at position 16.'


def test_schema_documents_the_endpoint(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/settle/"]["post"]
    assert set(operation["responses"]) >= {"200", "400"}
    assert "SettleRequest" in schema["components"]["schemas"]


_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**12), st.text(max_size=12), st.sampled_from(["甲", "乙", "5p", "F", "an_gang", "zhi_gang", "discard", "rob_kong", "4556p123s789sZZZ"]))
_VALUES = st.recursive(
    _JUNK,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["who", "type", "tile", "fed_by", "chain", "player", "hand", "situation"]), inner, max_size=5)),
    max_leaves=12,
)


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
@given(st.dictionaries(st.sampled_from(["base", "piao", "rules", "options", "kongs", "liang_dao", "result", "discarder", "winners", "dealer"]), _VALUES, max_size=6))
def test_any_body_is_answered_or_refused_never_a_crash(client, change):
    response = post(client, {**BODY, **change})
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert response.json()["error"]["message"]
    else:
        assert sum(n["net"] for n in response.json()["nets"]) == 0

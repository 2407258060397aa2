"""POST /api/v1/hands/replay/: every worked record of tests/vectors/hands.json, bad bodies, the schema."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import VECTORS

CASES = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))["cases"]
URL = "/api/v1/hands/replay/"


def post(client, body):
    return client.post(URL, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vector(client, case):
    response = post(client, case["record"])
    expect = case["expect"]
    body = response.json()
    if "error" in expect:
        assert response.status_code == 400, body
        assert body["error"]["field"] == expect["error"]["field"]
        assert body["error"].get("action") == expect["error"].get("action")
        assert body["error"]["message"]
        return
    assert response.status_code == 200, body
    for key in ("result", "discarder", "kongs", "liang_dao", "nets", "next_dealer"):
        assert body[key] == expect[key], key
    assert len(body["winners"]) == len(expect["winners"])
    for got, want in zip(body["winners"], expect["winners"]):
        assert {k: got[k] for k in ("seat", "tile", "total")} == {k: want[k] for k in ("seat", "tile", "total")}
        assert sorted(got["situation"]) == sorted(want["situation"])
        assert all({"key", "name", "multiplier"} <= set(f) for f in got["fans"])
    assert sum(body["nets"]) == 0
    paid = [0, 0, 0]
    names = case["record"]["players"]
    for p in body["payments"]:
        paid[names.index(p["payer"])] -= p["amount"]
        paid[names.index(p["payee"])] += p["amount"]
    assert paid == body["nets"]


def test_legal_record_gives_fans_and_payment_reasons(client):
    case = next(c for c in CASES if c["id"] == "gskh_an-0")
    body = post(client, case["record"]).json()
    keys = [f["key"] for f in body["winners"][0]["fans"]]
    assert "ka_wu_xing" in keys and "gang_shang_kai_hua" in keys
    reasons = {r["key"] for p in body["payments"] for r in p["reasons"]}
    assert {"self_draw", "an_gang"} <= reasons


@pytest.mark.parametrize(
    "change, field",
    [
        ({"format": "kwx-hand/2"}, "format"),
        ({"rules": "wuhan"}, "rules"),
        ({"options": {"fly": True}}, "options"),
        ({"base": 0}, "base"),
        ({"base": True}, "base"),
        ({"piao": [0, 3, 0]}, "piao"),
        ({"players": ["甲", "甲", "丙"]}, "players"),
        ({"dealer": "0"}, "dealer"),
        ({"hands": ["123p", "456p", "789p"]}, "hands"),
        ({"hands": ["1111p2222p3333p4", "1p1234567899s", "Z"]}, "hands"),
        ({"actions": {"seat": 0}}, "actions"),
        ({"winner": 1}, "winner"),
    ],
)
def test_bad_header_names_the_field(client, change, field):
    record = copy.deepcopy(CASES[0]["record"]) | change
    response = post(client, record)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field
    assert "action" not in response.json()["error"]


def test_missing_dealer_and_non_object_body(client):
    record = copy.deepcopy(CASES[0]["record"])
    del record["dealer"]
    assert post(client, record).json()["error"]["field"] == "dealer"
    response = post(client, [1, 2])
    assert response.status_code == 400 and response.json()["error"]["field"] == "body"


@pytest.mark.parametrize(
    "action",
    [
        "draw 5p",
        {"seat": 3, "draw": "5p"},
        {"seat": 0},
        {"seat": 0, "draw": "5p", "discard": "5p"},
        {"seat": 0, "draw": "5p", "liang_dao": True},
        {"seat": 0, "chow": "5p"},
        {"seat": 0, "draw": "5x"},
        {"seat": 0, "draw": "55p"},
    ],
)
def test_malformed_first_action_is_action_0(client, action):
    record = copy.deepcopy(CASES[0]["record"])
    record["actions"][0] = action
    error = post(client, record).json()["error"]
    assert (error["field"], error["action"]) == ("actions", 0)


def test_message_in_the_request_language(client):
    case = next(c for c in CASES if c["id"] == "pinghu_discard-1")
    zh = client.post(URL, json.dumps(case["record"]), content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    en = client.post(URL, json.dumps(case["record"]), content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert zh.json()["error"]["message"] != en.json()["error"]["message"]
    assert "屁胡" in en.json()["error"]["message"]


def test_replay_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/hands/replay/"]["post"]
    assert {"200", "400"} <= set(operation["responses"])


LEGAL = [c["record"] for c in CASES if "error" not in c["expect"]]


@given(
    which=st.integers(0, len(LEGAL) - 1),
    index=st.integers(0, 200),
    value=st.one_of(st.none(), st.integers(-2, 5), st.text(max_size=4), st.sampled_from(["5p", "Z", "9s", "1p"])),
    key=st.sampled_from(["seat", "draw", "discard", "pong", "kong", "win", "liang_dao"]),
)
def test_mutated_records_never_fail_the_server(which, index, value, key):
    client = Client()
    record = copy.deepcopy(LEGAL[which])
    actions = record["actions"]
    actions[index % len(actions)] = {**actions[index % len(actions)], key: value}
    response = post(client, record)
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        error = response.json()["error"]
        assert error["field"] == "actions" and 0 <= error["action"] < len(actions)

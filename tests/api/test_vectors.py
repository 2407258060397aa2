"""The analysis vectors (tests/vectors/analyze.json, a copy of ../shared/vectors/analyze.json), every case and every error, through the HTTP API."""

from __future__ import annotations

import json

import pytest

from tests.conftest import VECTORS as VECTORS_DIR

VECTORS = json.loads((VECTORS_DIR / "analyze.json").read_text(encoding="utf-8"))
URL = "/api/v1/analyze/"


def assert_matches(expected, actual, path="$"):
    """Every figure in ``expected`` is in ``actual``; waits/options are matched by tile, all present."""
    if isinstance(expected, dict):
        for key, value in expected.items():
            if key == "ukeire_total":
                assert actual["ukeire"]["total"] == value, f"{path}.ukeire.total"
                continue
            assert key in actual, f"{path}.{key} missing"
            assert_matches(value, actual[key], f"{path}.{key}")
    elif isinstance(expected, list):
        key = "tile" if expected and "tile" in expected[0] else "discard"
        assert sorted(e[key] for e in expected) == sorted(a[key] for a in actual), path
        by_key = {a[key]: a for a in actual}
        for item in expected:
            assert_matches(item, by_key[item[key]], f"{path}[{item[key]}]")
    else:
        assert expected == actual, path


def assert_well_formed(body):
    """The fields the vectors leave free must still exist."""
    for key in ("hand", "melds", "rules", "tile_count", "shanten"):
        assert key in body
    waits = body["waits"] if body["tile_count"] == 13 else [w for o in body["options"] for w in o["waits"]]
    for wait in waits:
        for side in ("self_draw", "discard"):
            assert {"allowed", "total", "fans"} <= set(wait[side])
            for fan in wait[side]["fans"]:
                assert {"key", "name", "multiplier"} <= set(fan)
    if body["tile_count"] == 13:
        assert {"total", "tiles"} <= set(body["ukeire"])
    else:
        for option in body["options"]:
            assert {"discard", "shanten", "ukeire", "waits", "value"} <= set(option)


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["description"] for c in VECTORS["cases"]])
def test_case(client, case):
    response = client.post(URL, case["request"], content_type="application/json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert_matches(case["expect"], body)
    assert_well_formed(body)


@pytest.mark.parametrize("case", VECTORS["errors"], ids=[c["description"] for c in VECTORS["errors"]])
def test_error(client, case):
    response = client.post(URL, case["request"], content_type="application/json")
    assert response.status_code == case["expect_status"]
    error = response.json()["error"]
    assert error["field"] and error["message"]


def test_vectors_are_not_empty():
    assert len(VECTORS["cases"]) >= 30 and len(VECTORS["errors"]) >= 15

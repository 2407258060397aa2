"""``depth: ev``, ``draws_left`` and ``revealed`` on /api/v1/analyze/ (issue 9)."""
from __future__ import annotations

import pytest

from analysis.engine import analyze

URL = "/api/v1/analyze/"
HAND = "34556p123789sZZZ"
REVEALED = "46p456s789sFFF11s"  # a 亮倒 hand waiting on 5p


def post(client, body):
    return client.post(URL, body, content_type="application/json")


def test_ev_adds_the_three_figures_to_every_option(client):
    body = post(client, {"hand": HAND, "depth": "ev", "draws_left": 12}).json()
    assert body["draws_left"] == 12
    for option in body["options"]:
        assert option["method"] == "exact"
        assert 0.0 <= option["win_probability"] <= option["ready_probability"] <= 1.0
        assert option["expected_score"] >= 0.0
        assert option["expected_score"] == round(option["expected_score"], 4)
    assert body["options"][0]["discard"] == "3p"
    keys = [(o["shanten"], -o["expected_score"]) for o in body["options"]]
    assert keys == sorted(keys)


def test_ev_on_a_thirteen_tile_hand(client):
    body = post(client, {"hand": "4556p123789sZZZ", "depth": "ev", "draws_left": 1}).json()
    assert body["ready_probability"] == 1.0 and body["method"] == "exact"
    assert body["win_probability"] == round(1 / 71 + 70 / 71 * (1 / 71 + 70 / 71 * 2 / 71), 4)


def test_deep_options_report_samples_and_errors(client):
    body = post(client, {"hand": "1p4p7p1s4s7sZFB258p9s3s", "depth": "ev", "draws_left": 6}).json()
    option = body["options"][0]
    assert option["method"] == "monte_carlo" and option["samples"] > 0
    assert set(option["stderr"]) == {"ready_probability", "win_probability", "expected_score"}


def test_liang_dao_when_ready_changes_the_score(client):
    plain = post(client, {"hand": "4556p123789sZZZ", "depth": "ev", "draws_left": 4}).json()
    declared = post(client, {"hand": "4556p123789sZZZ", "depth": "ev", "draws_left": 4, "liang_dao_when_ready": True}).json()
    assert declared["expected_score"] != plain["expected_score"]


def test_revealed_marks_danger_and_never_puts_it_first(client):
    body = post(client, {"hand": HAND, "revealed": [REVEALED]}).json()
    assert body["danger"] == [{"opponent": 1, "tiles": ["5p"]}]
    assert body["options"][-1]["discard"] == "5p" and body["options"][-1]["deals_in"] is True
    assert not any(o["deals_in"] for o in body["options"][:-1])
    ev = post(client, {"hand": HAND, "revealed": [REVEALED], "depth": "ev", "draws_left": 12}).json()
    assert ev["options"][-1]["discard"] == "5p"


def test_revealed_on_a_thirteen_tile_hand_lists_held_tiles_that_deal_in(client):
    body = post(client, {"hand": "4556p123789sZZZ", "revealed": [REVEALED]}).json()
    assert body["deals_in"] == ["5p"]


def test_get_takes_the_new_fields(client):
    got = client.get(URL, {"hand": HAND, "depth": "ev", "draws_left": "5", "revealed": REVEALED}).json()
    posted = post(client, {"hand": HAND, "depth": "ev", "draws_left": 5, "revealed": [REVEALED]}).json()
    assert got == posted


def test_get_refuses_a_draw_count_int_cannot_read(client):
    response = client.get(URL, {"hand": HAND, "depth": "ev", "draws_left": "²"})  # a digit to str.isdigit
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "draws_left"


def test_plain_output_is_unchanged(client):
    before = analyze(HAND)
    assert post(client, {"hand": HAND}).json() == before
    assert post(client, {"hand": HAND, "depth": "plain"}).json() == before
    assert "win_probability" not in before["options"][0] and "danger" not in before


@pytest.mark.parametrize(
    "body, field",
    [
        ({"hand": HAND, "depth": "deep"}, "depth"),
        ({"hand": HAND, "depth": "ev"}, "draws_left"),
        ({"hand": HAND, "depth": "ev", "draws_left": 0}, "draws_left"),
        ({"hand": HAND, "depth": "ev", "draws_left": 31}, "draws_left"),
        ({"hand": HAND, "depth": "ev", "draws_left": "7"}, "draws_left"),
        ({"hand": HAND, "depth": "ev", "draws_left": True}, "draws_left"),
        ({"hand": HAND, "draws_left": 5}, "draws_left"),
        ({"hand": HAND, "depth": "ev", "draws_left": 5, "liang_dao_when_ready": "yes"}, "liang_dao_when_ready"),
        ({"hand": HAND, "revealed": REVEALED}, "revealed"),
        ({"hand": HAND, "revealed": [REVEALED, REVEALED, REVEALED]}, "revealed"),
        ({"hand": HAND, "revealed": ["46p456s789sFFF11x"]}, "revealed"),
        ({"hand": HAND, "revealed": ["4556p123789sZZF"]}, "revealed"),
        ({"hand": HAND, "revealed": ["46p456s789sFFF11s2p"]}, "revealed"),
        ({"hand": HAND, "revealed": ["4556p123456sZZZ"]}, "revealed"),
        ({"hand": HAND, "revealed": [7]}, "revealed"),
    ],
)
def test_bad_ev_fields_are_named(client, body, field):
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == field and error["message"]

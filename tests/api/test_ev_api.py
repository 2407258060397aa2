"""``depth: ev``, ``draws_left`` and ``revealed`` on /api/v1/analyze/ (issue 9)."""
from __future__ import annotations

import pytest

from analysis.engine import analyze
from tests.ev_limits import low_ev_limits

pytestmark = pytest.mark.django_db  # EV requests are counted in the rate-limit table
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


COSTLIEST = "13579p13579sZFB1p"
COSTLIEST_URL = f"{URL}?hand={COSTLIEST}&depth=ev&draws_left=30&liang_dao_when_ready=true"


@pytest.fixture
def limits(settings, tmp_path):
    low_ev_limits(settings, tmp_path, "3/min", "5/min")


def test_the_costliest_request_stays_within_its_budget_and_says_how_precise_it_is(client, monkeypatch):
    from analysis.engine import ev, ev_analysis

    budgets = []

    class Recorded(ev.Budget):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            budgets.append(self)

    monkeypatch.setattr(ev_analysis, "Budget", Recorded)
    response = client.get(COSTLIEST_URL)
    assert response.status_code == 200
    body = response.json()
    (budget,) = budgets
    assert budget.limit == ev.REQUEST_WORK and budget.seconds == ev.REQUEST_SECONDS <= 0.5
    assert budget.used <= 1.01 * budget.limit  # or less, if the CPU backstop stopped it on a busy machine
    assert body["ev_complete"] is False
    sampled = [o for o in body["options"] if o["method"] == "monte_carlo"]
    assert sampled and all(ev.MIN_SAMPLES <= o["samples"] < ev.DEFAULT_SAMPLES for o in sampled)
    assert all(o["stderr"]["expected_score"] > 0 for o in sampled)
    if not budget.timed_out:  # work units alone: the 3-shanten discards come first and are exact
        assert [o["method"] for o in body["options"][:6]] == ["exact"] * 6


def test_an_ev_request_within_the_budget_is_complete(client):
    body = post(client, {"hand": HAND, "depth": "ev", "draws_left": 12}).json()
    assert body["ev_complete"] is True and all(o["method"] == "exact" for o in body["options"])
    assert "ev_complete" not in post(client, {"hand": HAND}).json()


def test_the_schema_names_the_figure_and_documents_the_precision(client):
    schema = client.get("/api/schema/?format=json").json()
    body = schema["components"]["schemas"]["AnalyzeResponse"]["properties"]
    option = schema["components"]["schemas"]["Option"]["properties"]
    assert "if nobody else wins" in body["expected_score"]["description"] == option["expected_score"]["description"]
    assert "work budget" in body["ev_complete"]["description"]
    assert "429" in schema["paths"]["/api/v1/analyze/"]["get"]["responses"]


def test_ev_requests_are_limited_per_client(client, limits):
    for _ in range(3):
        assert client.get(COSTLIEST_URL).status_code == 200
    refused = client.get(COSTLIEST_URL)
    assert refused.status_code == 429 and int(refused["Retry-After"]) == 60
    assert refused.json()["error"]["message"].startswith("你的期望值请求太多了")
    other = client.get(COSTLIEST_URL, REMOTE_ADDR="10.0.0.2")  # another client is not held up
    assert other.status_code == 200
    assert client.get(f"{URL}?hand={COSTLIEST}").status_code == 200  # the plain analysis is never limited


def test_a_forged_forwarded_address_is_still_the_same_client(client, limits):
    for n in range(3):
        assert client.get(COSTLIEST_URL, HTTP_X_FORWARDED_FOR=f"10.9.0.{n}").status_code == 200
    assert client.get(COSTLIEST_URL, HTTP_X_FORWARDED_FOR="10.9.0.9").status_code == 429


def test_ev_requests_are_limited_for_the_whole_site(client, limits):
    for _ in range(3):
        assert post(client, {"hand": HAND, "depth": "ev", "draws_left": 4}).status_code == 200
    codes = [client.get(COSTLIEST_URL, REMOTE_ADDR=f"10.1.0.{n}").status_code for n in range(4)]
    assert codes == [200, 200, 429, 429]  # 3 + 2 made the site's 5; then every client waits
    refused = client.get(COSTLIEST_URL, REMOTE_ADDR="10.1.0.9")
    assert refused.json()["error"]["message"].startswith("全站的期望值请求太多了")


def test_while_a_server_computes_its_ev_slot_others_are_refused_at_once_and_cheap_requests_answer(client, limits):
    from analysis.ev_limits import release_slot, take_slot

    held = take_slot()  # another worker computing
    try:
        busy = client.get(COSTLIEST_URL)
        assert busy.status_code == 429 and busy["Retry-After"] == "1"
        assert busy.json()["error"]["message"].startswith("服务器正在为别人计算期望值")
        assert client.get(f"{URL}?hand={COSTLIEST}").status_code == 200
    finally:
        release_slot(held)
    assert client.get(COSTLIEST_URL).status_code == 200  # the busy refusal did not count against the client
    assert client.get(COSTLIEST_URL).status_code == 200
    assert client.get(COSTLIEST_URL).status_code == 200

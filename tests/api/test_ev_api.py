"""``depth: ev``, ``draws_left`` and ``revealed`` on /api/v1/analyze/ (issue 9)."""

from __future__ import annotations

import json

import pytest

from kwx import analyze
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
def limits(settings, tmp_path, stopped_clock):
    low_ev_limits(settings, tmp_path, "3/min", "5/min")


def test_the_costliest_request_stays_within_its_budget_and_says_how_precise_it_is(client, monkeypatch):
    from analysis import ev_limits
    from kwx.hand import ev, ev_analysis

    budgets = []

    class Recorded(ev.Budget):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            budgets.append(self)

    monkeypatch.setattr(ev_analysis, "Budget", Recorded)
    monkeypatch.setattr(ev_limits, "Budget", Recorded)  # the request's one budget (what its deadline stops)
    response = client.get(COSTLIEST_URL)
    assert response.status_code == 200
    body = response.json()
    (budget,) = budgets
    assert budget.limit == ev.REQUEST_WORK and ev.REQUEST_SECONDS <= 0.5  # production's CPU backstop (lifted in tests)
    assert budget.used <= 1.01 * budget.limit and not budget.timed_out
    assert body["ev_complete"] is False
    sampled = [o for o in body["options"] if o["method"] == "monte_carlo"]
    assert sampled and all(ev.MIN_SAMPLES <= o["samples"] < ev.DEFAULT_SAMPLES for o in sampled)
    assert all(o["stderr"]["expected_score"] > 0 for o in sampled)
    assert [o["method"] for o in body["options"][:6]] == ["exact"] * 6  # work units alone: the 3-shanten discards come first and are exact


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
    assert refused.status_code == 429 and 50 <= int(refused["Retry-After"]) <= 60  # the rest of the window
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
    assert client.get(COSTLIEST_URL).status_code == 200
    assert client.get(COSTLIEST_URL).status_code == 200


def test_busy_refusals_count_against_the_client_so_a_loop_on_them_is_soon_refused_from_memory(client, limits, django_assert_num_queries):
    """Issue 37: one client got 10,716 "busy" refusals in a minute, none of them counted."""
    from analysis.ev_limits import release_slot, take_slot

    held = take_slot()  # another worker computing for a long while
    try:
        for _ in range(3):  # the client's limit is 3 a minute: busy refusals use it up
            busy = client.get(COSTLIEST_URL)
            assert busy.status_code == 429 and busy.json()["error"]["message"].startswith("服务器正在为别人计算期望值")
        over = client.get(COSTLIEST_URL)
        assert over.status_code == 429 and over.json()["error"]["message"].startswith("你的期望值请求太多了")
        with django_assert_num_queries(0):  # from now on refused from this process's memory
            assert client.get(COSTLIEST_URL).status_code == 429
            assert client.post("/api/v1/advice/", {}, content_type="application/json").status_code == 429
    finally:
        release_slot(held)
    assert client.get(COSTLIEST_URL).status_code == 429  # the slot is free, but the client has used its minute
    assert client.get(COSTLIEST_URL, REMOTE_ADDR="10.0.0.4").status_code == 200  # another client has not


def test_a_client_over_its_limit_is_refused_again_without_counting_in_the_database(client, limits, django_assert_num_queries):
    from kwx_site.models import RateCounter

    for _ in range(3):
        assert client.get(COSTLIEST_URL).status_code == 200
    first = client.get(COSTLIEST_URL)
    assert first.status_code == 429 and 0 < int(first["Retry-After"]) <= 60
    counted = RateCounter.objects.get(key="ev:127.0.0.1").count
    with django_assert_num_queries(0):  # remembered in the process until the window ends
        again = client.get(COSTLIEST_URL)
    assert again.status_code == 429 and 0 < int(again["Retry-After"]) <= int(first["Retry-After"])
    assert again.json()["error"]["message"] == first.json()["error"]["message"]
    assert RateCounter.objects.get(key="ev:127.0.0.1").count == counted
    assert client.get(COSTLIEST_URL, REMOTE_ADDR="10.0.0.3").status_code == 200  # others still count normally


def test_a_remembered_refusal_ends_with_its_window(monkeypatch):
    import time

    from analysis import ev_limits

    now = time.time()
    ev_limits._remember("client", "10.3.0.1", now + 30)
    monkeypatch.setattr(ev_limits.time, "time", lambda: now)
    with pytest.raises(ev_limits.EVRefused) as refused:
        ev_limits._remembered("client", "10.3.0.1")
    assert refused.value.reason == "client" and refused.value.wait == 30
    monkeypatch.setattr(ev_limits.time, "time", lambda: now + 31)
    ev_limits._remembered("client", "10.3.0.1")  # the window is over: no refusal from memory
    assert ("client", "10.3.0.1") not in ev_limits._refused_until


def test_the_memory_of_refusals_is_bounded(monkeypatch):
    from analysis import ev_limits

    monkeypatch.setattr(ev_limits, "MAX_REMEMBERED", 5)
    for n in range(12):
        ev_limits._remember("client", f"10.2.0.{n}", 2e9)
    assert len(ev_limits._refused_until) <= 5 and ("client", "10.2.0.11") in ev_limits._refused_until


def test_ev_work_runs_in_a_low_priority_thread_in_the_request_language(client, limits, settings, monkeypatch):
    import os
    import threading

    from django.utils import translation

    from analysis import api

    settings.EV_NICE = 7
    seen = {}
    real = api.run_analysis

    def recording(body, *budget):
        seen["thread"] = threading.get_native_id()
        seen["nice"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        seen["language"] = translation.get_language()
        return real(body, *budget)

    monkeypatch.setattr(api, "run_analysis", recording)
    response = client.get(f"{URL}?hand={HAND}&depth=ev&draws_left=8", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response.json()["ev_complete"] is True
    assert seen["thread"] != threading.get_native_id()
    assert seen["nice"] >= 7 and seen["language"] == "en"
    client.get(f"{URL}?hand={HAND}", HTTP_ACCEPT_LANGUAGE="en")  # the cheap analysis stays in the request thread
    assert seen["thread"] == threading.get_native_id()


def test_a_refusal_is_not_logged_as_a_warning(client, limits, caplog):
    for _ in range(4):
        client.get(COSTLIEST_URL)
    assert client.get(COSTLIEST_URL).status_code == 429
    assert not [r for r in caplog.records if r.name == "django.request"]
    assert client.get("/api/v1/nowhere/").status_code == 404
    assert [r.status_code for r in caplog.records if r.name == "django.request"] == [404]  # other 4xx still are


def test_a_refusal_known_before_the_view_is_answered_without_reaching_it(client, limits, monkeypatch, django_assert_num_queries):
    from analysis import api, api_advice
    from analysis.ev_limits import release_slot, take_slot

    def unreachable(*args, **kwargs):
        raise AssertionError("the view was reached")

    with monkeypatch.context() as patch:  # the views back afterwards, and nothing else (undo() would also bring back the CPU backstop a loaded machine trips)
        patch.setattr(api, "limited_analysis", unreachable)
        patch.setattr(api_advice, "run_advice", unreachable)
        held = take_slot()  # another worker computing
        try:
            assert _over_limit(client, "10.0.0.5")  # its busy refusals counted, at the middleware
            with django_assert_num_queries(0):  # a client over its limit: remembered, no query
                over = client.get(COSTLIEST_URL, REMOTE_ADDR="10.0.0.5")
            busy = client.get(COSTLIEST_URL, HTTP_ACCEPT_LANGUAGE="en")  # a busy host: counted against the client, nothing else
            advice = client.post("/api/v1/advice/", {}, content_type="application/json")
        finally:
            release_slot(held)
    assert over.status_code == 429 and over.json()["error"]["message"].startswith("你的期望值请求太多了")
    assert busy.status_code == advice.status_code == 429 and busy["Retry-After"] == advice["Retry-After"] == "1"
    assert busy.json() == {"error": {"field": None, "message": "Expected values are being computed for others right now; try again in 1 s."}}
    assert busy["Content-Language"] == "en" and "Content-Security-Policy" in busy
    assert advice.json()["error"]["message"].startswith("服务器正在为别人计算期望值")
    assert client.get(f"{URL}?hand={HAND}&depth=ev&draws_left=8").status_code == 200  # a free slot: the view answers


def _over_limit(client, address: str) -> bool:
    """Send ``address``'s EV requests until it is refused for its own limit (the slot busy or not); whether it was."""
    for _ in range(10):
        answer = client.get(COSTLIEST_URL, REMOTE_ADDR=address)
        if answer.status_code == 429 and answer.json()["error"]["message"].startswith("你的期望值请求太多了"):
            return True
    return False


def test_the_slot_goes_to_the_client_that_waited_not_back_to_the_one_that_just_held_it(settings, tmp_path, monkeypatch):
    """Issue 26: one client looping within its limit kept the only slot; a second got 1 request in 19."""
    from django.test import RequestFactory

    from analysis import ev_limits

    low_ev_limits(settings, tmp_path, "100/min", "100/min")
    clock = [1000.0]
    monkeypatch.setattr(ev_limits, "now", lambda: clock[0])
    a, b = (RequestFactory().get("/", REMOTE_ADDR=ip) for ip in ("10.6.0.1", "10.6.0.2"))

    def turn(request) -> bool:
        clock[0] += 0.1
        try:
            with ev_limits.ev_slot(request):
                return True
        except ev_limits.EVRefused as refused:
            assert refused.reason == "busy" and refused.wait == ev_limits.BUSY_WAIT
            return False

    holder, other = a, b
    for _ in range(4):  # both loop, each asking again at once; they take turns
        clock[0] += 0.1
        with ev_limits.ev_slot(holder):  # one computes; the other finds the slot taken
            assert not turn(other)
        assert not turn(holder)  # it comes straight back, but the other waits and was served less recently: it leaves the slot
        holder, other = other, holder
    assert turn(holder)
    clock[0] += ev_limits.FAIR_WINDOW  # the other has gone
    assert [turn(a) for _ in range(3)] == [True] * 3  # a client alone is never held back


def test_a_flood_of_busy_refusals_notes_its_client_rarely(settings, tmp_path, monkeypatch):
    from analysis import ev_limits

    low_ev_limits(settings, tmp_path, "100/min", "100/min")
    writes = []
    real = ev_limits._fair_state
    monkeypatch.setattr(ev_limits, "_fair_state", lambda: writes.append(1) or real())
    clock = [1000.0]
    monkeypatch.setattr(ev_limits, "now", lambda: clock[0])
    for _ in range(100):  # 100 refusals in 0.1 s
        clock[0] += 0.001
        ev_limits.note_waiting("10.6.0.9")
    assert len(writes) == 1


@pytest.mark.parametrize("junk", [b"", b"[1, 2]", b'{"served": 3, "waiting": {"x": "y"}}', b"\xff{"])
def test_a_damaged_fair_sharing_file_is_read_as_empty(settings, tmp_path, junk):
    from analysis import ev_limits

    low_ev_limits(settings, tmp_path, "100/min", "100/min")
    (tmp_path / "fair.json").write_bytes(junk)
    assert not ev_limits.yields("10.6.0.7")
    assert "10.6.0.7" in json.loads((tmp_path / "fair.json").read_bytes())["served"]

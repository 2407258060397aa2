"""Issue 37: an expected-value request answers "busy, try again" before any server timeout, and the host's
background work gives way to it while it computes."""

from __future__ import annotations

import json
import threading

import pytest

from tests.conftest import EV_DEADLINE
from tests.ev_limits import low_ev_limits

pytestmark = pytest.mark.django_db
ADVICE = "/api/v1/advice/"
# the request of the issue: 200 in 1–2 s with the reviews paused, a 500 at 31 s with one running
BODY = {"hand": "13579p13579sZFBZ", "opponents": [{"river": "2p"}, {}], "wall_left": 43}
EV_GET = "/api/v1/analyze/?hand=34556p123789sZZZ&depth=ev&draws_left=8"


@pytest.fixture
def limits(settings, tmp_path, stopped_clock):
    low_ev_limits(settings, tmp_path, "30/min", "100/min")


class Stuck:
    """EV work that runs until the test lets it go: what a starved EV thread looks like to the request."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started = threading.Event()
        self.budgets: list = []
        self.marked: list[bool] = []

    def __call__(self, *args):
        from analysis.ev_limits import flight_path
        from kwx.processes import GiveWay

        self.budgets += [a for a in args if type(a).__name__ == "Budget"]
        self.marked.append(GiveWay(str(flight_path())).busy())  # the host knows a person's request is computing
        self.started.set()
        self.go.wait()
        return {}


def ev_thread_idle() -> None:
    """Wait until the EV thread has finished what it was given (it runs one thing at a time)."""
    from analysis import ev_limits

    ev_limits._low.executor().submit(lambda: None).result()


def test_advice_past_its_deadline_is_a_503_busy_in_the_error_shape_and_keeps_the_slot_until_its_work_stops(client, limits, settings, monkeypatch):
    from analysis import api_advice
    from analysis.ev_limits import flight_path, host_busy
    from kwx.processes import GiveWay

    settings.EV_DEADLINE = 0  # the deadline has passed as soon as the work starts
    stuck = Stuck()
    with monkeypatch.context() as patch:  # the real work back afterwards, and nothing else (undo() also brought back the CPU backstop: a loaded machine's 429)
        patch.setattr(api_advice, "advice_json", stuck)
        try:
            late = client.post(ADVICE, json.dumps(BODY), content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
            assert late.status_code == 503 and late["Retry-After"] == "5" and late["Content-Type"] == "application/json"
            assert late.json() == {"error": {"field": None, "message": "The server is too busy to finish the expected values in time; try again in 5 s."}}
            zh = client.post(ADVICE, json.dumps(BODY), content_type="application/json", REMOTE_ADDR="10.0.0.8")
            assert zh.status_code == 429 and zh.json()["error"]["message"].startswith("服务器正在为别人计算期望值")  # its work still holds the slot
            assert stuck.started.wait(60)  # the 503 may come before the EV thread reaches the work (deadline 0); wait for it, not for a time
            assert host_busy() and stuck.marked == [True]
            (budget,) = stuck.budgets
            assert budget.timed_out  # told to stop at its next look at the budget
        finally:
            stuck.go.set()
        ev_thread_idle()
    assert not host_busy() and not GiveWay(str(flight_path())).busy()  # the slot and the mark are given back with the work
    settings.EV_DEADLINE = EV_DEADLINE
    answered = client.post(ADVICE, json.dumps(BODY), content_type="application/json", REMOTE_ADDR="10.0.0.9")
    assert answered.status_code == 200 and answered.json()["choices"]


def test_the_analyze_api_with_depth_ev_past_its_deadline_is_a_503_and_its_budget_is_stopped(client, limits, settings, monkeypatch):
    from analysis import api

    settings.EV_DEADLINE = 0
    stuck = Stuck()
    monkeypatch.setattr(api, "run_analysis", stuck)
    try:
        late = client.get(EV_GET)
        assert late.status_code == 503 and late["Retry-After"] == "5"
        assert late.json()["error"]["message"].startswith("服务器太忙")
    finally:
        stuck.go.set()
    ev_thread_idle()
    assert [b.timed_out for b in stuck.budgets] == [True]


def test_the_analyzer_page_past_its_deadline_shows_the_plain_table_and_says_so(client, limits, settings, monkeypatch):
    from analysis.views import analyzer

    settings.EV_DEADLINE = 0
    stuck = Stuck()
    real = analyzer.page_context

    def page_context(board, *, base, with_ev=True, budget=None):
        if with_ev:
            stuck(budget)
        return real(board, base=base, with_ev=with_ev, budget=budget)

    monkeypatch.setattr(analyzer, "page_context", page_context)
    try:
        page = client.get("/analyze/?hand=34556p123789sZZZ&ev=1&draws=8")
        html = page.content.decode()
        assert page.status_code == 200 and "服务器太忙" in html and "win-p" not in html and 'id="ev-load"' not in html  # the plain table, no new ask
    finally:
        stuck.go.set()
    ev_thread_idle()


def test_within_its_deadline_an_ev_request_answers_and_lets_go_of_its_mark(client, limits):
    from analysis.ev_limits import flight_path
    from kwx.processes import GiveWay

    assert client.post(ADVICE, json.dumps(BODY), content_type="application/json").status_code == 200
    assert not GiveWay(str(flight_path())).busy()


def test_background_work_waits_while_a_request_is_marked_and_goes_on_once_it_is_done(settings, tmp_path):
    from analysis import ev_limits
    from kwx.processes import GiveWay

    settings.EV_SLOT_DIR = str(tmp_path)
    give_way = GiveWay(str(ev_limits.flight_path()), most=3600.0)
    assert give_way() == 0.0  # nobody computing: no wait at all
    held = ev_limits._Held(ev_limits.take_slot())
    waited = []
    worker = threading.Thread(target=lambda: waited.append(give_way()))
    worker.start()
    assert give_way.busy()
    held.release()
    worker.join()  # it went on once the request let go (not after its hour)
    assert not give_way.busy() and waited and waited[0] < 3600.0


def test_background_work_gives_way_for_at_most_its_limit(settings, tmp_path):
    from analysis import ev_limits
    from kwx.processes import GiveWay

    settings.EV_SLOT_DIR = str(tmp_path)
    held = ev_limits._Held(ev_limits.take_slot())
    try:
        assert GiveWay(str(ev_limits.flight_path()), most=0.0)() == 0.0  # a stream of requests slows it, never stops it
    finally:
        held.release()


def test_giving_way_on_a_host_that_never_computed_is_free(tmp_path):
    from kwx.processes import GiveWay

    assert not GiveWay(str(tmp_path / "nowhere" / "flight")).busy()


def test_the_schema_documents_the_refusals_of_ev_requests_and_the_414_of_a_long_query(client):
    schema = client.get("/api/schema/?format=json").json()
    analyze, advice = schema["paths"]["/api/v1/analyze/"], schema["paths"]["/api/v1/advice/"]
    for operation in (analyze["get"], analyze["post"], advice["post"]):
        assert {"429", "503"} <= set(operation["responses"])
        assert "EV_DEADLINE" in operation["responses"]["503"]["description"]
    long_query = analyze["get"]["responses"]["414"]
    assert "4,094 bytes" in long_query["description"] and "plain text" in long_query["description"]

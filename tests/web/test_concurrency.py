"""Twenty clients at once: one account answering puzzles and saving score-sheet hands.

Every client is its own Django test client in its own thread, with its own database
connection, going through the whole stack (middleware, views, services, transactions).
Run by `make test` on SQLite and on PostgreSQL; on PostgreSQL the row locks are real.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.test import Client

from puzzles.models import Attempt, Player
from puzzles.services import answer_puzzle
from settlement.models import ScoreSheet
from settlement.selectors import sheet_table
from settlement.services import Owner, create_sheet
from tests.concurrency import run_together
from tests.puzzles.factories import aid, discard_puzzle

pytestmark = pytest.mark.django_db(transaction=True)
CLIENTS = 20
HAND = {
    "piao_0": "0",
    "piao_1": "0",
    "piao_2": "0",
    **{f"kong_type_{i}": "an_gang" for i in range(4)},
    "result": "self_draw",
    "winner": "0",
    "hand": "4556p123s789sZZZ",
    "tile": "5p",
    "action": "save",
}


def test_twenty_clients_lose_no_attempt_no_rating_update_and_no_hand(django_user_model):
    user = django_user_model.objects.create_user("table", password="x-long-password-1")
    sheet = create_sheet(Owner(user_id=user.pk), ["甲", "乙", "丙"])
    puzzles = [discard_puzzle(hand) for hand in ("34556p123789sZZZ", "4556p123789sZZZF") * (CLIENTS // 2)]
    statuses: list[tuple[int, int, int]] = []

    def client_job(i: int) -> None:
        client = Client()
        client.force_login(user)
        puzzle = puzzles[i]
        attempt = str(uuid.uuid4())
        body = {"discard": puzzle.accepted[0] if i % 2 else puzzle.options[-1]["discard"], "attempt": attempt}
        first = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", body, content_type="application/json")
        again = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", body, content_type="application/json")
        saved = client.post(f"/settle/sheets/{sheet.pk}/hands/new/", HAND | {"token": f"hand-{i}"})
        statuses.append((first.status_code, again.status_code, saved.status_code))

    errors = run_together([lambda i=i: client_job(i) for i in range(CLIENTS)])
    assert not errors, errors
    assert statuses and all(s == (200, 200, 302) for s in statuses), statuses

    player = Player.objects.get(user=user)
    attempts = list(Attempt.objects.filter(player=player).order_by("pk"))  # the order the lock let them in
    assert len(attempts) == CLIENTS  # the repeated attempt ids counted once
    for earlier, later in zip(attempts, attempts[1:]):
        assert later.rating_before == earlier.rating_after  # no rating update was lost
    assert player.rating == attempts[-1].rating_after

    hands = list(ScoreSheet.objects.get(pk=sheet.pk).hands.order_by("position"))
    assert [h.position for h in hands] == list(range(1, CLIENTS + 1))
    table = sheet_table(ScoreSheet.objects.get(pk=sheet.pk))
    assert sum(table.totals) == 0 and table.totals[0] == 4 * CLIENTS


def test_an_answer_that_fails_half_way_changes_nothing(monkeypatch):
    player = Player.objects.create()
    puzzle = discard_puzzle("34556p123789sZZZ")
    rating = player.rating

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr("puzzles.services._schedule_review", broken)
    with pytest.raises(RuntimeError):
        answer_puzzle(player, puzzle, puzzle.options[-1]["discard"], aid("half-way"))
    player.refresh_from_db()
    assert player.rating == rating
    assert not Attempt.objects.filter(player=player).exists()


ROUNDS, IN_FLIGHT = 4, 6


def test_answers_sent_while_the_same_browser_logs_in_are_all_kept(django_user_model, monkeypatch):
    """One browser answers in several tabs while another tab logs in: the answers sent with the
    old (anonymous) cookie, there before the merge, all reach the account, none is a 500, and none
    logs the browser out. Each tab's answer is held right after it arrived until the log-in is done
    (it is in flight during the merge, whatever the threads' timing)."""
    import puzzles.api
    from puzzles.services import player_for

    arrived = threading.Semaphore(0)
    merged = threading.Event()

    def held(*args, **kwargs):
        arrived.release()
        merged.wait(10)
        return player_for(*args, **kwargs)

    monkeypatch.setattr(puzzles.api, "player_for", held)
    puzzles = [discard_puzzle("34556p123789sZZZ") for _ in range(ROUNDS * (IN_FLIGHT + 1))]
    for round_ in range(ROUNDS):
        user = django_user_model.objects.create_user(f"tab{round_}", password="x-long-password-1")
        browser = Client()
        mine = puzzles[round_ * (IN_FLIGHT + 1) : (round_ + 1) * (IN_FLIGHT + 1)]
        merged.set()  # the browser's own first answer is not held
        browser.post(f"/api/v1/puzzles/{mine[0].pk}/answer/", {"discard": "3p", "attempt": aid(f"{round_}-first")}, content_type="application/json")
        assert arrived.acquire(timeout=1)
        old_cookie = browser.cookies["sessionid"].value
        answers = []

        def tab(i: int, cookie: str = old_cookie, round_: int = round_, mine: list = mine, answers: list = answers) -> None:
            client = Client()
            client.cookies["sessionid"] = cookie
            body = {"discard": "3p", "attempt": aid(f"{round_}-{i}")}
            answers.append(client.post(f"/api/v1/puzzles/{mine[i].pk}/answer/", body, content_type="application/json"))

        def log_in(browser: Client = browser, user=user) -> None:
            for _ in range(IN_FLIGHT):
                assert arrived.acquire(timeout=10)  # every tab's answer has arrived
            assert browser.post("/accounts/login/", {"username": user.username, "password": "x-long-password-1"}).status_code == 302
            merged.set()

        merged.clear()
        errors = run_together([log_in] + [lambda i=i: tab(i) for i in range(1, IN_FLIGHT + 1)])
        assert not errors, errors
        assert [r.status_code for r in answers] == [200] * IN_FLIGHT, [r.content[:200] for r in answers]
        assert not any("sessionid" in r.cookies for r in answers)  # no answer replaces the logged-in cookie
        account = Player.objects.get(user=user)
        assert account.attempts.count() == IN_FLIGHT + 1
        assert not Attempt.objects.filter(player__user__isnull=True).exists()  # no answer on a stray anonymous player
        assert browser.get("/api/v1/progress/").json()["attempts"] == IN_FLIGHT + 1


def test_an_answer_arriving_after_the_log_in_with_the_old_cookie_leaves_the_account_alone(django_user_model):
    """What arrives with the anonymous cookie once the log-in has merged it is not the account's (session fixation)."""
    user = django_user_model.objects.create_user("late", password="x-long-password-1")
    first, late = discard_puzzle("34556p123789sZZZ"), discard_puzzle("34556p123789sZZZ")
    browser = Client()
    browser.post(f"/api/v1/puzzles/{first.pk}/answer/", {"discard": "3p", "attempt": aid("early")}, content_type="application/json")
    old_cookie = browser.cookies["sessionid"].value
    assert browser.post("/accounts/login/", {"username": "late", "password": "x-long-password-1"}).status_code == 302
    in_flight = Client()
    in_flight.cookies["sessionid"] = old_cookie
    r = in_flight.post(f"/api/v1/puzzles/{late.pk}/answer/", {"discard": "3p", "attempt": aid("late")}, content_type="application/json")
    assert r.status_code == 200 and r.json()["rating"]["before"] == 1500  # a new anonymous player's first answer
    assert Player.objects.get(user=user).attempts.count() == 1
    assert browser.get("/api/v1/progress/").json()["attempts"] == 1

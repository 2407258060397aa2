"""A database that is down or hangs: timeouts are set, the API answers 503 in its shape, and pages that need no database still render."""

from __future__ import annotations

import contextlib
import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client

from tests.conftest import ROOT
from tests.puzzles.factories import aid, discard_puzzle
from tests.web.test_deploy import CLEAN

NO_DATABASE_PAGES = ["/", "/analyze/?hand=4556p123789sZZZ", "/learn/", "/learn/tiles/", "/healthz/"]


@contextlib.contextmanager
def database_down():
    """Every query in this thread fails as it would with the server gone."""

    def refuse(execute, sql, params, many, context):
        raise OperationalError("server closed the connection unexpectedly")

    with connection.execute_wrapper(refuse):
        yield


@pytest.fixture
def visitors(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    anonymous = Client(raise_request_exception=False)
    puzzle = discard_puzzle("34556p123789sZZZ")
    anonymous.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid("outage"), "mode": "rated"})
    assert "sessionid" in anonymous.cookies  # a visitor with a session
    User.objects.create_user("ops", password="pw-12345678")
    member = Client(raise_request_exception=False)
    member.login(username="ops", password="pw-12345678")
    return anonymous, member


def test_pages_that_need_no_database_work_through_an_outage(visitors):
    for client in visitors:
        with database_down():
            codes = {url: client.get(url).status_code for url in NO_DATABASE_PAGES}
        assert set(codes.values()) == {200}, codes


def test_the_api_answers_an_outage_with_a_503_in_its_shape(visitors):
    for client in visitors:
        with database_down():
            r = client.get("/api/v1/progress/", HTTP_ACCEPT_LANGUAGE="en")
        assert r.status_code == 503 and int(r["Retry-After"]) > 0
        assert set(r.json()) == {"error"} and "database" in r.json()["error"]["message"]


def test_an_answer_posted_during_an_outage_is_not_recorded_as_anonymous(visitors):
    _anonymous, member = visitors
    puzzle = discard_puzzle("34556p123789sZZZ")
    with database_down():
        r = member.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", {"discard": "3p", "attempt": aid("down")}, content_type="application/json")
    assert r.status_code == 503


def _settings(env):
    code = "from django.conf import settings as s; o = s.DATABASES['default'].get('OPTIONS', {}); print(o.get('connect_timeout'), o.get('options'), o.get('timeout'))"
    result = subprocess.run([sys.executable, "manage.py", "shell", "--no-imports", "-c", code], cwd=ROOT, env=CLEAN | env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_postgresql_gets_connect_and_statement_timeouts_below_the_worker_timeout():
    assert _settings({"DATABASE_URL": "postgres://kwx:x@db.internal:5432/kwx"}) == ["5", "-c", "statement_timeout=15000", "None"]
    assert _settings({"DATABASE_URL": "postgres://kwx:x@db.internal/kwx", "DB_CONNECT_TIMEOUT": "2", "DB_STATEMENT_TIMEOUT": "8"})[:3] == ["2", "-c", "statement_timeout=8000"]


def test_sqlite_gets_a_busy_timeout():
    assert _settings({})[2] == "20"
    assert _settings({"DB_BUSY_TIMEOUT": "7"})[2] == "7"

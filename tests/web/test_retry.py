"""The one SQLite retry (kwx_site/retry.py): a transaction tried again while SQLite reports the database locked, any other error at once."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import OperationalError

from kwx_site import retry


@pytest.fixture
def on_sqlite(monkeypatch):
    monkeypatch.setattr(retry, "connection", SimpleNamespace(vendor="sqlite"))
    monkeypatch.setattr(retry.time, "sleep", lambda seconds: None)


def _failing(errors):
    calls = []

    def job():
        calls.append(1)
        if len(calls) <= len(errors):
            raise errors[len(calls) - 1]
        return len(calls)

    return job, calls


def test_a_locked_database_is_tried_again_until_the_job_goes_through(on_sqlite):
    job, calls = _failing([OperationalError("database is locked")] * 2)
    assert retry.retrying(job) == 3 and len(calls) == 3


def test_another_error_goes_up_at_once(on_sqlite):
    job, calls = _failing([OperationalError("no such table: x")])
    with pytest.raises(OperationalError, match="no such table"):
        retry.retrying(job)
    assert len(calls) == 1


def test_the_last_try_gives_up(on_sqlite):
    job, calls = _failing([OperationalError("database is locked")] * retry.SQLITE_RETRIES)
    with pytest.raises(OperationalError, match="locked"):
        retry.retrying(job)
    assert len(calls) == retry.SQLITE_RETRIES


def test_other_databases_are_not_retried(monkeypatch):
    monkeypatch.setattr(retry, "connection", SimpleNamespace(vendor="postgresql"))
    job, calls = _failing([OperationalError("database is locked")])
    with pytest.raises(OperationalError):
        retry.retrying(job)
    assert len(calls) == 1

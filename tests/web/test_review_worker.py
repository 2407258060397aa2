"""Real worker processes on the test database: one is killed (SIGKILL) in the middle of a review task, another takes the task up and completes it.

Nothing waits on the clock: each step waits for a state of the database (with a deadline that
only turns a hang into a failure). While the first worker is killed, the test holds a write
lock on the hand, so the worker cannot finish the review between the moment the test sees it
at work and the kill.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection
from django_tasks_db.models import DBTaskResult

from accounts.models import Player
from kwx import hand_review
from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from play.models import Hand
from tests.conftest import ROOT, review_worked_out_once
from tests.play.helpers import upload
from tests.processes import children, running

pytestmark = pytest.mark.django_db(transaction=True)
WORK = 120
"""Rollout actions per choice in the workers: a few hundred milliseconds a decision, so the task is seen at work."""
POLICY = "strong"
"""The bot the workers' reviews play out with: the fast one (what is tested is the task's hand-over, not the judge's play)."""
DEADLINE = 300.0


def database_url() -> str:
    """The test database, as a DATABASE_URL for a worker process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def worker(*extra: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG"}}
    env |= {"DATABASE_URL": database_url(), "REVIEW_WORK": str(WORK), "REVIEW_POLICY": POLICY, "REVIEW_JOBS": "2"}
    command = [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--interval", "0.05", *extra]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(condition: Callable[[], bool], what: str, process: subprocess.Popen | None = None) -> None:
    """Poll the database until ``condition`` holds (the deadline only keeps a hang from lasting for ever)."""
    end = time.monotonic() + DEADLINE
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the worker ended before {what}: {process.stdout.read()}")
        if time.monotonic() > end:
            raise AssertionError(f"no {what} within {DEADLINE} s")
        time.sleep(0.02)


@contextmanager
def hand_locked(hand_id: int) -> Iterator[None]:
    """Hold a write lock a worker needs to store its progress (the whole file on SQLite, the hand's row on PostgreSQL)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        lock = sqlite3.connect(db["NAME"], isolation_level=None, timeout=60)
        lock.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        return
    with psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"]) as lock:
        lock.execute("SELECT 1 FROM play_hand WHERE id = %s FOR UPDATE", [hand_id])
        yield
        lock.rollback()


def test_a_worker_killed_in_the_middle_of_a_review_loses_nothing_another_completes_it(monkeypatch):
    from kwx.table import review as review_sets

    monkeypatch.setattr(review_sets, "MIN_DEALS", review_sets.CLEAR.deals)  # as the worker's processes have it (they do not read tests/conftest.py)
    done = play(seeded_deal(24, 0), [BasicBot(), StrongBot(), StrongBot()])  # a short hand (5 decisions, 20 moves): reviewed twice at the real minimum of deals
    hand = upload(Player.objects.create(), json.dumps(done.record.to_json()), 0)  # committed: its task is queued
    total = len(hand_review.decision_points(hand.kwx_record, hand.seat))
    assert total >= 4 and DBTaskResult.objects.get().status == "READY"
    state = lambda: Hand.objects.values_list("review_state", "review_done").get(pk=hand.pk)

    first = worker()
    try:
        wait_for(lambda: state()[1] >= 1, "decision judged", first)
        with hand_locked(hand.pk):
            pool = children(first.pid)  # the processes working the decisions out
            first.send_signal(signal.SIGKILL)
            first.wait(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    task = DBTaskResult.objects.get()
    stopped_at, judged = state()
    assert first.returncode == -signal.SIGKILL
    assert task.status == "RUNNING" and stopped_at == Hand.RUNNING and 1 <= judged < total  # left mid-task
    assert len(pool) >= 2
    wait_for(lambda: not any(running(pid) for pid in pool), "end of the killed worker's pool processes")

    second = worker("--lease", "0", "--batch")  # with one worker alive, a RUNNING task is a dead worker's
    out, _ = second.communicate(timeout=DEADLINE)  # a batch worker exits once nothing is left to run
    assert second.returncode == 0, out
    assert state()[0] == Hand.DONE, out
    task.refresh_from_db()
    hand.refresh_from_db()
    assert task.status == "SUCCESSFUL" and len(task.worker_ids) == 2 and "back in the queue" in out
    method = hand_review.Method(POLICY, WORK)
    # one uninterrupted run in this process, its decisions worked out once a run (the PostgreSQL half reads the SQLite half's)
    straight = review_worked_out_once(hand_review.Reviewed.from_json(hand.record), hand.seat, method)
    assert hand.review == json.loads(json.dumps(straight))  # the same figures as one uninterrupted run
    assert (hand.review_done, hand.review_total) == (total, total)

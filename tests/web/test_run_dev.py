"""`make run` (scripts/run-dev.sh): the development server with one task worker beside it, the worker stopped when the server stops."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from accounts.models import Player
from kwx.bots.basic import BasicBot
from kwx.table.selfplay import play, seeded_deal
from play.models import Hand
from tests.conftest import ROOT
from tests.play.helpers import upload
from tests.web.test_review_worker import DEADLINE, POLICY, database_url, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite_only]  # `make run` serves on SQLite (README)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    try:
        return urllib.request.urlopen(url, timeout=5).status == 200
    except OSError:
        return False


def test_the_dev_server_runs_a_worker_beside_it_that_stops_with_it():
    done = play(seeded_deal(170, 0), [BasicBot(), BasicBot(), BasicBot()])  # a short hand (2 decisions): the worker reviews it at the real minimum of deals
    hand = upload(Player.objects.create(), json.dumps(done.record.to_json()), 0)  # its review is queued
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env |= {"DATABASE_URL": database_url(), "PY": sys.executable, "REVIEW_WORK": "30", "REVIEW_POLICY": POLICY}  # the fast bot: what is tested is the worker beside the server
    script = subprocess.Popen(["scripts/run-dev.sh", f"127.0.0.1:{port}", "--noreload"], cwd=ROOT, env=env, start_new_session=True, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        pid = int(re.search(r"task worker: pid (\d+)", script.stderr.readline()).group(1))
        wait_for(lambda: Hand.objects.get(pk=hand.pk).review_state == Hand.DONE, "review done by the worker", script)
        wait_for(lambda: answers(f"http://127.0.0.1:{port}/healthz/"), "answer from the server", script)
        os.killpg(script.pid, signal.SIGINT)  # Ctrl+C in the terminal reaches the server (the worker has a process group of its own)
        script.wait(timeout=DEADLINE)
    finally:
        if script.poll() is None:
            os.killpg(script.pid, signal.SIGKILL)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the worker stopped (and was waited for) when the server did
    assert not answers(f"http://127.0.0.1:{port}/healthz/")

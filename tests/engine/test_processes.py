"""The process pool the tournaments, fits and drill banks run in (kwx/processes.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from kwx.processes import as_done, in_processes
from tests.conftest import ROOT
from tests.processes import running

HELD = threading.Lock()
"""A lock a thread of the test holds while the pool runs: a forked worker would inherit it held."""


def _square_after_the_lock(n: int) -> int:
    with HELD:
        return n * n


def _die(n: int) -> int:
    if n == 2:
        os._exit(3)
    return n


def test_results_come_in_order_and_equal_the_inline_ones():
    items = list(range(7))
    assert list(in_processes(_square_after_the_lock, items, 3)) == list(in_processes(_square_after_the_lock, items, 1)) == [n * n for n in items]


def test_the_workers_are_fresh_processes_that_inherit_no_lock_a_thread_holds():
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with HELD:
            taken.set()
            release.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert taken.wait(10)
        assert list(in_processes(_square_after_the_lock, [2, 3], 2)) == [4, 9]
    finally:
        release.set()
        holder.join()


def test_a_worker_that_dies_fails_the_call_instead_of_leaving_it_waiting():
    with pytest.raises(BrokenProcessPool):
        list(in_processes(_die, [1, 2, 3], 2))


PARENT = """
import sys, time
from kwx.processes import in_processes
from tests.engine.test_processes import _note_and_sleep
list(in_processes(_note_and_sleep, [sys.argv[1]] * 2, 2))
"""


def _note_and_sleep(folder: str) -> None:
    with open(os.path.join(folder, str(os.getpid())), "w"):
        pass
    time.sleep(120)


def test_the_pool_processes_end_when_the_process_that_started_them_is_killed(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while len(list(tmp_path.iterdir())) < 2:
            assert parent.poll() is None and time.monotonic() < deadline, "the pool did not start"
            time.sleep(0.05)
        children = [int(p.name) for p in tmp_path.iterdir()]
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=60)
        while any(running(pid) for pid in children):
            assert time.monotonic() < deadline + 60, "a pool process outlived its parent"
            time.sleep(0.05)
    finally:
        parent.kill()


def _wait_for_the_others(job: tuple[str, str, int]) -> str:
    """Write this job's mark; the job named ``first`` waits until every other mark is there."""
    folder, name, others = job
    with open(os.path.join(folder, name), "w"):
        pass
    deadline = time.monotonic() + 120
    while name == "first" and len(os.listdir(folder)) < others + 1:
        assert time.monotonic() < deadline, "the other jobs never ran"
        time.sleep(0.01)
    return name


def test_as_done_gives_every_result_and_runs_the_others_while_the_first_is_busy(tmp_path):
    assert list(as_done(_square_after_the_lock, list(range(6)), 1)) == [n * n for n in range(6)]  # in one process: in order
    jobs = [(str(tmp_path), name, 3) for name in ("first", "a", "b", "c")]
    assert sorted(as_done(_wait_for_the_others, jobs, 2)) == ["a", "b", "c", "first"]


def _wait_for_a_beat(folder: str) -> str:
    """Wait until the caller's heartbeat has written its mark (the caller beats only while no result comes)."""
    deadline = time.monotonic() + 120
    while not os.path.exists(os.path.join(folder, "beat")):
        assert time.monotonic() < deadline, "no beat came"
        time.sleep(0.01)
    return "done"


def test_as_done_beats_while_the_processes_work_and_no_result_comes(tmp_path, monkeypatch):
    """Issue 37: a review's worker shows it is alive (a killed worker's review no longer says "running" for the whole lease)."""
    from kwx import processes

    monkeypatch.setattr(processes, "BEAT", 0.05)
    beats = []

    def beat() -> None:
        beats.append(1)
        (tmp_path / "beat").touch()

    assert list(as_done(_wait_for_a_beat, [str(tmp_path), str(tmp_path)], 2, beat)) == ["done", "done"]  # the jobs end only once a beat came
    assert beats

"""The process pool the tournaments, fits and drill banks run in (kwx/processes.py)."""

from __future__ import annotations

import os
import threading
from concurrent.futures.process import BrokenProcessPool

import pytest

from kwx.processes import in_processes

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

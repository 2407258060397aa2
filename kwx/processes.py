"""Work spread over processes: the tournaments, fits and drill banks play their hands in a pool.

The pool's processes are *spawned* (fresh interpreters that import what they run), never forked:
a process forked from one that runs threads — a test server, a browser driver, a task worker —
can inherit a lock some other thread held and wait on it for ever. A process that dies (killed,
out of memory) fails the call with an error instead of leaving it waiting, and a pool process
whose parent dies (a task worker killed mid-task) ends within a second instead of working on.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import TypeVar

T = TypeVar("T")
U = TypeVar("U")


ORPHAN_CHECK = 0.5
"""Seconds between a pool process's looks at whether its parent is still there."""


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(1)  # the parent is gone: nobody will read what this process makes


def _end_with(parent: int) -> None:
    """A pool process's start: a watcher that ends the process once ``parent`` is gone."""
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="kwx-orphan-watch").start()


def in_processes(work: Callable[[T], U], items: Sequence[T], jobs: int) -> Iterator[U]:
    """``work`` of each item, in order, each result as it comes: in ``jobs`` spawned processes, or in this one when ``jobs`` or the items are at most one (``work`` and the items must pickle)."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    with _pool(jobs) as pool:
        yield from pool.map(work, items, chunksize=1)


def as_done(work: Callable[[T], U], items: Sequence[T], jobs: int) -> Iterator[U]:
    """``work`` of each item, each result as soon as it is done (in any order; the items are started in their order, so put the longest first), in ``jobs`` spawned processes or in this one."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    with _pool(jobs) as pool:
        for future in as_completed([pool.submit(work, item) for item in items]):
            yield future.result()


def _pool(jobs: int) -> Executor:
    return ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"), initializer=_end_with, initargs=(os.getpid(),))

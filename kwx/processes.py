"""Work spread over processes: the tournaments, fits and drill banks play their hands in a pool.

The pool's processes are *spawned* (fresh interpreters that import what they run), never forked:
a process forked from one that runs threads — a test server, a browser driver, a task worker —
can inherit a lock some other thread held and wait on it for ever. A process that dies (killed,
out of memory) fails the call with an error instead of leaving it waiting, and a pool process
whose parent dies (a task worker killed mid-task) ends within a second instead of working on.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from dataclasses import dataclass
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
    """``work`` of each item, in order, each result as it comes.

    In ``jobs`` spawned processes, or in this one when ``jobs`` or the items are at most one (``work`` and the
    items must pickle).
    """
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    with _pool(jobs) as pool:
        yield from pool.map(work, items, chunksize=1)


BEAT = 10.0
"""Seconds between two calls of ``as_done``'s ``beat`` while no result comes (a heartbeat: the caller is alive)."""


def as_done(work: Callable[[T], U], items: Sequence[T], jobs: int, beat: Callable[[], object] | None = None) -> Iterator[U]:
    """``work`` of each item, each result as soon as it is done, in ``jobs`` spawned processes or in this one.

    Results come in any order; the items are started in their order, so put the longest first.

    ``beat`` is called every ``BEAT`` seconds while the processes work and no result comes (in this process's own thread:
    it may write to the caller's database connection); working in this one process, nothing beats between results."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    with _pool(jobs) as pool:
        pending = {pool.submit(work, item) for item in items}
        while pending:
            done, pending = wait(pending, timeout=BEAT if beat is not None else None, return_when=FIRST_COMPLETED)
            if not done and beat is not None:
                beat()
            for future in done:
                yield future.result()


def _pool(jobs: int) -> Executor:
    return ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"), initializer=_end_with, initargs=(os.getpid(),))


def lower_priority(nice: int) -> int:
    """Raise this process's nice value to ``nice`` (0–19; never lower it: that needs privileges); the value it has now.

    Processes it starts afterwards (a review's spawned pool) inherit it."""
    try:
        if nice > os.getpriority(os.PRIO_PROCESS, 0):
            os.setpriority(os.PRIO_PROCESS, 0, min(19, nice))
        return os.getpriority(os.PRIO_PROCESS, 0)
    except OSError:  # not allowed here: run as it is
        return os.getpriority(os.PRIO_PROCESS, 0)


GIVE_WAY_POLL = 0.02
"""Seconds between two looks of paused background work at whether the person's request is done."""
_probes: dict[str, int] = {}
"""This process's open descriptor of each lock file it gives way to."""


@dataclass(frozen=True, slots=True)
class GiveWay:
    """Background work that gives way to the requests a person is waiting for on this host.

    Such a request (an expected-value computation, ``analysis/ev_limits.py``) holds the lock file
    ``path`` *shared* while it computes. Background work calls this between two small steps (a
    review, before each rollout): while anyone holds the lock it waits, in steps of
    ``GIVE_WAY_POLL``, until they are done, so the request has the cores to itself; but at most
    ``most`` seconds per call, so a stream of requests slows the background work without stopping
    it. A look holds the lock *exclusively* for microseconds, so a request that marks itself then
    waits that long at most. Picklable: it travels to spawned pool processes. Returns the seconds waited.
    """

    path: str
    most: float = 5.0

    def busy(self) -> bool:
        """Whether a request holds the lock now (a look that takes it exclusively and gives it back at once)."""
        fd = _probes.get(self.path)
        if fd is None:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:  # no such directory (nothing was ever computed here), or not ours: nobody to give way to
                return False
            _probes[self.path] = fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False

    def __call__(self) -> float:
        """Wait while the host is busy, at most ``most`` seconds; the seconds waited."""
        start = time.monotonic()
        waited = 0.0
        while waited < self.most and self.busy():
            time.sleep(GIVE_WAY_POLL)
            waited = time.monotonic() - start
        return waited

"""Work spread over processes: the tournaments, fits and drill banks play their hands in a pool.

The pool's processes are *spawned* (fresh interpreters that import what they run), never forked:
a process forked from one that runs threads — a test server, a browser driver, a task worker —
can inherit a lock some other thread held and wait on it for ever. A process that dies (killed,
out of memory) fails the call with an error instead of leaving it waiting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import TypeVar

T = TypeVar("T")
U = TypeVar("U")


def in_processes(work: Callable[[T], U], items: Sequence[T], jobs: int) -> Iterator[U]:
    """``work`` of each item, in order, each result as it comes: in ``jobs`` spawned processes, or in this one when ``jobs`` or the items are at most one (``work`` and the items must pickle)."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(work, items)
        return
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        yield from pool.map(work, items, chunksize=1)

"""Run jobs at the same moment, each in its own thread with its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection


def run_together(jobs: list[Callable[[], object]]) -> list[BaseException]:
    """Start every job at once (a barrier), wait for all, and return the errors they raised."""
    barrier = threading.Barrier(len(jobs))
    errors: list[BaseException] = []

    def wrap(job: Callable[[], object]) -> None:
        try:
            barrier.wait()
            job()
        except BaseException as exc:  # noqa: BLE001 — handed back to the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=wrap, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors

"""Transactions tried again when SQLite reports the database busy (it answers "database is locked" instead of waiting when two collide)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import OperationalError, connection

T = TypeVar("T")

SQLITE_RETRIES = 40
"""How many times a transaction is tried before a busy database's error goes up."""


def back_off(exc: OperationalError, tries: int) -> None:
    """Wait a little before try ``tries + 1`` if SQLite reported the database locked and tries are left; otherwise raise ``exc``."""
    if connection.vendor != "sqlite" or "locked" not in str(exc) or tries == SQLITE_RETRIES - 1:
        raise exc
    time.sleep(0.005 * (1 + tries) * (1 + random.random()))


def retrying(job: Callable[[], T]) -> T:
    """Run a transaction, trying again when SQLite reports the database busy."""
    for tries in range(SQLITE_RETRIES):
        try:
            return job()
        except OperationalError as exc:
            back_off(exc, tries)
    raise AssertionError("unreachable")

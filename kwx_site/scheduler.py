"""The site's one FSRS scheduler (the ``fsrs`` package): memorise cards, missed drills and hand reviews come back on it."""

from __future__ import annotations

from fsrs import Scheduler

SCHEDULER = Scheduler(enable_fuzzing=False)
"""One scheduler for everything: the package's default parameters, no random fuzz (schedules repeatable and testable)."""

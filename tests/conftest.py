"""Shared test setup: hypothesis profiles and paths to the shared project files."""

from __future__ import annotations

import copy
import hashlib
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, settings

from kwx import hand_review
from kwx.table import review as review_sets

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KWX_SHARED", ROOT.parent / "shared"))
VECTORS = ROOT / "tests" / "vectors"
"""The repository's copies of ``../shared/vectors`` (a clone passes its tests without ``../shared``)."""

django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
"""Tests hash passwords fast; the hashers' strength is Django's to test, the flows are ours."""
django_settings.REVIEW_WORK = 30
"""Reviews in tests play two or three worlds a decision: enough to check what is stored and shown, fast (the real budget is measured by ``manage.py bench_review``)."""
os.environ.setdefault("TASK_NICE", "0")
django_settings.TASK_NICE = 0
"""Task workers that tests start (in their own process, or in the test's: ``run_queued_tasks``) run at the tests' own
priority: on a loaded machine a worker at nice 10 could wait long, and the test process would stay at 10 afterwards."""
EV_DEADLINE = 300.0
"""An expected-value request in tests waits for its computation as long as it takes: on a loaded machine a page's EV
may pass the site's 10 s, and a request past it keeps its slot until its work stops, so the next ones would be refused
as busy. The deadline's own tests set theirs (tests/api/test_ev_deadline.py)."""
django_settings.EV_DEADLINE = EV_DEADLINE
django_settings.REVIEW_JOBS = 1
"""Reviews run in the test's process, where a test may replace a part of them (their work in several processes has its own tests)."""
review_sets.MIN_DEALS = 2
"""… and each of their two sets of deals may be as small as the work budget makes it (a verdict needs 8 deals a set: tests/engine/test_review_decision.py)."""

settings.register_profile("default", max_examples=150, deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
"""Every run (``make test``, CI) draws the same examples, so a run passes or fails on the code alone; a failure prints
the ``@reproduce_failure`` blob that replays it."""
settings.register_profile("thorough", max_examples=2000, deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
"""``HYPOTHESIS_PROFILE=thorough``: new random examples each run, many more of them, to look for rare cases."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config: pytest.Config) -> None:
    """The run's temp folders, made here rather than on import: a process that only imports a test module (a test's
    subprocess, killed at its end) makes none, so leaves none behind.

    Each test process (each xdist worker, each worktree) has its own EV slots: the slot is a host-wide ``flock``
    (analysis/ev_limits.py), and another run's EV request must not take this run's slot. All the processes of a run share
    one ``KWX_TEST_REVIEWS`` folder for the decisions ``reviews_worked_out_once`` works out: the xdist workers inherit the
    controller's (it configures before it starts them), and ``make test`` makes one for both databases' runs.
    """
    django_settings.EV_SLOT_DIR = tempfile.mkdtemp(prefix=f"kwx-ev-test-{os.getpid()}-")
    config.add_cleanup(partial(shutil.rmtree, django_settings.EV_SLOT_DIR, ignore_errors=True))
    if "KWX_TEST_REVIEWS" not in os.environ:
        os.environ["KWX_TEST_REVIEWS"] = tempfile.mkdtemp(prefix=f"kwx-reviews-{os.getpid()}-")
        config.add_cleanup(partial(shutil.rmtree, os.environ["KWX_TEST_REVIEWS"], ignore_errors=True))


_REVIEWED: dict[tuple, dict] = {}
REVIEW_POINT = hand_review.review_point
"""The review's own ``review_point``, which ``reviews_worked_out_once`` stands in for."""


def _shared_review(key: tuple, work: Callable[[], dict]) -> dict:
    """The figures of a decision: this process's, another process's of the same run, or worked out now (and shared)."""
    if key not in _REVIEWED:
        path = Path(os.environ["KWX_TEST_REVIEWS"], hashlib.sha256(repr(key).encode()).hexdigest())
        try:
            _REVIEWED[key] = pickle.loads(path.read_bytes())
        except FileNotFoundError:
            _REVIEWED[key] = work()
            part = path.with_suffix(f".{os.getpid()}")
            part.write_bytes(pickle.dumps(_REVIEWED[key]))
            part.replace(path)  # whole or not at all: another process never reads half a file
    return copy.deepcopy(_REVIEWED[key])


def point_worked_out_once(reviewed, seat, point, method, give_way=None) -> dict:
    """One decision's figures as ``hand_review.review_point`` gives them, worked out once per test run (``KWX_TEST_REVIEWS``).

    A decision's figures depend only on the record, the seat, the step, the method and the deals' minimum (its worlds are
    seeded by them), so a reused one is what a fresh run gives."""
    key = (reviewed.key, seat, point.step, method, review_sets.MIN_DEALS)
    return _shared_review(key, lambda: REVIEW_POINT(reviewed, seat, point, method, give_way))


def review_worked_out_once(reviewed, seat: int, method) -> dict:
    """A whole review as ``hand_review.review_hand`` gives it, its decisions worked out once per run: what the review task's
    own tests (tests/play/test_review_task.py) compare the task's figures with, the task itself working every decision out."""
    points = hand_review.decision_points(reviewed.record, seat)
    return hand_review.summary(seat, [point_worked_out_once(reviewed, seat, p, method) for p in points], method)


@pytest.fixture
def reviews_worked_out_once(monkeypatch):
    """For tests of what the pages and the queue do with a review, not of its figures: each decision is worked out once per
    test run (``point_worked_out_once``) and its figures reused; the review's own tests (tests/engine/test_hand_review.py,
    tests/play/test_review_task.py) work every decision out."""
    monkeypatch.setattr(hand_review, "review_point", point_worked_out_once)


@pytest.fixture(autouse=True)
def _marked_deals(request, monkeypatch):
    """A test marked ``deals(first)`` (itself or its module) deals its games from seed ``first`` on, seat 0 dealing first:
    the same hands every run, so their reviews are worked out once a run (``reviews_worked_out_once``)."""
    mark = request.node.get_closest_marker("deals")
    if mark is not None:
        from play import services
        from tests.play.helpers import FixedDeals

        monkeypatch.setattr(services, "secrets", FixedDeals(*mark.args))


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's default language: a request answered in English leaves English active in its
    thread (the locale middleware activates, nothing deactivates), and a later test that reads a message outside a
    request (tests/web/test_table_form.py) would read it in English, depending on which tests its worker ran first."""
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_ev_refusals():
    """Each test starts with no remembered EV refusals (the database counters it sees are fresh too)."""
    from analysis.ev_limits import forget_refusals

    forget_refusals()


@pytest.fixture(autouse=True)
def _work_budget_decides(monkeypatch):
    """The advice and EV figures depend on the work budget alone: the CPU backstops, there for a
    slow or busy production host, are lifted so that a loaded test machine gives the same figures
    (``tests/api/test_advice_api.py`` and ``tests/engine/test_ev.py`` check the backstops themselves;
    under load 6–10 an EV request turned Monte Carlo and failed test_ev_adds_the_three_figures_to_every_option)."""
    import time

    from analysis import ev_limits
    from kwx.hand import ev

    monkeypatch.setattr(ev_limits, "REQUEST_CPU", 30.0)
    monkeypatch.setattr(ev.Budget.__init__, "__defaults__", (ev.REQUEST_WORK, 30.0, time.process_time))  # the EV requests' backstop too


@pytest.fixture
def stopped_clock(monkeypatch):
    """The limits' clocks stand still (``tests.ev_limits.stop_the_clocks``): a test of a window is not a race against it."""
    from tests.ev_limits import stop_the_clocks

    return stop_the_clocks(monkeypatch)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database as ``make setup`` leaves one: migrated (schema only), then the shipped banks
    loaded once (``manage.py load_banks``). A test that flushes the database (a live server's)
    loads again only the banks it uses (``tests.puzzles.factories.ensure_bank``)."""
    from puzzles.banks import load_banks

    with django_db_blocker.unblock():
        load_banks()


DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark what the PostgreSQL run takes (``-m "database and not presentation and not sqlite_only"``, the Makefile's PG_TESTS).

    ``database``: a test that can meet a database (pytest-django's ``django_db`` mark or a database
    fixture); the others compute the same on every database. ``presentation``: a browser test other
    than the smoke test: what a page looks like and what its scripts do is the same HTML and the same
    requests on every database, and the client tests take every request to PostgreSQL.
    """
    e2e = ROOT / "tests" / "e2e"
    for item in items:
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.database)
        path = Path(str(item.path))
        if path.is_relative_to(e2e) and path.name != "test_smoke.py":
            item.add_marker(pytest.mark.presentation)

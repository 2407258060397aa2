"""Shared test setup: hypothesis profiles and paths to the shared project files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("KWX_SHARED", ROOT.parent / "shared"))
VECTORS = ROOT / "tests" / "vectors"
"""The repository's copies of ``../shared/vectors`` (a clone passes its tests without ``../shared``)."""

django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
"""Tests hash passwords fast; the hashers' strength is Django's to test, the flows are ours."""
django_settings.REVIEW_WORK = 30
"""Reviews in tests play two or three worlds a decision: enough to check what is stored and shown, fast (the real budget is measured by ``manage.py bench_review``)."""

settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _fresh_ev_refusals():
    """Each test starts with no remembered EV refusals (the database counters it sees are fresh too)."""
    from analysis.ev_limits import forget_refusals

    forget_refusals()


@pytest.fixture(autouse=True)
def _work_budget_decides(monkeypatch):
    """The advice figures depend on the work budget alone: the CPU backstop, there for a slow
    or busy production host, is lifted so that a loaded test machine gives the same figures
    (``tests/api/test_advice_api.py`` checks the backstop itself)."""
    from analysis import api_advice

    monkeypatch.setattr(api_advice, "CPU_BUDGET", 30.0)

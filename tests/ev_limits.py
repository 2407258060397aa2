"""Low expected-value limits for a test: its own slot files, rates small enough to reach."""

from __future__ import annotations


def low_ev_limits(settings, slot_dir, per_client: str, site: str) -> None:
    """Set the EV limits of ``analysis.ev_limits`` for one test (``settings`` is pytest-django's fixture)."""
    settings.EV_SLOT_DIR = str(slot_dir)
    settings.EV_RATE_CLIENT, settings.EV_RATE_SITE, settings.EV_CONCURRENCY = per_client, site, 1

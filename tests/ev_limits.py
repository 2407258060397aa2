"""Low expected-value limits for a test: its own slot files, rates small enough to reach."""

from __future__ import annotations


def low_ev_limits(settings, slot_dir, per_client: str, site: str) -> None:
    """Set the EV limits of ``analysis.ev_limits`` for one test (``settings`` is pytest-django's fixture)."""
    settings.EV_SLOT_DIR = str(slot_dir)
    settings.EV_RATE_CLIENT, settings.EV_RATE_SITE, settings.EV_CONCURRENCY = per_client, site, 1


def stop_the_clocks(monkeypatch) -> float:
    """The clocks of the limits (``kwx_site.limits``' window starts, ``analysis.ev_limits``' refusals) stand still
    for the test: no window ends while a loaded machine computes between two requests, and the seconds a
    refusal names are the whole window's. The Unix time they show."""
    import datetime as dt
    import time
    import types

    from analysis import ev_limits
    from kwx_site import limits

    now = float(int(time.time()))  # a whole second: a window end read back from the database is exact
    frozen = dt.datetime.fromtimestamp(now, dt.UTC)
    monkeypatch.setattr(limits, "timezone", types.SimpleNamespace(now=lambda: frozen))
    clock = types.SimpleNamespace(**{name: getattr(time, name) for name in dir(time) if not name.startswith("_")})
    clock.time = lambda: now
    monkeypatch.setattr(ev_limits, "time", clock)
    return now

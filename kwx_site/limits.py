"""Who the client is, and counting what it does: one client address, atomic rate limits.

The client address is the one the trusted proxies saw: with ``TRUSTED_PROXY_HOPS`` = N
(the number of proxies in front of the app servers that append to ``X-Forwarded-For``),
it is the N-th address from the right of that header; with 0 it is ``REMOTE_ADDR``.
Anything a client writes further left is ignored, so a rotating ``X-Forwarded-For`` does
not make a new client. DRF's throttles use the same rule (``NUM_PROXIES``).

Limits count in their own table (``RateCounter``) with one atomic ``UPDATE`` per hit,
so concurrent requests never both slip under a limit and cache pressure cannot reset one.
"""

from __future__ import annotations

import hashlib
import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.throttling import BaseThrottle

from .models import RateCounter

MAX_KEY = 200
SWEEP_CHANCE = 0.01
"""Share of hits that also delete counters whose window ended over a day ago."""


def client_ip(request: HttpRequest) -> str:
    """The client's address as the nearest trusted proxy saw it (see the module docstring)."""
    meta = getattr(request, "META", request)
    remote = meta.get("REMOTE_ADDR") or "unknown"
    hops = settings.TRUSTED_PROXY_HOPS
    forwarded = meta.get("HTTP_X_FORWARDED_FOR", "")
    if hops <= 0 or not forwarded:
        return remote
    addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
    if not addresses:
        return remote
    return addresses[-min(hops, len(addresses))][:64]


def hit(scope: str, ident: str, limit: int, window: int) -> bool:
    """Count one event for (scope, ident) in a fixed window of ``window`` seconds; False once over ``limit``."""
    return over_until(scope, ident, limit, window) is None


def counter_key(scope: str, ident: str) -> str:
    """The counter's row key: ``scope:ident``, or the ident's SHA-256 when it is long or not plain printable text
    (a NUL cannot be stored on PostgreSQL, and two long idents must not share a truncated key)."""
    key = f"{scope}:{ident}"
    if len(key) <= MAX_KEY and key.isprintable():
        return key
    return f"{scope}:#" + hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()


def over_until(scope: str, ident: str, limit: int, window: int) -> float | None:
    """``hit``, telling when a refusal ends: None within ``limit``, else the window's end (a Unix time)."""
    key = counter_key(scope, ident)
    now = timezone.now()
    cutoff = now - timedelta(seconds=window)
    with transaction.atomic():
        rows = RateCounter.objects.filter(key=key)
        updated = rows.update(
            count=Case(When(window_start__lte=cutoff, then=Value(1)), default=F("count") + 1),
            window_start=Case(When(window_start__lte=cutoff, then=Value(now)), default=F("window_start")),
        )
        if not updated:
            try:
                with transaction.atomic():
                    RateCounter.objects.create(key=key, count=1, window_start=now)
            except IntegrityError:  # another request made it first: count on top of it
                rows.update(count=F("count") + 1)
        count, start = rows.values_list("count", "window_start").get()
    if random.random() < SWEEP_CHANCE:
        RateCounter.objects.filter(window_start__lt=now - timedelta(days=1)).delete()
    return None if count <= limit else start.timestamp() + window


def parse_rate(rate: str) -> tuple[int, int]:
    """``"60/min"`` → (60, 60): a count and a window in seconds (s, min, hour, day)."""
    count, period = rate.split("/")
    return int(count), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


class CounterThrottle(BaseThrottle):
    """A DRF throttle counting in ``RateCounter``: set ``scope`` and ``rate``, override ``ident`` if needed."""

    scope = "api"
    rate = "60/min"

    def ident(self, request: Any) -> str:
        """Whom the limit counts: the account, else the client address."""
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return f"user-{user.pk}"
        return client_ip(request)

    def allow_request(self, request: Any, view: Any) -> bool:
        """Count this request; refuse it once over the rate."""
        limit, self.window = parse_rate(self.rate)
        return hit(self.scope, self.ident(request), limit, self.window)

    def wait(self) -> float | None:
        """Seconds to wait: at most one window."""
        return float(getattr(self, "window", 60))

"""How many reports of bad drills one player and one client address may send: beyond, a 429 with ``Retry-After``.

Counted like the other writes (``play.limits``): ``kwx_site.limits`` counters, atomic and shared by every
app server, per player and per client address (a visitor can drop its cookie and be a new player).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from django.http import HttpRequest
from django.utils.translation import gettext as _

from accounts.models import Player
from kwx_site.limits import client_ip, over_until

WINDOW = 600
"""Seconds of each count."""
REPORTS_PER_PLAYER = 10
"""Reports one player may send in ``WINDOW``."""
REPORTS_PER_ADDRESS = 30
"""And one client address, whatever its players (room for a shared network)."""


class TooManyReports(Exception):
    """A refused report: ``message`` in the active language, ``wait`` the seconds to wait."""

    def __init__(self, until: float) -> None:
        self.wait = max(1, math.ceil(until - time.time()))
        minutes = math.ceil(self.wait / 60)
        self.message = _("Too many reports from you or your address in the last %(window)d minutes; try again in %(minutes)d minutes.") % {
            "window": WINDOW // 60,
            "minutes": minutes,
        }
        super().__init__(self.message)


def counted_reporter(request: HttpRequest, player: Callable[[], Player]) -> Player:
    """Count one report for the request's address, then for its player (``player()`` finds or makes it once the address is
    within its limit); the player, or TooManyReports once either is over its limit."""
    until = over_until("report-address", client_ip(request), REPORTS_PER_ADDRESS, WINDOW)
    if until is not None:
        raise TooManyReports(until)
    found = player()
    until = over_until("report-player", str(found.pk), REPORTS_PER_PLAYER, WINDOW)
    if until is not None:
        raise TooManyReports(until)
    return found

"""How many games, hands, uploads and branches one player and one client address may start (issues 26, 37): beyond, a 429 with ``Retry-After``.

Each new game and each upload is rows in the database; without a limit one visitor made 60
uploads in 4.3 s. Both counts are ``kwx_site.limits`` counters (atomic, shared by every app
server): per player, and per client address, since an anonymous visitor can drop its cookie
and be a new player at every request.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _

from kwx_site.limits import client_ip, over_until

WINDOW = 600
"""Seconds of each count."""
PER_PLAYER = {"game": 10, "hand": 30, "upload": 20, "branch": 30}
"""New games, next hands of a game, uploads and branches (play on from here) one player may make in ``WINDOW``
(issue 37: one visitor ended 20 hands of one game in 62 s, each queuing a review of minutes; a person takes
a minute or more a hand)."""
PER_ADDRESS = {"game": 30, "hand": 90, "upload": 60, "branch": 90}
"""And one client address, whatever its players (room for a shared network)."""


class TooMany(Exception):
    """A refused start: ``message`` in the active language, ``wait`` the seconds to wait."""

    def __init__(self, message: str, wait: int) -> None:
        super().__init__(message)
        self.message = message
        self.wait = wait


def _refusal(what: str, until: float) -> TooMany:
    wait = max(1, math.ceil(until - time.time()))
    minutes = math.ceil(wait / 60)
    if what == "game":
        text = _("Too many new games from you or your address in the last %(window)d minutes; try again in %(minutes)d minutes.")
    elif what == "hand":
        text = _("Too many hands dealt to you or your address in the last %(window)d minutes; try again in %(minutes)d minutes.")
    elif what == "branch":
        text = _("Too many hands played on from a step by you or your address in the last %(window)d minutes; try again in %(minutes)d minutes.")
    else:
        text = _("Too many uploaded records from you or your address in the last %(window)d minutes; try again in %(minutes)d minutes.")
    return TooMany(text % {"window": WINDOW // 60, "minutes": minutes}, wait)


def counted_player(request: HttpRequest, what: str, player: Callable[[], Any]) -> Any:
    """Count one ``what`` (game, hand, upload or branch) for the request's address, then for its player (``player()`` finds or makes it,
    only once the address is within its limit); the player, or TooMany once either is over its limit."""
    until = over_until(f"play-{what}-address", client_ip(request), PER_ADDRESS[what], WINDOW)
    if until is not None:
        raise _refusal(what, until)
    found = player()
    until = over_until(f"play-{what}-player", str(found.pk), PER_PLAYER[what], WINDOW)
    if until is not None:
        raise _refusal(what, until)
    return found

"""Limits on expected-value work: per client, for the whole site, and at once per host (issue 15).

An EV request (the analyzer's ``ev=1``, the API's ``depth=ev``) costs up to the engine's
work budget of CPU (``analysis.engine.ev.REQUEST_WORK``), a plain one about a
millisecond. ``ev_slot`` lets one run only when

1. one of ``EV_CONCURRENCY`` slots of this host is free: a non-blocking ``flock`` on a
   file in ``EV_SLOT_DIR``, shared by every worker process and released if one dies; a
   request that finds none is refused at once, so EV work never holds more workers
   than that and the cheap analysis always finds one;
2. the client (``kwx_site.limits.client_ip``, the trusted-proxy address) is within
   ``EV_RATE_CLIENT``;
3. the site is within ``EV_RATE_SITE`` (one counter for every client and host).

The counts are ``kwx_site.limits.hit`` rows (atomic, not in the cache). A request refused
for a busy host is not counted against its client.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _

from kwx_site.limits import client_ip, hit, parse_rate

BUSY_WAIT = 1
"""Seconds a client refused for a busy host is told to wait."""


class EVRefused(Exception):
    """An EV request refused: ``reason`` is busy, client or site; ``wait`` the seconds to wait."""

    def __init__(self, reason: str, wait: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait

    @property
    def message(self) -> str:
        """What the client is told, in the active language."""
        if self.reason == "busy":
            text = _("Expected values are being computed for others right now; try again in %(wait)d s.")
        elif self.reason == "client":
            text = _("Too many expected-value requests from you; try again in %(wait)d s.")
        else:
            text = _("Too many expected-value requests on the site right now; try again in %(wait)d s.")
        return text % {"wait": self.wait}


def slot_dir() -> Path:
    """Where the slot files live: ``EV_SLOT_DIR``, else one directory per user and checkout in the temp dir."""
    if settings.EV_SLOT_DIR:
        return Path(settings.EV_SLOT_DIR)
    tag = hashlib.sha256(str(settings.BASE_DIR).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"kwx-ev-{os.getuid()}-{tag}"


def take_slot() -> int | None:
    """A held slot (an open, locked file descriptor), or None when every slot is taken."""
    folder = slot_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for n in range(max(1, settings.EV_CONCURRENCY)):
        fd = os.open(folder / f"slot-{n}", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return fd
    return None


def release_slot(fd: int) -> None:
    """Give a slot back."""
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


@contextmanager
def ev_slot(request: HttpRequest) -> Iterator[None]:
    """Run the block as one EV request of ``request``'s client, or raise ``EVRefused`` (see the module docstring)."""
    fd = take_slot()
    if fd is None:
        raise EVRefused("busy", BUSY_WAIT)
    try:
        for reason, scope, ident, rate in (
            ("client", "ev", client_ip(request), settings.EV_RATE_CLIENT),
            ("site", "ev-site", "all", settings.EV_RATE_SITE),
        ):
            limit, window = parse_rate(rate)
            if not hit(scope, ident, limit, window):
                raise EVRefused(reason, window)
        yield
    finally:
        release_slot(fd)

"""Limits on expected-value work: per client, for the whole site, at once per host, and at low priority (issue 15).

An EV request (the analyzer's ``ev=1``, the API's ``depth=ev``, every advice request) costs
up to the engine's work budget of CPU (``kwx.hand.ev.REQUEST_WORK``), a plain one
about a millisecond. ``ev_slot`` lets one run only when

1. neither its client nor the site is known, in this process, to be over its limit until
   a later time: a refusal for a limit is remembered until its window ends, so a client
   that keeps sending is refused without another count in the database;
2. one of ``EV_CONCURRENCY`` slots of this host is free: a non-blocking ``flock`` on a
   file in ``EV_SLOT_DIR``, shared by every worker process and released if one dies; a
   request that finds none is refused at once, so EV work never holds more workers
   than that and the cheap analysis always finds one;
3. the client (``kwx_site.limits.client_ip``, the trusted-proxy address) is within
   ``EV_RATE_CLIENT``;
4. the site is within ``EV_RATE_SITE`` (one counter for every client and host).

The counts are ``kwx_site.limits.hit`` rows (atomic, not in the cache). A request refused
for a busy host counts against its client's limit too (issue 37: one client sent 10,716 in a
minute), so a client that keeps asking is soon refused from this process's memory, without a look
at the slots or the database.

The slots are shared fairly (issue 26: one client looping within its own limit held the only
slot, and a second got 1 request of 19): a client refused for a busy host is noted as waiting
(in ``fair.json`` beside the slot files, for ``FAIR_WINDOW`` seconds; one write per client and
process every ``NOTE_EVERY`` seconds at most, and ``NOTES_PER_SECOND`` in all, so a flood of
refusals stays as cheap as before), and a client
that finds a slot free leaves it, refused as if busy, while another client is waiting that was
served less recently than it: the least recently served waiting client goes first. A client
alone, or the first to come, is never held back.

The work itself runs in one thread per worker process at ``EV_NICE`` (a Linux thread's own
nice value), so under load the cheap requests of the other workers get the CPU first and
the EV answer takes longer; on an idle host it runs at full speed. Its answer does not
depend on the priority: the budget counts work, with CPU time only as a backstop.

A person waits for this answer; nobody watches a review. While the work runs, the host's
``flight`` file (beside the slots) is held shared, and background work on the host (a review's
processes, ``kwx.processes.GiveWay``) pauses before its next rollout until it is let go (issue 37:
with a review running on every core at normal priority, the nice-19 EV thread got almost no CPU
and gunicorn killed the request at 30 s). And the request waits for its work only until
``EV_DEADLINE`` seconds after it arrived: then it answers "busy, try again" (``late``: the API's
503 with ``Retry-After``), its work is told to stop (its budget marked spent) and keeps the slot
until it has.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as WaitedTooLong
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import connections
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from kwx.hand.ev import REQUEST_SECONDS, Budget
from kwx_site.limits import client_ip, over_until, parse_rate
from kwx_site.middleware import began

T = TypeVar("T")

BUSY_WAIT = 1
"""Seconds a client refused for a busy host is told to wait."""
LATE_WAIT = 5
"""Seconds a client whose work ran past ``EV_DEADLINE`` is told to wait (the host is loaded: not at once)."""
REQUEST_CPU = REQUEST_SECONDS
"""CPU seconds all the expected-value work of one request may take together (the analyzer's EV figures and its table
estimate on one page share it), looked at before every rollout; tests that compare figures lift it (``tests/conftest.py``)."""


LONGER = 4
"""A "compute longer" table estimate (the analyzer's ``longer=1``) gets this many times a request's work and CPU,
and counts as this many EV requests against the client's and the site's limits."""


def request_budget(request: HttpRequest, scale: int = 1) -> Budget:
    """The request's one work and CPU budget, made at its first use (``scale`` × ``REQUEST_CPU`` from then on) and shared by all its EV work."""
    budget = getattr(request, "kwx_ev_budget", None)
    if budget is None:
        budget = Budget(seconds=REQUEST_CPU * scale)
        request.kwx_ev_budget = budget  # type: ignore[attr-defined]
    return budget


class EVRefused(Exception):
    """An EV request refused: ``reason`` is busy, client, site, time (the request's CPU budget was spent) or late (its
    work ran past ``EV_DEADLINE``: the host is overloaded, the API's 503); ``wait`` the seconds to wait."""

    def __init__(self, reason: str, wait: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait = wait

    @property
    def message(self) -> str:
        """What the client is told, in the active language."""
        if self.reason == "busy":
            text = _("Expected values are being computed for others right now; try again in %(wait)d s.")
        elif self.reason == "late":
            text = _("The server is too busy to finish the expected values in time; try again in %(wait)d s.")
        elif self.reason == "client":
            text = _("Too many expected-value requests from you; try again in %(wait)d s.")
        elif self.reason == "time":
            text = _("This request's computing time went to the expected values before the table estimate could start; load the estimate again in %(wait)d s.")
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


FLIGHT = "flight"
"""The file beside the slots that a request holds shared while its work runs: background work gives way to it."""
MARK_TRIES = 50
"""Tries, a millisecond apart, to mark a request in flight (a look of background work holds the mark for microseconds)."""


def flight_path() -> Path:
    """The host's in-flight mark (``kwx.processes.GiveWay`` waits while anyone holds it)."""
    return slot_dir() / FLIGHT


def mark_flight() -> int | None:
    """Hold the in-flight mark shared (an open descriptor), or None if a look kept it for ~50 ms (never: a look takes microseconds)."""
    folder = slot_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(folder / FLIGHT, os.O_RDWR | os.O_CREAT, 0o600)
    for _try in range(MARK_TRIES):
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            time.sleep(0.001)
            continue
        return fd
    os.close(fd)
    return None


class _Held:
    """A request's slot and in-flight mark, let go once (when its work ends, which may be after the request gave up on it)."""

    def __init__(self, slot: int) -> None:
        self.fds = [slot]
        self.lock = threading.Lock()
        flight = mark_flight()
        if flight is not None:
            self.fds.append(flight)

    def release(self, *_: object) -> None:
        with self.lock:
            fds, self.fds = self.fds, []
        for fd in fds:
            release_slot(fd)


FAIR_WINDOW = 5.0
"""Seconds a client refused for a busy host counts as waiting for a slot: it was told to come back in ``BUSY_WAIT``, and a person
 who clicks again a few seconds later still finds the slot kept for them."""
NOTE_EVERY = 0.5
"""Seconds between two notes of the same waiting client by one process."""
MAX_FAIR = 32
"""Clients ``fair.json`` remembers at most, the most recent kept."""
NOTES_PER_SECOND = 20
"""Waiting notes one process writes a second at most: a flood of refusals from ever new addresses stays as cheap as
the refusals were (the clients past it wait without a note, as every client did before fair sharing)."""
SERVED_KEEP = 600.0
"""Seconds a client's last turn is remembered."""
now = time.time
"""The clock of the fair sharing (tests drive it)."""
_noted: dict[str, float] = {}
_notes = [0.0, 0]
"""The second this process last wrote notes in, and how many it wrote in it."""


@contextmanager
def _fair_state() -> Iterator[dict[str, dict[str, float]]]:
    """The host's fair-sharing state (``served``, ``waiting``: client → time), read and written back under an exclusive lock."""
    folder = slot_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(folder / "fair.json", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        raw = os.pread(fd, 1 << 20, 0)
        try:
            stored = json.loads(raw or b"{}")
        except ValueError:
            stored = {}
        parts = {name: stored.get(name) if isinstance(stored, dict) else None for name in ("served", "waiting")}
        state = {name: {str(k): float(v) for k, v in part.items() if isinstance(v, (int, float))} if isinstance(part, dict) else {} for name, part in parts.items()}
        yield state
        t = now()
        state["waiting"] = {k: v for k, v in state["waiting"].items() if t - v <= FAIR_WINDOW}
        state["served"] = {k: v for k, v in state["served"].items() if t - v <= SERVED_KEEP}
        for name in ("served", "waiting"):
            state[name] = dict(sorted(state[name].items(), key=lambda kv: -kv[1])[:MAX_FAIR])
        data = json.dumps(state).encode()
        os.pwrite(fd, data.ljust(len(raw)), 0)  # padded with spaces, never truncated: ftruncate costs milliseconds on ext4
    finally:
        os.close(fd)


def note_waiting(client: str) -> None:
    """Note that ``client`` was refused for a busy host (at most once per ``NOTE_EVERY`` seconds from this process)."""
    t = now()
    if t - _noted.get(client, -math.inf) < NOTE_EVERY:
        return
    second = math.floor(t)
    if _notes[0] != second:
        _notes[0], _notes[1] = second, 0
    if _notes[1] >= NOTES_PER_SECOND:
        return
    _notes[1] += 1
    if len(_noted) >= MAX_REMEMBERED:
        _noted.clear()
    _noted[client] = t
    with _fair_state() as state:
        state["waiting"][client] = t


def yields(client: str) -> bool:
    """Whether ``client``, holding a free slot, must leave it to a waiting client served less recently; if not, its turn is noted."""
    t = now()
    with _fair_state() as state:
        mine = state["served"].get(client, -math.inf)
        for other, since in state["waiting"].items():
            if other != client and t - since <= FAIR_WINDOW and state["served"].get(other, -math.inf) < mine:
                state["waiting"][client] = t  # it waits its turn now
                _noted[client] = t
                return True
        state["served"][client] = t
        state["waiting"].pop(client, None)
        return False


def host_busy() -> bool:
    """Whether every slot of this host is taken right now (a probe: it holds none afterwards)."""
    fd = take_slot()
    if fd is None:
        return True
    release_slot(fd)
    return False


MAX_REMEMBERED = 10_000
"""Refusals a process remembers at most (a flood of addresses cannot grow it without bound)."""

_refused_until: dict[tuple[str, str], float] = {}


def forget_refusals() -> None:
    """Drop this process's memory of refused clients and the host's fair-sharing state (tests that reset the counters call it)."""
    _refused_until.clear()
    _noted.clear()
    _notes[:] = [0.0, 0]
    (slot_dir() / "fair.json").unlink(missing_ok=True)


def _remembered(reason: str, ident: str) -> None:
    """Raise ``EVRefused`` if (reason, ident) was refused for a window that has not ended."""
    until = _refused_until.get((reason, ident))
    if until is None:
        return
    left = until - time.time()
    if left <= 0:
        del _refused_until[(reason, ident)]
        return
    raise EVRefused(reason, max(1, math.ceil(left)))


def _remember(reason: str, ident: str, until: float) -> None:
    if len(_refused_until) >= MAX_REMEMBERED:
        now = time.time()
        for key in [key for key, end in _refused_until.items() if end <= now]:
            del _refused_until[key]
        if len(_refused_until) >= MAX_REMEMBERED:
            _refused_until.clear()
    _refused_until[(reason, ident)] = until


def _count(reason: str, scope: str, ident: str, rate: str) -> None:
    """Count one request against a limit; over it, remember and raise ``EVRefused`` with the window's rest."""
    limit, window = parse_rate(rate)
    until = over_until(scope, ident, limit, window)
    if until is not None:
        _remember(reason, ident, until)
        raise EVRefused(reason, max(1, math.ceil(until - time.time())))


class _LowPriority:
    """One worker thread per process that runs EV work at ``EV_NICE``; made again after a fork."""

    def __init__(self) -> None:
        self.pid = -1
        self.pool: ThreadPoolExecutor | None = None
        self.lock = threading.Lock()

    def executor(self) -> ThreadPoolExecutor:
        """This process's pool (gunicorn forks workers from a preloaded master: threads do not survive a fork)."""
        with self.lock:
            if self.pool is None or self.pid != os.getpid():
                self.pid = os.getpid()
                self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kwx-ev", initializer=_lower_priority)
            return self.pool


def _lower_priority() -> None:
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), max(0, min(19, settings.EV_NICE)))
    except (AttributeError, OSError):  # not Linux, or not allowed: run at the normal priority
        pass


_low = _LowPriority()


def _in_language(language: str | None, work: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    try:
        with translation.override(language):
            return work(*args, **kwargs)
    finally:
        connections.close_all()  # this thread's own connections, if the work opened any


def submit_low(work: Callable[..., T], *args: Any, **kwargs: Any) -> Future[T]:
    """Start ``work(*args, **kwargs)`` in this process's EV thread (at ``EV_NICE``), in the active language."""
    return _low.executor().submit(_in_language, translation.get_language(), work, args, kwargs)


def run_low(work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``work(*args, **kwargs)`` in this process's low-priority EV thread, in the active language, and wait for it."""
    return submit_low(work, *args, **kwargs).result()


def seconds_left(request: HttpRequest) -> float:
    """Seconds until ``request``'s EV deadline: ``EV_DEADLINE`` after it reached the site (or from now, if that is not known)."""
    arrived = began(request)
    spent = (timezone.now() - arrived).total_seconds() if arrived is not None else 0.0
    return max(0.0, settings.EV_DEADLINE - spent)


class _Runner:
    """What ``ev_slot`` yields: runs work in the EV thread and waits for it until the request's deadline."""

    def __init__(self, request: HttpRequest, held: _Held) -> None:
        self.request = request
        self.held = held
        self.detached = False

    def __call__(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        future = submit_low(work, *args, **kwargs)
        try:
            return future.result(timeout=seconds_left(self.request))
        except WaitedTooLong:
            budget = getattr(self.request, "kwx_ev_budget", None)
            if budget is not None:
                budget.timed_out = True  # the work stops at its next look at the budget
            self.detached = True
            future.add_done_callback(self.held.release)  # the slot and the mark stay taken until it has stopped
            raise EVRefused("late", LATE_WAIT) from None


def early_refusal(request: HttpRequest) -> EVRefused | None:
    """The refusal ``ev_slot`` would give at once: a remembered limit (no query), or a busy host (counted against the client, as there); else None."""
    try:
        _remembered("client", client_ip(request))
        _remembered("site", "all")
    except EVRefused as refused:
        return refused
    if not host_busy():
        return None
    return busy(client_ip(request))


def busy(client: str) -> EVRefused:
    """The refusal for a busy host: the client noted as waiting, and the request counted against its limit (over it: that refusal)."""
    note_waiting(client)
    try:
        _count("client", "ev", client, settings.EV_RATE_CLIENT)
    except EVRefused as over:
        return over
    return EVRefused("busy", BUSY_WAIT)


@contextmanager
def ev_slot(request: HttpRequest, weight: int = 1) -> Iterator[Callable[..., Any]]:
    """Hold one EV slot for ``request``'s client and yield a runner of work in the EV thread, or raise ``EVRefused`` (see the module docstring).

    The runner waits for the work until the request's deadline (``seconds_left``), then raises ``EVRefused`` (late);
    the slot is given back when the work ends. ``weight``: how many EV requests this one counts as against the
    client's and the site's limits (``LONGER``)."""
    client = client_ip(request)
    _remembered("client", client)
    _remembered("site", "all")
    fd = take_slot()
    if fd is None:
        raise busy(client)
    if yields(client):
        release_slot(fd)
        _count("client", "ev", client, settings.EV_RATE_CLIENT)
        raise EVRefused("busy", BUSY_WAIT)
    runner: _Runner | None = None
    try:
        for _ in range(weight):
            _count("client", "ev", client, settings.EV_RATE_CLIENT)
            _count("site", "ev-site", "all", settings.EV_RATE_SITE)
        runner = _Runner(request, _Held(fd))
        yield runner
    finally:
        if runner is None:
            release_slot(fd)
        elif not runner.detached:
            runner.held.release()

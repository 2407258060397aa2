"""How long a hand's review takes to be ready: from the hand's end to its stored review, with one real worker.

In a throwaway test database, hands are played through ``play.services`` (the person answering
as the basic or the strong bot would) one after another; each hand's end enqueues its review,
and one ``manage.py db_worker`` process — started here on the same database, with the site's
REVIEW_WORK unless ``--work`` and the site's REVIEW_JOBS processes — works it out. For each hand it prints the decisions, the time
from the hand's end to the review being done (wall clock, the queue's polling included), the
worker's CPU seconds for it and the worlds per decision; then p50, p90 and the worst.
Prints figures; asserts nothing. ``manage.py bench_review --hands 10``.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import setup_test_environment, teardown_test_environment

from accounts.models import Player
from kwx.bots.registry import policy_factory
from kwx.table import seats
from kwx.table.view import view_for
from play import forms, services
from play.management.commands.bench_play import percentile
from play.models import Game, Hand

ROOT = Path(__file__).resolve().parents[3]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and of its ended children so far (Linux /proc: a review's pool processes end with it)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


@contextmanager
def worker_on_a_throwaway_database(work: int) -> Iterator[subprocess.Popen[bytes]]:
    """A throwaway test database (this process uses it from now on) and one ``manage.py db_worker`` process on it,
    with REVIEW_WORK ``work`` and the site's REVIEW_POLICY and REVIEW_JOBS; both gone afterwards."""
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    db = connection.settings_dict
    url = f"sqlite:///{db['NAME']}" if connection.vendor == "sqlite" else f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "REVIEW_WORK": str(work), "REVIEW_POLICY": settings.REVIEW_POLICY, "REVIEW_JOBS": str(settings.REVIEW_JOBS)}
    env.pop("DEBUG", None)
    worker = subprocess.Popen([sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay", "--verbosity", "0"], cwd=ROOT, env=env)
    try:
        yield worker
    finally:
        worker.terminate()
        worker.wait(timeout=120)
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


def wait_for_review(hand_id: int, worker: subprocess.Popen[bytes], most: float = math.inf) -> str:
    """Wait until the hand's review is done or failed (at most ``most`` seconds); its state."""
    start = time.monotonic()
    while (state := Hand.objects.filter(pk=hand_id).values_list("review_state", flat=True).get()) not in (Hand.DONE, Hand.FAILED):
        if worker.poll() is not None:
            raise RuntimeError("the worker stopped")
        if time.monotonic() - start > most:
            break
        time.sleep(0.05)
    return state


def play_as(person: Any, player: Player, client: str = "", game: Game | None = None) -> Hand:
    """A whole hand against the strong bots through ``play.services`` (a new game, or ``game``'s next hand), ``person`` (a bot)
    answering in the person's seat from ``client``'s address; its review is queued at its end. The finished hand."""
    if game is None:
        game = services.start_game(player=player, level="strong", rules="standard", base=1, piao=0, client=client)
        hand = game.hands.get()
    else:
        last = game.hands.order_by("-number").first()
        hand = services.next_hand(player=player, game_id=game.pk, number=last.number if last else None, piao=0, client=client)
    while not hand.over:
        view = view_for(seats.replayed(hand.kwx_record).final, 0)
        action = person.claim(view) if view.decision.may_pass else person.act(view)
        move = "pass" if action is None else f"{action.verb} {action.tile}" + (" ld" if action.liang_dao else "")
        hand, _changed, _done = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(move), hand_id=hand.pk, client=client)
    return hand


class Command(BaseCommand):
    help = "Time a hand's review from the hand's end to the stored review, with one worker process: p50, p90, worst."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=10)
        parser.add_argument("--person", default="basic", help="the bot whose answers stand for the person's (default basic)")
        parser.add_argument("--work", type=int, default=None, help="rollout actions per choice (default: REVIEW_WORK)")

    def handle(self, *args: Any, **options: Any) -> None:
        work = options["work"] or settings.REVIEW_WORK
        rows = []
        with worker_on_a_throwaway_database(work) as worker:
            person = policy_factory(options["person"])()
            for number in range(options["hands"]):
                hand = play_as(person, Player.objects.create())
                ended, cpu = time.monotonic(), _cpu_seconds(worker.pid)
                wait_for_review(hand.pk, worker)
                latency, used = time.monotonic() - ended, _cpu_seconds(worker.pid) - cpu
                hand.refresh_from_db()
                decisions = hand.review["decisions"] if hand.review_state == Hand.DONE else []
                worlds = [d["worlds"] for d in decisions]
                rows.append((latency, used, len(decisions)))
                self.stdout.write(
                    f"hand {number + 1}: {hand.review_state}, {len(decisions)} decisions, ready {latency:.1f} s after its end, "
                    f"worker CPU {used:.1f} s, worlds per decision {min(worlds, default=0)}–{max(worlds, default=0)} (median {statistics.median(worlds) if worlds else 0})"
                )
        latencies = [r[0] for r in rows]
        self.stdout.write(
            f"{len(rows)} hands, REVIEW_WORK {work}, policy {settings.REVIEW_POLICY}, REVIEW_JOBS {settings.REVIEW_JOBS}, person {options['person']}, load average {os.getloadavg()[0]:.1f}: "
            f"ready after p50 {percentile(latencies, 0.5):.1f} s, p90 {percentile(latencies, 0.9):.1f} s, worst {max(latencies):.1f} s; "
            f"worker CPU per review mean {statistics.mean(r[1] for r in rows):.1f} s, worst {max(r[1] for r in rows):.1f} s; "
            f"decisions per hand mean {statistics.mean(r[2] for r in rows):.1f}, most {max(r[2] for r in rows)}"
        )

"""How long one player's review waits behind another's flood: the review queue's fairness, with one real worker (issue 37).

In a throwaway test database, with one ``manage.py db_worker`` process on it (the site's REVIEW_POLICY,
REVIEW_JOBS and REVIEW_WORK unless ``--work``), player A, from one address, plays ``--hands`` hands of
one game to their end (the strong bot answering for the person; each queues its review) and uploads
``--uploads`` records (each queues its review too); then player B, from another address, plays one
hand. It prints when B's review is ready after B's hand ended, how many of A's reviews were done by
then and how many were still waiting. ``--fifo`` enqueues every review at the one priority they all
had before (first in, first out), for comparison. Prints figures; asserts nothing.
``manage.py bench_fair --hands 10 --uploads 10 [--fifo]``.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.models import Player
from kwx.bots.basic import BasicBot
from kwx.bots.registry import policy_factory
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from play import forms, services
from play.management.commands.bench_review import play_as, wait_for_review, worker_on_a_throwaway_database
from play.models import Hand

A, B = "203.0.113.1", "203.0.113.2"
"""The two players' addresses (documentation addresses: nothing is sent anywhere)."""


class Command(BaseCommand):
    help = "Time one player's review behind another player's flood of hands and uploads, with one worker process."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=10, help="hands player A plays to their end (default 10)")
        parser.add_argument("--uploads", type=int, default=10, help="records player A uploads (default 10)")
        parser.add_argument("--work", type=int, default=None, help="rollout actions per choice (default: REVIEW_WORK)")
        parser.add_argument("--most", type=float, default=1800.0, help="seconds to wait for B's review at most (default 1800)")
        parser.add_argument("--fifo", action="store_true", help="every review at one priority, first in first out (as before issue 37)")

    def handle(self, *args: Any, **options: Any) -> None:
        work = options["work"] or settings.REVIEW_WORK
        if options["fifo"]:
            services.review_priority = lambda hand_id: 0  # type: ignore[assignment]  # this process enqueues: as before
        with worker_on_a_throwaway_database(work) as worker:
            started = time.monotonic()
            person = policy_factory("strong")()
            flooder = Player.objects.create()
            game = None
            for _ in range(options["hands"]):
                hand = play_as(person, flooder, A, game)
                game = hand.game
            for seed in range(options["uploads"]):
                text = json.dumps(play(seeded_deal(1000 + seed, seed % 3), [BasicBot(), StrongBot(), StrongBot()]).record.to_json())
                form = forms.UploadForm({"record": text, "seat": "0"})
                assert form.is_valid(), form.errors
                services.upload(player=flooder, data=form.cleaned_data["data"], replay=form.cleaned_data["replay"], client=A)
            flood = time.monotonic() - started
            theirs = play_as(person, Player.objects.create(), B)
            ended = time.monotonic()
            state = wait_for_review(theirs.pk, worker, options["most"])
            waited = time.monotonic() - ended
            mine = Hand.objects.filter(player=flooder)
            done = mine.filter(review_state=Hand.DONE).count()
            waiting = mine.filter(review_state__in=(Hand.QUEUED, Hand.RUNNING)).count()
        self.stdout.write(
            f"{'first in, first out' if options['fifo'] else 'fair (issue 37)'}: A played {options['hands']} hands and uploaded {options['uploads']} records "
            f"in {flood:.0f} s, then B played one hand; B's review {state} {waited:.0f} s after B's hand ended "
            f"({'waited the most, ' if state != Hand.DONE else ''}A's reviews by then: {done} done, {waiting} still queued or running); "
            f"REVIEW_WORK {work}, policy {settings.REVIEW_POLICY}, REVIEW_JOBS {settings.REVIEW_JOBS}, load average {os.getloadavg()[0]:.1f}"
        )

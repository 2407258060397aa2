"""How long a bot's turn takes on the play page: p50 and p99 of each action POST, and of the bots' share of it.

Plays whole hands through the full stack (test client, middleware, view, service, template)
in a throwaway test database, the person answering as the basic bot would. Prints figures;
asserts nothing. ``manage.py bench_play --hands 20 --level strong``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import setup_test_environment, teardown_test_environment

from kwx.table import seats


def percentile(values: list[float], q: float) -> float:
    """The value at quantile ``q`` of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Command(BaseCommand):
    help = "Time the play page's action POSTs (the bots answer inside them): p50, p99."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--hands", type=int, default=20)
        parser.add_argument("--level", default="strong", choices=["basic", "strong"])

    def handle(self, *args: Any, **options: Any) -> None:
        from kwx.bots.basic import BasicBot
        from kwx.table.view import view_for
        from play.models import Game

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        bot_times: list[float] = []
        real_play_on = seats.play_on

        def timed_play_on(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return real_play_on(*a, **k)
            finally:
                bot_times.append(time.perf_counter() - start)

        seats.play_on = timed_play_on  # type: ignore[assignment]
        posts: list[float] = []
        bots_only: list[float] = []
        try:
            client = Client()
            person = BasicBot()
            response = client.post("/play/", {"level": options["level"], "rules": "standard", "base": "1", "piao": "0"})
            game_id = int(response["Location"].strip("/").split("/")[-1])  # one game, its hands dealt one after another
            for number in range(1, options["hands"] + 1):
                if number > 1:
                    client.post(f"/play/{game_id}/next/", {"number": number - 1, "piao": "0"})
                while True:
                    hand = Game.objects.get(pk=game_id).hands.get(number=number)
                    if hand.over:
                        break
                    view = view_for(seats.replayed(hand.kwx_record).final, 0)
                    if view.decision.may_pass:
                        action = person.claim(view)
                        move = "pass" if action is None else f"{action.verb} {action.tile}"
                    else:
                        action = person.act(view)
                        move = f"{action.verb} {action.tile}" + (" ld" if action.liang_dao else "")
                    bot_times.clear()
                    start = time.perf_counter()
                    client.post(f"/play/{game_id}/", {"hand": hand.pk, "seen": hand.action_count, "move": move}, HTTP_HX_REQUEST="true")
                    posts.append(time.perf_counter() - start)
                    bots_only.append(sum(bot_times))
        finally:
            seats.play_on = real_play_on  # type: ignore[assignment]
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()
        ms = lambda v: f"{1000 * v:.1f} ms"
        self.stdout.write(f"{len(posts)} action POSTs over {options['hands']} hands, bots: {options['level']}")
        self.stdout.write(f"whole POST (htmx, bots answer inside): p50 {ms(percentile(posts, 0.5))}  p99 {ms(percentile(posts, 0.99))}  mean {ms(statistics.mean(posts))}")
        self.stdout.write(f"bots' play (advance until the person's turn): p50 {ms(percentile(bots_only, 0.5))}  p99 {ms(percentile(bots_only, 0.99))}")

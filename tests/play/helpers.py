"""Playing a stored hand to its end the way a person would: the basic bot's answer in seat 0, sent as the form sends it."""

from __future__ import annotations

import itertools
import secrets

from accounts.models import Player
from kwx.bots.basic import BasicBot
from kwx.bots.registry import policy_factory
from kwx.table import seats
from kwx.table.record import Replay
from kwx.table.selfplay import Policy, play, seeded_deal
from kwx.table.table import Action
from kwx.table.view import SeatView, view_for
from play import services
from play.forms import UploadForm, parse_choice
from play.models import Hand

BOT = BasicBot()


def move_for(hand: Hand) -> str:
    """The form value of the basic bot's choice in the person's seat (``pass`` for no claim)."""
    view = view_for(seats.replayed(hand.kwx_record).final, 0)
    assert view.decision.is_open, "not the person's decision"
    if view.decision.may_pass:
        action = BOT.claim(view)
        if action is None:
            return "pass"
    else:
        action = BOT.act(view)
    return f"{action.verb} {action.tile}" + (" ld" if action.liang_dao else "")


def run_queued_tasks() -> None:
    """Run every queued task in this process, as a worker does (``manage.py db_worker --batch``).

    Inside a test's transaction the worker must not close the connection between tasks (it
    does so to drop stale connections, and a connection in a transaction looks stale to it).
    """
    from unittest import mock

    from django.core.management import call_command

    with mock.patch("kwx_site.management.commands.db_worker.close_old_connections"):
        call_command("db_worker", batch=True, reload=False, startup_delay=False, interval=0, verbosity=0)


def upload(player: Player, text: str, seat: int = 0) -> Hand:
    """Store a record as the upload form would: read and replayed once by ``UploadForm``, then ``services.upload``."""
    form = UploadForm({"record": text, "seat": str(seat)})
    assert form.is_valid(), form.errors
    return services.upload(player=player, data=form.cleaned_data["data"], replay=form.cleaned_data["replay"], seat=form.cleaned_data["seat"])


def finish_hand(player, game, capture) -> Hand:
    """Answer the game's current hand through ``services.act`` with the basic bot's choices until it is over (``capture``: run what each commit leaves, the review's enqueue)."""
    from play import services

    hand = game.hands.order_by("-number").first()
    while not hand.over:
        with capture(execute=True):
            hand, _changed, _done = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=parse_choice(move_for(hand)), hand_id=hand.pk)
    return hand


class Keys:
    """The person as the keyboard e2e plays (tests/e2e/test_play_town.py): 胡 when offered, 过 on every claim, else the drawn tile (or the first tile it may discard)."""

    def act(self, view: SeatView) -> Action:
        wins = [a for a in view.options if a.verb == "win"]
        if wins:
            return wins[0]
        discards = [a for a in view.options if a.verb == "discard" and not a.liang_dao]
        return next((a for a in discards if a.kind == view.drawn_tile), min(discards, key=lambda a: a.kind))

    def claim(self, view: SeatView) -> Action | None:
        return next((a for a in view.options if a.verb == "win"), None)


class KouBot(BasicBot):
    """The basic bot, but it declares 亮倒 keeping a triplet face down (半亮) whenever the table offers it (no bot of the site does)."""

    def act(self, view: SeatView) -> Action:
        return next((a for a in view.options if a.kou), None) or super().act(view)


def keys_hand(seed: int, dealer: int, rules: str, level: str, second: Policy | None = None) -> Replay:
    """A whole hand on a seeded deal: ``Keys`` in seat 0, bots of ``level`` in seats 1 and 2 (``second``: seat 1's policy instead)."""
    bot = policy_factory(level)()
    return play(seeded_deal(seed, dealer), [Keys(), second or bot, bot], rules=rules)


def decide_all(hand: Hand) -> Hand:
    """Give a stored review verdicts on every decision, as a review with enough deals would: each decided, the seat's choice
    among the best when it is the selected best, else clearly worse (costly when its gap is at least half a stake).
    Tests run reviews on a few deals (tests/conftest.py), too few for any verdict."""
    for d in hand.review["decisions"]:
        same = d["mine"] == d["best"]
        d.update(decided=True, named=True, same=same, worse=not same, costly=not same and d["cost"] >= 0.5)
        for row in d["options"]:
            row.update(clear=not row["selected"] and not row["mine"] or (row["mine"] and not same), best=row["selected"])
    Hand.objects.filter(pk=hand.pk).update(review=summed(hand.review))
    hand.refresh_from_db()
    return hand


def summed(review: dict) -> dict:
    """A stored review whose decisions a test changed, its summary summed again as the review does when it stores them."""
    d = review["decisions"]
    dear = [x for x in d if x["costly"]]
    review.update(decided=sum(x["decided"] for x in d), agree=sum(x["same"] for x in d), costly=len(dear))
    review.update(costly_cost=sum(x["cost"] for x in dear), costly_cost_se=sum(x["cost_se"] ** 2 for x in dear) ** 0.5)
    return review


class FixedDeals:
    """Stands in for ``play.services.secrets``: the walls of the hands a game deals come from the seeds ``first``, ``first + 1`` … and
    the first dealer is seat 0, so a test's hands are the same every run (their reviews may be worked out once)."""

    def __init__(self, first: int) -> None:
        self.seeds = itertools.count(first)

    def randbits(self, _bits: int) -> int:
        return next(self.seeds)

    def randbelow(self, _n: int) -> int:
        return 0

    token_urlsafe = staticmethod(secrets.token_urlsafe)


SHORT_DEALS = 734_019_233
"""The first seed of the games of tests/web/test_play.py, test_play_on.py, tests/play/test_review_queue.py and test_services.py
(``pytest.mark.deals``): a short first hand (3 decisions at a table of basic play), the same every run, its review worked out
once (the seed's digits appear nowhere else on a page)."""

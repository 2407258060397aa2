"""Playing a stored hand to its end the way a person would: the basic bot's answer in seat 0, sent as the form sends it."""

from __future__ import annotations

from kwx.bots.basic import BasicBot
from kwx.table.view import view_for
from play import seats
from play.models import Hand

BOT = BasicBot()


def move_for(hand: Hand) -> str:
    """The form value of the basic bot's choice in the person's seat (``pass`` for no claim)."""
    view = view_for(seats.replayed(hand.record).final, 0)
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

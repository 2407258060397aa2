"""The person's seat at an engine table: a stored hand's replay, and what the person may do.

Pure Python over the engine (no Django): the services store and lock, this module plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kwx.bots.registry import policy_factory
from kwx.table.record import Record, Replay, finish
from kwx.table.selfplay import Policy, Waiting, advance, seeded_deal
from kwx.table.table import Action, Table
from kwx.table.view import SeatView, decision_for

PERSON = 0
"""The person sits at seat 0; seats 1 (下家) and 2 (上家) are bots."""
PASS = "pass"


@dataclass(frozen=True, slots=True)
class Choice:
    """What the person chose: an engine action, or passing on a claim (``action`` None)."""

    action: Action | None

    @property
    def passes(self) -> bool:
        """Whether this is 过 (pass) on a discard or an added kong."""
        return self.action is None


class Person:
    """The person's policy: it answers once with the choice it was given, then waits (raises Waiting)."""

    def __init__(self, choice: Choice | None = None) -> None:
        self.choice = choice

    def _answer(self, view: SeatView) -> Action | None:
        if self.choice is None:
            raise Waiting(view.seat, view.options)
        choice, self.choice = self.choice, None
        return choice.action

    def act(self, view: SeatView) -> Action:
        """The person's own-turn action (never a pass)."""
        action = self._answer(view)
        assert action is not None
        return action

    def claim(self, view: SeatView) -> Action | None:
        """The person's claim, or None for 过."""
        return self._answer(view)


def bot_policies(level: str, person: Policy, seat: int = PERSON) -> list[Policy]:
    """The three seats' policies: the person at ``seat``, a bot of ``level`` elsewhere."""
    bot = policy_factory(level)()
    return [person if s == seat else bot for s in range(3)]


def replayed(record: dict[str, Any], seed: int | None = None) -> Replay:
    """A stored record played through the table; with ``seed`` its states know the wall (play goes on from the last), else not (review)."""
    rec = Record.from_json(record)
    return rec.replay(seeded_deal(seed, rec.header.dealer).wall if seed is not None else None)


def play_on(done: Replay, level: str, choice: Choice | None, seat: int = PERSON) -> tuple[Replay, bool]:
    """Apply the person's choice (if any) to a replayed hand (its states knowing the wall), then let the bots play until the person must choose again or the hand is over.

    The replay of the longer record, and whether the hand is over.
    """
    trail: list[Table] = []
    _state, actions, over = advance(done.final, bot_policies(level, Person(choice), seat), trail)
    return finish(done.record.append(*actions), done.states + tuple(trail)), over


def bot_plays_on(done: Replay, level: str, stand_in: str, seat: int = PERSON) -> Replay:
    """Let the bot ``stand_in`` play the person's seat and bots of ``level`` the others, from a replayed hand (its states knowing the wall) to its end."""
    trail: list[Table] = []
    _state, actions, _over = advance(done.final, bot_policies(level, policy_factory(stand_in)(), seat), trail)
    return finish(done.record.append(*actions), done.states + tuple(trail))


def check_choice(state: Table, choice: Choice, seat: int = PERSON) -> bool:
    """Whether ``choice`` is one of the person's choices now."""
    return not state.is_over and decision_for(state, seat).allows(choice.action)

"""The person's seat at an engine table: rebuilding a hand from its seed and record, and what the person may do.

Pure Python over the engine (no Django): the services store and lock, this module plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kwx.bots.tournament import BOTS
from kwx.table.record import Header, parse_action, parse_header
from kwx.table.selfplay import Policy, Waiting, advance, seeded_deal
from kwx.table.table import Action, Table, apply, deal, legal_actions

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

    def _answer(self, seat: int, options: tuple[Action, ...]) -> Action | None:
        if self.choice is None:
            raise Waiting(seat, options)
        choice, self.choice = self.choice, None
        return choice.action

    def act(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action:
        """The person's own-turn action (never a pass)."""
        action = self._answer(seat, options)
        assert action is not None
        return action

    def claim(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action | None:
        """The person's claim, or None for 过."""
        return self._answer(seat, options)


def bot_policies(level: str, person: Policy, seat: int = PERSON) -> list[Policy]:
    """The three seats' policies: the person at ``seat``, a bot of ``level`` elsewhere."""
    bot = BOTS[level]()
    return [person if s == seat else bot for s in range(3)]


def rebuild(record: dict[str, Any], seed: int | None) -> tuple[Header, Table]:
    """The header and the table a record has reached; with ``seed`` the table knows its wall (play), else not (review)."""
    header, raw = parse_header(record)
    wall = seeded_deal(seed, header.dealer).wall if seed is not None else None
    state = deal(header.hands, header.dealer, header.rule_set, wall)
    for index, item in enumerate(raw):
        state = apply(state, parse_action(item, index))
    return header, state


def states(record: dict[str, Any]) -> tuple[Header, list[Table], tuple[Action, ...]]:
    """Every table state of a record, from the deal (index 0) to after its last action, and its actions."""
    header, raw = parse_header(record)
    state = deal(header.hands, header.dealer, header.rule_set)
    out = [state]
    actions = []
    for index, item in enumerate(raw):
        action = parse_action(item, index)
        state = apply(state, action)
        out.append(state)
        actions.append(action)
    return header, out, tuple(actions)


def options_for(state: Table, seat: int = PERSON) -> tuple[Action, ...]:
    """What ``seat`` may do now (win, kong, pong, discard; never a draw); empty when it is not its decision."""
    if state.is_over:
        return ()
    if state.phase in ("act", "pong"):
        if state.turn != seat:
            return ()
    elif state.phase not in ("claim", "rob"):
        return ()
    return tuple(a for a in legal_actions(state) if a.seat == seat and a.verb != "draw")


def may_pass(state: Table) -> bool:
    """Whether a decision in this state may be 过 (a claim on another seat's tile)."""
    return state.phase in ("claim", "rob")


def play_on(state: Table, level: str, choice: Choice | None, seat: int = PERSON) -> tuple[Table, tuple[Action, ...], bool]:
    """Apply the person's choice (if any), then let the bots play until the person must choose again or the hand is over."""
    return advance(state, bot_policies(level, Person(choice), seat))


def check_choice(state: Table, choice: Choice, seat: int = PERSON) -> bool:
    """Whether ``choice`` is one of the person's options now."""
    options = options_for(state, seat)
    if choice.action is None:
        return bool(options) and may_pass(state)
    return choice.action in options


def play_through(policies: Sequence[Policy], state: Table) -> Table:
    """Play a state to the end of the hand with bots in every seat."""
    final, _actions, _over = advance(state, policies)
    return final

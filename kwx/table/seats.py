"""The person's seat at an engine table: a stored hand's replay, and what the person may do.

Pure Python over the engine: the site's services store and lock, this module plays. The bots come in as a policy (the caller
names them, ``kwx.bots.registry``), so the table stays below the bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kwx.hand.shapes import shanten
from kwx.hand.tiles import NUM_KINDS
from kwx.table.record import Record, Replay, finish
from kwx.table.seat_record import SeatRecord, is_one_seat
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


@dataclass(frozen=True, slots=True)
class Auto:
    """The person's switches: ``win`` takes every win offered (自动胡); ``passes`` passes every claim that offers no win
    and no kong, only pongs that would not bring the hand nearer to ready (自动过)."""

    win: bool = False
    passes: bool = False


def pong_helps(view: SeatView, kind: int) -> bool:
    """Whether ponging ``kind`` lowers the shanten: the best discard after the pong against the 13 tiles now."""
    hand = view.hand
    now = shanten(hand.concealed, len(hand.melds))
    after = hand.after_pong(kind)
    melds = len(after.melds)
    best = min(shanten(after.with_tile(k, -1).concealed, melds) for k in range(NUM_KINDS) if after.concealed[k])
    return best < now


def auto_choice(view: SeatView, auto: Auto) -> Choice | None:
    """What the switches answer for the person at this decision, or None when the person chooses.

    自动胡: a win offered (self-draw, a discard or a robbed kong) is taken. 自动过: a claim whose only
    choices are pongs that do not lower the shanten (and 过) is passed; a win or a kong is never passed.
    """
    options = view.options
    if auto.win:
        win = next((a for a in options if a.verb == "win"), None)
        if win is not None:
            return Choice(win)
    if auto.passes and view.decision.may_pass and options and all(a.verb == "pong" and not pong_helps(view, a.kind) for a in options):
        return Choice(None)
    return None


class Person:
    """The person's policy: the choice it was given once, then what the switches answer, else it waits.

    The switches are ``auto``; waiting raises Waiting."""

    def __init__(self, choice: Choice | None = None, auto: Auto | None = None) -> None:
        self.choice = choice
        self.auto = auto or Auto()

    def _answer(self, view: SeatView) -> Action | None:
        if self.choice is None:
            switched = auto_choice(view, self.auto)
            if switched is not None:
                return switched.action
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


def bot_policies(bot: Policy, person: Policy, seat: int = PERSON) -> list[Policy]:
    """The three seats' policies: the person at ``seat``, ``bot`` elsewhere."""
    return [person if s == seat else bot for s in range(3)]


def read_record(data: Any) -> Record | SeatRecord:
    """A stored record's JSON read: a whole hand, or one seat's view (a hand entered from a real table; raises RecordError)."""
    return SeatRecord.from_json(data) if is_one_seat(data) else Record.from_json(data)


def replayed(record: Record | SeatRecord, seed: int | None = None) -> Replay:
    """A record played through the table; with ``seed`` its states know the wall.

    Play goes on from the last state of a replay with the wall; a review needs none.

    One seat's view replays on its stand-in worlds (``kwx.table.seat_record``)."""
    if isinstance(record, SeatRecord):
        return record.replay()
    return record.replay(seeded_deal(seed, record.header.dealer).wall if seed is not None else None)


def play_on(done: Replay, bot: Policy, choice: Choice | None, seat: int = PERSON, auto: Auto | None = None) -> tuple[Replay, bool]:
    """Apply the person's choice (if any), then let ``bot`` play the other seats until the person must choose or the hand ends.

    ``done`` is a replayed hand whose states know the wall.

    ``auto``: the person's switches answer the decisions they cover on the way. The replay of the longer record, and whether the hand is over.
    """
    trail: list[Table] = []
    _state, actions, over = advance(done.final, bot_policies(bot, Person(choice, auto), seat), trail)
    return finish(done.record.append(*actions), done.states + tuple(trail)), over


def bot_plays_on(done: Replay, bot: Policy, stand_in: Policy, seat: int = PERSON) -> Replay:
    """Let ``stand_in`` play the person's seat and ``bot`` the others to the hand's end.

    ``done`` is a replayed hand whose states know the wall."""
    trail: list[Table] = []
    _state, actions, _over = advance(done.final, bot_policies(bot, stand_in, seat), trail)
    return finish(done.record.append(*actions), done.states + tuple(trail))


def check_choice(state: Table, choice: Choice, seat: int = PERSON) -> bool:
    """Whether ``choice`` is one of the person's choices now."""
    return not state.is_over and decision_for(state, seat).allows(choice.action)

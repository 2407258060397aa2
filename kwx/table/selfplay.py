"""Whole hands played by policies (bots) on seeded walls, written as ``kwx-hand/1`` records.

A :class:`Policy` answers two questions for its seat, each asked with the seat's
:class:`~kwx.table.view.SeatView` (what the seat may know, and its ``decision``): what to do
on its own turn (``act``: win, kong or discard, one of ``view.options``) and whether to claim
a discard or a kong being added (``claim``: one of ``view.options``, or None to pass). The
runner asks them, resolves the claims (a win beats a pong or kong; two wins on one discard
are 一炮双响) and applies every action through ``table.apply``, so a bot can only do what the
rules allow, and it sees only what a view holds: it is blind to hidden tiles by construction.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, counts_of
from kwx.rules import PRESETS, OptionValue, record_options, resolve
from kwx.table.record import DEFAULT_PLAYERS, Header, Record, Replay, finish
from kwx.table.table import WALL_AFTER_DEAL, Action, Table, apply, forced_kong, horses_pending, legal_actions
from kwx.table.view import SeatView, view_for


@runtime_checkable
class Policy(Protocol):
    """A bot (docs/bots.md): its own-turn choice and its claim choice, each from its seat's view only."""

    def act(self, view: SeatView) -> Action:
        """One of ``view.options`` (win, kong or discard) on the seat's own turn."""
        ...

    def claim(self, view: SeatView) -> Action | None:
        """One of ``view.options`` (win, pong or kong) on another seat's tile, or None to pass."""
        ...


def shuffled_wall(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Three dealt hands of 13 and the 45 tiles left to draw, from a shuffled set of 84."""
    tiles = [k for k in range(NUM_KINDS) for _ in range(COPIES)]
    rng.shuffle(tiles)
    return tuple(tiles[0:13]), tuple(tiles[13:26]), tuple(tiles[26:39]), tuple(tiles[39:])


@dataclass(frozen=True, slots=True)
class Deal:
    """One seeded deal: the three hands, the wall order, the dealer and the dice (上楼 reads them where the rules roll them)."""

    hands: tuple[Counts, Counts, Counts]
    wall: tuple[int, ...]
    dealer: int
    dice: tuple[int, int] = (1, 1)


def seeded_deal(seed: int, dealer: int = 0) -> Deal:
    """The deal a seed makes (the same seed, the same walls and dice: duplicate seating replays it)."""
    rng = random.Random(seed)
    h0, h1, h2, wall = shuffled_wall(rng)
    return Deal((counts_of(h0), counts_of(h1), counts_of(h2)), wall, dealer, (rng.randint(1, 6), rng.randint(1, 6)))


def play(
    table_deal: Deal,
    policies: Sequence[Policy],
    rules: str = "standard",
    options: tuple[tuple[str, OptionValue], ...] = (),
    base: int = 1,
    piao: tuple[int, int, int] = (0, 0, 0),
    players: tuple[str, str, str] = DEFAULT_PLAYERS,
) -> Replay:
    """Play one hand to its end with a policy per seat.

    Its record (a town's every option written), states, facts and settlement.
    """
    values = resolve(rules, dict(options))
    if not PRESETS[rules].legacy:
        options = tuple(record_options(rules, values).items())
    dice = table_deal.dice if values.shang_lou else None
    record = Record(Header(rules, options, base, piao, players, table_deal.dealer, table_deal.hands, dice))
    states = [record.start(table_deal.wall)]
    _state, actions, _ = advance(states[0], policies, states)
    return finish(record.append(*actions), tuple(states))


class IllegalChoice(ValueError):
    """A policy answered with a choice its decision does not allow (the message says the seat, the choice and the options)."""

    def __init__(self, seat: int, choice: Action | None, options: tuple[Action, ...]) -> None:
        shown = "passing" if choice is None else repr(choice.as_dict()) if isinstance(choice, Action) else repr(choice)
        super().__init__(f"seat {seat} chose {shown}, not one of {[o.as_dict() for o in options]}")
        self.seat = seat


class Waiting(Exception):
    """Raised by a policy that has no answer yet (a person at the table): the hand waits for ``seat``."""

    def __init__(self, seat: int, options: tuple[Action, ...]) -> None:
        super().__init__(f"seat {seat} to choose")
        self.seat = seat
        self.options = options


def advance(state: Table, policies: Sequence[Policy], trail: list[Table] | None = None) -> tuple[Table, tuple[Action, ...], bool]:
    """Play on from ``state`` (which needs a wall) until the hand is over or a policy raises Waiting.

    Returns the state reached, the actions taken and whether the hand is over; ``trail``, when
    given, gets the state after each action.
    """
    actions: list[Action] = []
    while True:
        if state.wins:  # the claims on one tile are applied together, so a win ends the hand (once its horses are turned)
            if horses_pending(state):
                horses = next(a for a in legal_actions(state) if a.verb == "horses")
                state = apply(state, horses)
                actions.append(horses)
                if trail is not None:
                    trail.append(state)
            return state, tuple(actions), True
        try:
            step = _next(state, policies)
        except Waiting:
            return state, tuple(actions), False
        if not step:
            return state, tuple(actions), True
        for action in step:
            state = apply(state, action)
            actions.append(action)
            if trail is not None:
                trail.append(state)


def _claimable(state: Table) -> bool:
    """Whether any other seat could claim the discard at all (a win, or two or more copies to pong)."""
    kind = state.tile
    assert kind is not None
    for seat in ((state.turn + 1) % 3, (state.turn + 2) % 3):
        s = state.seats[seat]
        if kind in s.ready_on or s.concealed[kind] >= 2:
            return True
    return False


def _next(state: Table, policies: Sequence[Policy]) -> list[Action]:
    """The next action(s): a draw, the turn's choice, or the claims on a tile (empty: the hand is over)."""
    phase = state.phase
    assert state.wall is not None, "self-play draws from a known wall"
    if phase == "draw":
        return [Action(state.turn, "draw", state.wall[state.drawn])]
    forced = forced_kong(state)
    if phase == "claim" and forced is None and not _claimable(state):
        return [Action((state.turn + 1) % 3, "draw", state.wall[state.drawn])] if state.drawn < WALL_AFTER_DEAL else []
    options = legal_actions(state)
    if forced is not None and [a for a in options if a.seat == forced.seat] == [forced] and phase == "act":
        return [forced]  # 杀马: the kong is made at once
    if phase in ("act", "pong"):
        view = view_for(state, state.turn, options)
        choice = policies[state.turn].act(view)
        if choice is None or not isinstance(choice, Action) or not view.decision.allows(choice):
            raise IllegalChoice(state.turn, choice, view.options)
        return [choice]
    wins: list[Action] = []
    call: Action | None = None
    for seat in ((state.turn + 1) % 3, (state.turn + 2) % 3):
        view = view_for(state, seat, options)
        if not view.decision.is_open or view.decision.options == (forced,):
            continue
        claim = policies[seat].claim(view)
        if claim is None:
            continue
        if not isinstance(claim, Action) or not view.decision.allows(claim):
            raise IllegalChoice(seat, claim, view.options)
        if claim.verb == "win":
            wins.append(claim)
        else:
            call = claim
    if wins:
        return wins
    if forced is not None:
        return [forced]
    if call is not None:
        return [call]
    draws = [a for a in options if a.verb == "draw"]
    return draws[:1]

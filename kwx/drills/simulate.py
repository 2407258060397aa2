"""Simulated play for the 何切 and 算番 banks: a random deal played at the table by three simple bots.

The hand is played by ``selfplay.advance`` on the one table (``kwx.table.table``), so every
rule holds: draws, pongs, kongs offered, discard wins, 漏胡. The bots (:class:`SimpleBot`) throw
a §4 best discard (now and then another that keeps the best shanten), pong every dragon pair
and other pairs at a rate while a meld slot is free and the hand is not ready, take every win
and never kong or declare 亮倒. Every 14-tile decision is analysed once with the engine's
``discard_options``; the same result chooses the bot's discard and becomes a candidate puzzle
(a :class:`Candidate`, with the deciding seat's SeatView), so no hand is analysed twice. A deal
ends with the first win (a :class:`Win`: a complete hand and how it was won, the raw material
of the 算番 quiz) or an empty wall.

The deal and every random choice come from one generator, so a bank rebuilds from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from kwx.hand.efficiency import DiscardOption, best_discards, discard_options
from kwx.hand.rules import Rules
from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, Hand, counts_of, is_dragon
from kwx.table.selfplay import Waiting, advance
from kwx.table.table import Action, deal
from kwx.table.view import SeatView

PLAYERS = 3
HAND_SIZE = 13
MAX_MELDS_FOR_PONG = 3
"""A simple bot keeps one meld slot free: it pongs only with fewer melds than this."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A seat's 14-tile decision met in simulated play.

    Its view, the tiles seen elsewhere, the discards it made so far, and the engine's options.
    """

    view: SeatView
    turn: int
    options: tuple[DiscardOption, ...]

    @property
    def hand(self) -> Hand:
        """The seat's 14 tiles (concealed and melds)."""
        return self.view.hand

    @property
    def visible(self) -> Counts:
        """Every tile the seat has seen outside its hand: the rivers and the others' melds."""
        return self.view.visible

    @property
    def rules(self) -> Rules:
        """The preset the deal is played under."""
        return self.view.rules

    @property
    def wall_left(self) -> int:
        """Tiles left to draw."""
        return self.view.wall_left

    @property
    def offers_kong(self) -> bool:
        """Whether the decision also offers a kong (暗杠 of four held, 蓄杠 of the tile drawn): then it is no plain 何切."""
        return any(a.verb == "kong" for a in self.view.options)


@dataclass(frozen=True, slots=True)
class Win:
    """A finished hand: 13 tiles (with melds), the winning tile and how it was won."""

    hand: Hand
    win: int
    side: str
    wall_left: int
    rules: Rules


def choose_discard(options: tuple[DiscardOption, ...], rng: random.Random, explore: float) -> DiscardOption:
    """A best discard, or with probability ``explore`` another discard that keeps the best shanten."""
    best = set(best_discards(options))
    if rng.random() < explore:
        pool = [o for o in options if o.result.shanten == options[0].result.shanten]
    else:
        pool = [o for o in options if o.discard in best]
    return rng.choice(pool)


def wants_pong(view: SeatView, kind: int, rng: random.Random, pong_rate: float) -> bool:
    """Pong every dragon pair and other pairs at ``pong_rate``, keeping one meld slot free, never when ready."""
    if view.concealed[kind] != 2 or len(view.me.melds) >= MAX_MELDS_FOR_PONG or view.ready_on:
        return False
    return is_dragon(kind) or rng.random() < pong_rate


class SimpleBot:
    """The simulation's bot (see the module docstring).

    At each 14-tile decision it first stops the hand (raises Waiting) with the decision as a
    Candidate in ``pending``; asked again, it throws its discard. So the candidate reaches
    whoever runs the deal before the bot draws its own random numbers, as the deal's tiles
    and choices have always been drawn from one generator.
    """

    def __init__(self, rng: random.Random, explore: float, pong_rate: float) -> None:
        self.rng, self.explore, self.pong_rate = rng, explore, pong_rate
        self.turn = 0
        self.pending: Candidate | None = None
        self.answered: Candidate | None = None

    def act(self, view: SeatView) -> Action:
        """Win when the tile drawn completes the hand; else stop with the decision, then throw its discard."""
        for action in view.options:
            if action.verb == "win":
                return action
        if self.answered is None:
            self.pending = Candidate(view, self.turn, discard_options(view.hand, view.visible, view.rules))
            raise Waiting(view.seat, view.options)
        options, self.answered = self.answered.options, None
        self.turn += 1
        return Action(view.seat, "discard", choose_discard(options, self.rng, self.explore).discard)

    def resume(self) -> Candidate:
        """The decision the hand stopped at; the next ``act`` answers it."""
        assert self.pending is not None
        self.answered, self.pending = self.pending, None
        return self.answered

    def claim(self, view: SeatView) -> Action | None:
        """Win on a discard when allowed; else pong as :func:`wants_pong` says (not on the wall's last tile but one)."""
        for action in view.options:
            if action.verb == "win":
                return action
        if view.wall_left > 1 and view.kind is not None and any(a.verb == "pong" for a in view.options):
            if wants_pong(view, view.kind, self.rng, self.pong_rate):
                return Action(view.seat, "pong", view.kind)
        return None


def play_deal(rng: random.Random, rules: Rules, explore: float = 0.15, pong_rate: float = 0.3) -> Iterator[Candidate | Win]:
    """Deal and play one hand, yielding every decision as it comes and, at the end, the first win if there is one."""
    tiles = [k for k in range(NUM_KINDS) for _ in range(COPIES)]
    rng.shuffle(tiles)
    hands = tuple(counts_of(tiles[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(PLAYERS))
    wall = tuple(tiles[PLAYERS * HAND_SIZE :])
    dealer = rng.randrange(PLAYERS)
    bot = SimpleBot(rng, explore, pong_rate)
    state = deal((hands[0], hands[1], hands[2]), dealer, rules, wall)
    while True:
        state, _actions, over = advance(state, (bot, bot, bot))
        if over:
            break
        yield bot.resume()
    if state.wins:
        first = state.wins[0]
        yield Win(first.hand, first.kind, first.side, state.wall_left, rules)

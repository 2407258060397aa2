"""Simulated play: a random deal and three simple bots drawing, discarding and ponging.

Every 14-tile decision is analysed once with the engine's ``discard_options``; the
same result chooses the bot's discard and becomes a candidate puzzle (a ``Position``),
so no hand is analysed twice. A deal ends on a win (a ``Win``: a complete hand and
how it was won, the raw material of the 算番 quiz) or an empty wall.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from kwx.hand.efficiency import DiscardOption, best_discards, discard_options
from kwx.hand.rules import Rules
from kwx.hand.scoring import score_win
from kwx.hand.shapes import is_complete
from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, Hand, Meld, MeldType, counts_of, is_dragon

PLAYERS = 3
HAND_SIZE = 13


@dataclass(frozen=True, slots=True)
class Position:
    """A player's 14-tile decision: hand and melds, tiles seen elsewhere, and the engine's options."""

    hand: Hand
    visible: Counts
    rules: Rules
    turn: int
    wall_left: int
    options: tuple[DiscardOption, ...]
    table: SeatsSeen | None = None


@dataclass(frozen=True, slots=True)
class SeatsSeen:
    """The table at a decision, as its player sees it: every seat's river in order and melds, seat 0 first.

    ``seat`` is the deciding seat, ``dealer`` the first to play, ``drawn`` the tile just drawn
    (None after a pong). The simple bots never declare 亮倒, so no hand is revealed.
    """

    seat: int
    dealer: int
    rivers: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    drawn: int | None


@dataclass(frozen=True, slots=True)
class Win:
    """A finished hand: 13 tiles (with melds), the winning tile and how it was won."""

    hand: Hand
    win: int
    side: str
    wall_left: int
    rules: Rules


@dataclass(slots=True)
class _Seat:
    concealed: list[int]
    melds: list[Meld]
    discards: list[int]
    waits: tuple[int, ...] = ()

    def hand(self) -> Hand:
        return Hand(tuple(self.concealed), tuple(self.melds))


def _visible(seats: list[_Seat], me: int) -> Counts:
    """Every discard on the table plus the other players' melds."""
    seen = [0] * NUM_KINDS
    for i, seat in enumerate(seats):
        for k in seat.discards:
            seen[k] += 1
        if i != me:
            for meld in seat.melds:
                seen[meld.kind] += meld.type.size
    return tuple(seen)


def choose_discard(options: tuple[DiscardOption, ...], rng: random.Random, explore: float) -> DiscardOption:
    """A best discard, or with probability ``explore`` another discard that keeps the best shanten."""
    best = set(best_discards(options))
    if rng.random() < explore:
        pool = [o for o in options if o.result.shanten == options[0].result.shanten]
    else:
        pool = [o for o in options if o.discard in best]
    return rng.choice(pool)


def wants_pong(seat: _Seat, kind: int, rng: random.Random, pong_rate: float) -> bool:
    """Bots pong every dragon pair and other pairs at ``pong_rate``, keeping one meld slot free."""
    if seat.concealed[kind] != 2 or len(seat.melds) >= 3 or seat.waits:
        return False
    return is_dragon(kind) or rng.random() < pong_rate


def play_deal(rng: random.Random, rules: Rules, explore: float = 0.15, pong_rate: float = 0.3) -> Iterator[Position | Win]:
    """Deal and play one hand, yielding every decision and, at the end, the win if there is one."""
    wall = [k for k in range(NUM_KINDS) for _ in range(COPIES)]
    rng.shuffle(wall)
    seats = [_Seat(list(counts_of(wall[i * HAND_SIZE : (i + 1) * HAND_SIZE])), [], []) for i in range(PLAYERS)]
    wall = wall[PLAYERS * HAND_SIZE :]
    current = rng.randrange(PLAYERS)
    dealer = current
    drawn: int | None = wall.pop()
    seats[current].concealed[drawn] += 1
    turn = 0
    while True:
        seat = seats[current]
        hand = seat.hand()
        if drawn is not None and is_complete(hand.concealed, len(hand.melds)):
            yield Win(hand.with_tile(drawn, -1), drawn, "self_draw", len(wall), rules)
            return
        options = discard_options(hand, _visible(seats, current), rules)
        seen = SeatsSeen(current, dealer, tuple(tuple(x.discards) for x in seats), tuple(tuple(x.melds) for x in seats), drawn)
        yield Position(hand, _visible(seats, current), rules, turn, len(wall), options, seen)
        chosen = choose_discard(options, rng, explore)
        tile = chosen.discard
        seat.concealed[tile] -= 1
        seat.discards.append(tile)
        seat.waits = tuple(w.kind for w in chosen.result.waits) if chosen.result.shanten == 0 else ()
        turn += 1
        others = [(current + step) % PLAYERS for step in (1, 2)]
        for other in others:
            if tile in seats[other].waits:
                values = score_win(seats[other].hand(), tile, rules)
                if values is not None and values[1].allowed:
                    yield Win(seats[other].hand(), tile, "discard", len(wall), rules)
                    return
        if not wall:
            return
        ponger = next((o for o in others if wants_pong(seats[o], tile, rng, pong_rate)), None)
        if ponger is not None and len(wall) > 1:
            seat.discards.pop()
            taker = seats[ponger]
            taker.concealed[tile] -= 2
            taker.melds.append(Meld(MeldType.PONG, tile))
            current, drawn = ponger, None
            continue
        current = (current + 1) % PLAYERS
        drawn = wall.pop()
        seats[current].concealed[drawn] += 1

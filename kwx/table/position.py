"""A position at the table as a player describes it, checked and turned into the player's SeatView.

The player is seat 0; seat 1 is the next seat (下家) and seat 2 the one before (上家). A
position gives the player's hand (13 tiles between turns, or 14 on their own turn), the
player's own river, each opponent's river in order (discards nobody claimed), melds and,
after 亮倒, the revealed tiles, the tiles left in the wall, and — with a 13-tile hand — the
tile an opponent has just discarded or is adding to a pong, which the player may claim.

Everything else a view holds follows: an opponent holds 13 tiles between turns (three
fewer per meld), the tiles drawn are 45 − wall left, and the four copies of each kind are
all somewhere — so the wall count must be exactly what the other tiles leave.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from kwx.errors import EngineError, gettext_noop
from kwx.hand.rules import Rules
from kwx.hand.tiles import COPIES, NUM_KINDS, TILE_IDS, TILE_NAMES_ZH, Counts, Hand, Meld, add, with_tile
from kwx.table.table import WALL_AFTER_DEAL, Phase, SeatState, Table
from kwx.table.view import SeatView, view_for

OPPONENT_SEATS = (1, 2)


@dataclass(frozen=True, slots=True)
class Opponent:
    """What the table shows of one opponent: its river, melds and, after 亮倒, its concealed tiles."""

    river: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()
    revealed: Counts | None = None


@dataclass(frozen=True, slots=True)
class Position:
    """The player's hand and river, both opponents, the wall count and an offered tile.

    ``offered`` is (opponent seat, kind) of a tile the player may claim: the opponent's last
    discard (``offered_as="discard"``) or the tile it adds to its pong (``"kong"``, 蓄杠 to rob).
    ``drawn`` is the tile just drawn, on the player's own turn (for 自摸 and 蓄杠).
    """

    hand: Hand
    river: tuple[int, ...]
    opponents: tuple[Opponent, Opponent]
    wall_left: int
    offered: tuple[int, int] | None = None
    offered_as: Literal["discard", "kong"] = "discard"
    drawn: int | None = None


def _error(template: str, field: str, **params: object) -> EngineError:
    return EngineError(template, field, **params)


def _seen(position: Position) -> tuple[list[int], dict[int, str]]:
    """Every kind's count on the table, and for each kind seen more than four times the field whose tiles first took it past four."""
    counts = list(position.hand.held)
    over: dict[int, str] = {}

    def check(field: str) -> None:
        for kind, n in enumerate(counts):
            if n > COPIES:
                over.setdefault(kind, field)

    check("hand")
    for kind in position.river:
        counts[kind] += 1
    check("river")
    for opp in position.opponents:
        for kind in opp.river:
            counts[kind] += 1
        for meld in opp.melds:
            counts[meld.kind] += meld.type.size
        if opp.revealed is not None:
            counts = list(add(tuple(counts), opp.revealed))
    check("opponents")
    return counts, over


def view_of(position: Position, rules: Rules) -> SeatView:
    """The player's (seat 0's) view of a described position, with its decision (raises EngineError naming what does not fit)."""
    return view_for(_table_of(position, rules), 0)


def _table_of(position: Position, rules: Rules) -> Table:
    """A table that shows the player what the position says; the hidden hands are stand-ins (the advice deals them anew)."""
    hand = position.hand
    tiles = hand.tile_count
    if tiles not in (13, 14):
        raise _error(gettext_noop("The hand has %(count)d tiles (each meld counts 3): give 13, or 14 on your own turn."), "hand", count=tiles)
    if tiles == 14 and position.offered is not None:
        raise _error(gettext_noop("A tile to claim goes with a 13-tile hand; with 14 tiles it is your turn to discard."), "offered")
    if tiles == 13 and position.offered is None:
        raise _error(gettext_noop("With 13 tiles, say which tile is offered to you (an opponent's discard or added kong)."), "offered")
    seen, over = _seen(position)
    if over:
        kind = min(over)
        raise _error(
            gettext_noop("%(tile)s (%(name)s) is seen %(count)d times between the hands, rivers and melds; there are only 4."),
            over[kind],
            tile=TILE_IDS[kind],
            name=TILE_NAMES_ZH[kind],
            count=seen[kind],
        )
    hidden = 0
    for number, opp in enumerate(position.opponents, start=1):
        size = 13 - 3 * len(opp.melds)
        if size < 1:
            raise _error(gettext_noop("Opponent %(number)d has more than four melds."), "opponents", number=number)
        if opp.revealed is not None and sum(opp.revealed) != size:
            raise _error(
                gettext_noop("Opponent %(number)d's revealed hand has %(count)d tiles; with %(melds)d melds it holds %(size)d."),
                "opponents",
                number=number,
                count=sum(opp.revealed),
                melds=len(opp.melds),
                size=size,
            )
        if opp.revealed is None:
            hidden += size
    adding = position.offered is not None and position.offered_as == "kong"
    expected = 4 * NUM_KINDS - sum(seen) - hidden - adding  # a tile being added to a pong is in no river
    if position.wall_left != expected:
        raise _error(
            gettext_noop("With these tiles on the table the wall must hold %(expected)d tiles, not %(count)d."),
            "wall_left",
            expected=expected,
            count=position.wall_left,
        )
    if not 0 <= expected <= WALL_AFTER_DEAL:
        raise _error(gettext_noop("The tiles given leave %(expected)d in the wall, outside 0–45."), "wall_left", expected=expected)
    seats: list[SeatState] = [SeatState(hand.concealed, hand.melds, position.river, ready_on=hand.winning_kinds() if tiles == 13 else frozenset())]
    for opp in position.opponents:
        concealed = opp.revealed if opp.revealed is not None else _placeholder(13 - 3 * len(opp.melds))
        waits = Hand(concealed, opp.melds).winning_kinds() if opp.revealed is not None else frozenset()
        seats.append(SeatState(concealed, opp.melds, opp.river, liang_dao=opp.revealed is not None, waits=waits, ready_on=waits))

    def table(phase: Phase, turn: int, tile: int | None) -> Table:
        return Table(
            rules,
            0,
            (seats[0], seats[1], seats[2]),
            phase,
            turn,
            tile,
            drawn=WALL_AFTER_DEAL - expected,
            dealt=tuple(min(n, COPIES) for n in seen),
        )

    if position.offered is None:
        if position.drawn is not None and not hand.concealed[position.drawn]:
            raise _error(gettext_noop("The drawn tile %(tile)s is not in the hand."), "drawn", tile=TILE_IDS[position.drawn])
        return table("act", 0, position.drawn)
    by, kind = position.offered
    if by not in OPPONENT_SEATS:
        raise _error(gettext_noop("The offered tile comes from opponent 1 (下家) or 2 (上家)."), "offered")
    offerer = seats[by]
    if position.offered_as == "discard":
        if not offerer.river or offerer.river[-1] != kind:
            raise _error(gettext_noop("The offered discard %(tile)s must be the last tile of that opponent's river."), "offered", tile=TILE_IDS[kind])
        return table("claim", by, kind)
    if not offerer.hand.pong_of(kind):
        raise _error(gettext_noop("A tile added to a pong (蓄杠) needs that opponent's pong of %(tile)s."), "offered", tile=TILE_IDS[kind])
    seats[by] = replace(offerer, concealed=with_tile(offerer.concealed, kind))
    return table("rob", by, kind)


def _placeholder(size: int) -> Counts:
    """Stand-in concealed tiles of the right number (the advice deals the real ones from the unseen)."""
    counts = [0] * NUM_KINDS
    for i in range(size):
        counts[i % NUM_KINDS] += 1
    return tuple(counts)

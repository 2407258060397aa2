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
from kwx.hand.rules import Rules, make_rules
from kwx.hand.tiles import COPIES, NUM_KINDS, TILE_IDS, TILE_NAMES_ZH, Counts, Hand, Meld, with_tile
from kwx.table.table import WALL_AFTER_DEAL, Phase, SeatState, Table
from kwx.table.view import PublicSeat, SeatView, view_for

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

    def view(self, rules: Rules) -> SeatView:
        """The player's (seat 0's) view of the position, with its decision (raises EngineError naming what does not fit)."""
        return view_for(_table_of(self, rules), 0)

    @property
    def shown(self) -> Counts:
        """Copies of each kind the position shows, a tile added to a pong among them (unchecked: may pass four)."""
        shown = _sketch(self).shown
        return with_tile(shown, self.offered[1]) if self.offered is not None and self.offered_as == "kong" else shown

    @property
    def left_in_wall(self) -> int:
        """The tiles the position leaves in the wall: the copies not shown, less the hidden hands."""
        hidden = sum(seat.tiles for seat in _sketch(self).seats[1:] if not seat.liang_dao)
        return COPIES * NUM_KINDS - sum(self.shown) - hidden


def _error(template: str, field: str, **params: object) -> EngineError:
    return EngineError(template, field, **params)


_STAND_IN = make_rules("standard")
"""The rules of a sketch: what the table shows does not depend on them."""
_NOBODY = PublicSeat(tiles=0)
"""A seat that shows nothing: the player's own side of a sketch is counted against two of them."""


def _sketch(position: Position) -> SeatView:
    """Seat 0's view of the table as described, unchecked and undecided, before the offered tile is in play (nothing drawn)."""
    seats = [PublicSeat(position.river, position.hand.melds, sum(position.hand.concealed))]
    seats += [PublicSeat(opp.river, opp.melds, 13 - 3 * len(opp.melds), opp.revealed is not None, opp.revealed) for opp in position.opponents]
    return SeatView(seat=0, rules=_STAND_IN, dealer=0, phase="act", turn=0, kind=None, drawn=0, seats=(seats[0], seats[1], seats[2]), concealed=position.hand.concealed)


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
    sketch = _sketch(position)
    seen = sketch.shown
    over = [kind for kind, n in enumerate(seen) if n > COPIES]
    if over:
        kind = over[0]
        own = replace(sketch, seats=(sketch.seats[0], _NOBODY, _NOBODY)).shown
        field = next(name for name, counts in (("hand", hand.held), ("river", own), ("opponents", seen)) if counts[kind] > COPIES)
        raise _error(
            gettext_noop("%(tile)s (%(name)s) is seen %(count)d times between the hands, rivers and melds; there are only 4."),
            field,
            tile=TILE_IDS[kind],
            name=TILE_NAMES_ZH[kind],
            count=seen[kind],
        )
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
    expected = position.left_in_wall
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
            dealt=sketch.seen,
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

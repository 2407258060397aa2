"""The table as every page draws it (``templates/partials/table.html``), built from one seat's SeatView.

The play page, the review (复盘), every drill and the analyzer's table show the table through
:func:`table_shown`: both opponents (rivers in order, the latest discard marked, melds, 亮倒
hands with their waits and the copies of each still live, how many tiles they hide), the wall count, whose turn it is, the tile
on offer and who offers it, and the seat's own river, melds and hand with the drawn tile apart.
Seat names are from the viewer's chair (你 / 下家 / 上家), the one set of names of the site.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kwx.hand.tiles import COPIES, TILE_IDS, Counts, kinds_of
from kwx.table.view import SeatView
from kwx_site.drawing import BACK, meld_faces

SEAT_NAMES = (gettext_noop("You"), gettext_noop("下家 (right)"), gettext_noop("上家 (left)"))
"""The seats from the viewer's chair: itself, the next seat (下家, who plays after it), the seat before (上家)."""


def seat_name(seat: int, me: int) -> str:
    """你 / 下家 / 上家 in the active language, from ``me``'s chair."""
    return _(SEAT_NAMES[(seat - me) % 3])


def _tiles(counts: Counts) -> tuple[str, ...]:
    return tuple(TILE_IDS[k] for k in kinds_of(counts))


@dataclass(frozen=True, slots=True)
class WaitShown:
    """A winning tile of a 亮倒 hand and the copies of it the viewer has not seen (0: 空听, it can never come)."""

    tile: str
    left: int


@dataclass(frozen=True, slots=True)
class SeatShown:
    """One seat as ``partials/seat.html`` draws it.

    ``tiles`` are the concealed tiles shown (the viewer's own without the drawn one, a 亮倒 hand,
    or every hand once the hand is over), ``hidden`` how many are face down; ``last`` marks the
    river's last tile as the latest discard of the table; ``waits`` are a 亮倒 hand's winning tiles, each with
    the copies the viewer has not seen. ``face_down`` are the triplets a 亮倒 hand keeps face down (半亮, 扣牌):
    three backs each, beside its revealed tiles.
    """

    seat: int
    name: str
    me: bool
    dealer: bool
    turn: bool
    tiles: tuple[str, ...]
    hidden: int
    drawn: str | None
    melds: tuple[tuple[str, ...], ...]
    river: tuple[str, ...]
    last: bool
    liang_dao: bool
    waits: tuple[WaitShown, ...]
    won: bool
    score: int | None
    face_down: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class TableShown:
    """The whole table from one chair: the three seats, the wall, whose turn, the tile on offer."""

    me: SeatShown
    right: SeatShown
    left: SeatShown
    wall_left: int
    turn_name: str
    """Whose move it is (empty while the others may claim the tile on offer)."""
    over: bool
    offered: str | None
    offered_by: str
    offered_as: str
    """``discard`` (a discard to claim) or ``kong`` (a tile added to a pong, to rob)."""

    @property
    def seats(self) -> tuple[SeatShown, SeatShown, SeatShown]:
        """Left, right, then the viewer: the order the partial draws them."""
        return self.left, self.right, self.me


def table_shown(
    view: SeatView,
    *,
    over: bool = False,
    scores: list[int] | tuple[int, ...] | None = None,
    last_discard: int | None = None,
    show_dealer: bool = True,
) -> TableShown:
    """The table ``view`` shows, ready to draw.

    ``over``: the hand has ended (no turn marker; a view made with ``open_hands`` shows every
    hand). ``scores``: the seats' running scores. ``last_discard``: the seat whose river ends
    with the table's latest discard (default: the discarder whose tile is on offer).
    ``show_dealer``: False where the position names no dealer (the analyzer's table).
    """
    me = view.seat
    if last_discard is None and view.phase == "claim":
        last_discard = view.turn
    won = {w.seat for w in view.wins}
    drawn = view.drawn_tile if not over else None
    shown = []
    for seat in range(3):
        s = view.seats[seat]
        if seat == me:
            own = list(view.concealed)
            if drawn is not None:
                own[drawn] -= 1
            tiles, hidden = _tiles(tuple(own)), 0
        elif s.revealed is not None:
            tiles, hidden = _tiles(s.revealed), 0
        else:
            tiles, hidden = (), s.tiles
        shown.append(
            SeatShown(
                seat=seat,
                name=seat_name(seat, me),
                me=seat == me,
                dealer=show_dealer and view.dealer == seat,
                turn=view.turn == seat and not over,
                tiles=tiles,
                hidden=hidden,
                drawn=TILE_IDS[drawn] if seat == me and drawn is not None else None,
                melds=tuple(meld_faces(m.type, m.tile) for m in s.melds),
                river=tuple(TILE_IDS[k] for k in s.river),
                last=last_discard == seat and bool(s.river),
                liang_dao=s.liang_dao,
                waits=tuple(WaitShown(TILE_IDS[k], COPIES - view.seen[k]) for k in sorted(s.waits)) if s.liang_dao else (),
                won=seat in won,
                score=scores[seat] if scores is not None else None,
                face_down=((BACK,) * 3,) * s.kou if seat != me and s.revealed is not None else (),
            )
        )
    offered = view.offered
    return TableShown(
        me=shown[me],
        right=shown[(me + 1) % 3],
        left=shown[(me + 2) % 3],
        wall_left=view.wall_left,
        turn_name=seat_name(view.turn, me) if not over and view.phase in ("draw", "act", "pong") else "",
        over=over,
        offered=TILE_IDS[offered[1]] if offered is not None and not over else None,
        offered_by=seat_name(offered[0], me) if offered is not None else "",
        offered_as="kong" if view.phase == "rob" else "discard",
    )

"""The basic bot: today's efficiency play (kwx-rules §4) at a table.

It wins whenever it may, kongs when the kong does not set its hand back, pongs when the
pong lowers its shanten, never declares 亮倒, and otherwise throws the §4 best discard
(lowest shanten, then value when ready, then effective tiles; the lowest kind on a tie).
It ignores the opponents: no defence, no reading of rivers.
"""

from __future__ import annotations

from kwx.hand.efficiency import discard_options
from kwx.hand.shapes import shanten
from kwx.hand.tiles import Hand, Meld, MeldType, with_tile
from kwx.table.selfplay import visible_to
from kwx.table.table import Action, Table


def best_discard(state: Table, seat: int, hand: Hand, allowed: set[int]) -> tuple[int, int]:
    """The §4 best discard of a 14-tile hand among ``allowed`` kinds, and the shanten it leaves."""
    options = discard_options(hand, visible_to(state, seat), state.rules)
    for option in options:
        if option.discard in allowed:
            return option.discard, option.result.shanten
    raise ValueError("no allowed discard")


def after_pong(hand: Hand, kind: int) -> Hand:
    """The hand after ponging ``kind`` (two concealed copies become the meld), before its discard."""
    return Hand(with_tile(hand.concealed, kind, -2), hand.melds + (Meld(MeldType.PONG, kind),))


class BasicBot:
    """Efficiency only: win, kong if free, pong if it helps, best §4 discard."""

    name = "basic"

    def act(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action:
        """Win if possible; else kong when it costs no shanten; else the best discard."""
        for action in options:
            if action.verb == "win":
                return action
        discards = {a.kind for a in options if a.verb == "discard" and not a.liang_dao}
        hand = state.seats[seat].hand
        kind, after = best_discard(state, seat, hand, discards)
        for action in options:
            if action.verb == "kong":
                s = state.seats[seat]
                concealed = list(s.concealed)
                concealed[action.kind] = 0 if s.concealed[action.kind] == 4 else concealed[action.kind] - 1
                if shanten(tuple(concealed), len(s.melds) + (s.concealed[action.kind] == 4)) <= after:
                    return action
        return Action(seat, "discard", kind)

    def claim(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action | None:
        """Win if possible; 直杠 when it costs no shanten; pong when it lowers the shanten."""
        s = state.seats[seat]
        now = shanten(s.concealed, len(s.melds))
        for action in options:
            if action.verb == "win":
                return action
        for action in options:
            if action.verb == "kong" and shanten(with_tile(s.concealed, action.kind, -3), len(s.melds) + 1) <= now:
                return action
            if action.verb == "pong":
                hand = after_pong(s.hand, action.kind)
                _, after = best_discard(state, seat, hand, {k for k in range(21) if hand.concealed[k]})
                if after < now:
                    return action
        return None

"""The basic bot: today's efficiency play (kwx-rules §4) at a table.

It wins whenever it may, kongs when the kong does not set its hand back, pongs when the
pong lowers its shanten, never declares 亮倒, and otherwise throws the §4 best discard
(lowest shanten, then value when ready, then effective tiles; the lowest kind on a tie).
It ignores the opponents: no defence, no reading of rivers.
"""

from __future__ import annotations

from kwx.hand.efficiency import discard_options
from kwx.hand.shapes import shanten
from kwx.hand.tiles import NUM_KINDS, Hand
from kwx.table.table import Action
from kwx.table.view import SeatView


def best_discard(view: SeatView, hand: Hand, allowed: set[int]) -> tuple[int, int]:
    """The §4 best discard of a 14-tile hand among ``allowed`` kinds, and the shanten it leaves.

    What the seat has seen is counted.
    """
    options = discard_options(hand, view.visible, view.rules)
    for option in options:
        if option.discard in allowed:
            return option.discard, option.result.shanten
    raise ValueError("no allowed discard")


class BasicBot:
    """Efficiency only: win, kong if free, pong if it helps, best §4 discard."""

    name = "basic"

    def act(self, view: SeatView) -> Action:
        """Win if possible; else kong when it costs no shanten; else the best discard."""
        options = view.options
        for action in options:
            if action.verb == "win":
                return action
        discards = {a.kind for a in options if a.verb == "discard" and not a.liang_dao}
        hand = view.hand
        kind, after = best_discard(view, hand, discards)
        for action in options:
            if action.verb == "kong":
                kong = hand.after_kong(action.kind)
                if shanten(kong.concealed, len(kong.melds)) <= after:
                    return action
        return Action(view.seat, "discard", kind)

    def claim(self, view: SeatView) -> Action | None:
        """Win if possible; 直杠 when it costs no shanten; pong when it lowers the shanten."""
        hand = view.hand
        now = shanten(hand.concealed, len(hand.melds))
        for action in view.options:
            if action.verb == "win":
                return action
        for action in view.options:
            if action.verb == "kong":
                kong = hand.after_kong(action.kind)
                if shanten(kong.concealed, len(kong.melds)) <= now:
                    return action
            if action.verb == "pong":
                ponged = hand.after_pong(action.kind)
                _, after = best_discard(view, ponged, {k for k in range(NUM_KINDS) if ponged.concealed[k]})
                if after < now:
                    return action
        return None

"""The companion: our own bot after the public "basic companion" of kawuxing-server (docs/bots.md).

Written from the description of that bot's rules (issue 24), played under this project's
rules (kwx-rules §5, §6):

- it takes every win the table allows;
- it makes every kong the table allows (after 亮倒 the table allows only kongs that leave
  the locked waits the same);
- it pongs only when the best discard after the pong leaves a lower shanten than the hand
  has now;
- it discards by, in order: the discard leaves the hand ready, the lowest shanten, the most
  outs (for each kind whose draw lowers the shanten, 4 − the copies of it in the concealed
  hand), the most waits (winning kinds); ties go to the first kind in the order 筒, 条,
  白 发 中, the tile just drawn last when it is a kind the hand did not hold;
- it never throws a winning tile of a revealed (亮倒) hand while it holds another tile;
- after its own 亮倒 it throws the tile it drew (the only discard the table allows);
- it declares 亮倒 with every discard that leaves the hand ready.

It reads no hand value, no money, no river and nothing about hidden hands: only its own
tiles and melds and the revealed hands' waits.
"""

from __future__ import annotations

from kwx.hand.efficiency import DiscardOption, discard_options
from kwx.hand.rules import make_rules
from kwx.hand.shapes import shanten
from kwx.hand.tiles import COPIES, EMPTY, NUM_KINDS, Hand
from kwx.table.table import Action
from kwx.table.view import SeatView

ORDER = (*range(18), 20, 19, 18)
"""The companion's order of kinds for ties: 筒 1–9, 条 1–9, then 白 发 中."""
_RANK = {kind: i for i, kind in enumerate(ORDER)}
_RULES = make_rules("standard", (), {})
"""Rules for the discard options' shapes: the companion reads no hand value, and every preset has the same shapes."""


def outs(hand: Hand, option: DiscardOption) -> int:
    """The outs a discard leaves: for each kind whose draw lowers the shanten, 4 − its copies in the concealed hand."""
    kind = option.discard
    return sum(COPIES - hand.concealed[k] + (k == kind) for k in option.result.kinds)


def discard_key(hand: Hand, option: DiscardOption, drawn: int | None) -> tuple[int, int, int, int, int, int]:
    """The companion's sort key of a discard, best first: ready, lowest shanten, most outs, most waits, then its tie order."""
    r = option.result
    ready = r.shanten == 0 and bool(r.kinds)
    waits = len(r.kinds) if ready else 0
    new_draw = option.discard == drawn and hand.concealed[option.discard] == 1
    return (not ready, r.shanten, -outs(hand, option), -waits, new_draw, _RANK[option.discard])


def choose_discard(hand: Hand, allowed: frozenset[int] | None = None, drawn: int | None = None) -> tuple[int, bool, int]:
    """The companion's discard of a 14-tile hand among ``allowed`` kinds.

    Kind, whether it leaves the hand ready, the shanten it leaves.
    """
    options = [o for o in discard_options(hand, EMPTY, _RULES) if allowed is None or o.discard in allowed]
    best = min(options, key=lambda o: discard_key(hand, o, drawn))
    return best.discard, best.result.shanten == 0 and bool(best.result.kinds), best.result.shanten


def safe_discards(view: SeatView) -> frozenset[int]:
    """The kinds the seat may throw: those no revealed hand wins on, or every kind it holds when it holds no other."""
    held = frozenset(k for k in range(NUM_KINDS) if view.concealed[k])
    bao: set[int] = set()
    for other in view.others():
        s = view.seats[other]
        if s.liang_dao:
            bao.update(s.waits)
    safe = held - bao
    return safe or held


class CompanionBot:
    """The public basic companion's rules (see the module docstring).

    Shanten first, 亮倒 whenever ready, no reading of anyone's hand.
    """

    name = "companion"

    def act(self, view: SeatView) -> Action:
        """Win if allowed; else any kong allowed; else the companion's discard (declaring 亮倒 when it leaves the hand ready)."""
        options = view.options
        for verb in ("win", "kong"):
            moves = [a for a in options if a.verb == verb]
            if moves:
                return min(moves, key=lambda a: _RANK[a.kind])
        discards = frozenset(a.kind for a in options if a.verb == "discard")
        if view.me.liang_dao:
            kind = view.drawn_tile if view.drawn_tile in discards else min(discards, key=_RANK.__getitem__)
            return Action(view.seat, "discard", kind)
        allowed = safe_discards(view) & discards or discards
        kind, ready, _ = choose_discard(view.hand, allowed, view.drawn_tile)
        declare = ready and Action(view.seat, "discard", kind, True) in options
        return Action(view.seat, "discard", kind, declare)

    def claim(self, view: SeatView) -> Action | None:
        """Win if allowed; else a kong if allowed; else a pong when the best discard after it lowers the shanten; else pass."""
        options = view.options
        for verb in ("win", "kong"):
            for action in options:
                if action.verb == verb:
                    return action
        for action in options:
            if action.verb == "pong":
                hand = view.hand
                _, _, after = choose_discard(hand.after_pong(action.kind))
                if after < shanten(hand.concealed, len(hand.melds)):
                    return action
        return None

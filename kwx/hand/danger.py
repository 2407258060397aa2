"""Danger against a revealed (亮倒) hand: the tiles that would let that opponent win.

A 亮倒 hand wins with the ×2 of 亮倒 on every win, so a discard win on it is never a
屁胡 and is always allowed (unless it would be a robbed kong with ``rob_kong`` off,
which a plain discard is not). Discarding such a tile is 包胡: the discarder pays
twice the win. A kind the revealed player holds all four of can never win for them.
"""

from __future__ import annotations

from dataclasses import replace

from kwx.errors import EngineError, gettext_noop
from kwx.hand.notation import format_hand
from kwx.hand.rules import Rules
from kwx.hand.scoring import score_win
from kwx.hand.shapes import shanten
from kwx.hand.tiles import Hand


def revealed_rules(rules: Rules) -> Rules:
    """The rules a revealed opponent wins by: same preset and options, only 亮倒 as situation."""
    return replace(rules, situation=frozenset({"liang_dao"}))


def check_revealed(revealed_hand: Hand) -> frozenset[int]:
    """The kinds a revealed hand waits on by shape; EngineError unless it is 13 ready tiles.

    The error's field is ``revealed``.
    """
    if revealed_hand.tile_count != 13:
        raise EngineError(
            gettext_noop("A revealed (亮倒) hand has 13 tiles (each meld counts 3); this one has %(count)d."),
            "revealed",
            count=revealed_hand.tile_count,
        )
    if shanten(revealed_hand.concealed, len(revealed_hand.melds)) != 0:
        raise EngineError(
            gettext_noop("The revealed hand %(hand)s is not ready (听牌); a 亮倒 hand always is."),
            "revealed",
            hand=format_hand(revealed_hand),
        )
    return revealed_hand.winning_kinds()


def dealing_in(revealed_hand: Hand, rules: Rules) -> frozenset[int]:
    """Kinds whose discard completes an opponent's revealed 13-tile hand as an allowed win (包胡)."""
    kinds = check_revealed(revealed_hand)
    situation = revealed_rules(rules)
    found = set()
    for kind in sorted(kinds):
        values = score_win(revealed_hand, kind, situation)
        if values is not None and values[1].allowed:
            found.add(kind)
    return frozenset(found)

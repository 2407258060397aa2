"""Playing a stored hand to its end the way a person would: the basic bot's answer in seat 0, sent as the form sends it."""

from __future__ import annotations

from kwx.bots.basic import BasicBot
from play import seats
from play.models import Hand

BOT = BasicBot()


def move_for(hand: Hand) -> str:
    """The form value of the basic bot's choice in the person's seat (``pass`` for no claim)."""
    _header, state = seats.rebuild(hand.record, hand.seed)
    options = seats.options_for(state)
    assert options, "not the person's decision"
    if seats.may_pass(state):
        action = BOT.claim(state, 0, options)
        if action is None:
            return "pass"
    else:
        action = BOT.act(state, 0, options)
    return f"{action.verb} {action.tile}" + (" ld" if action.liang_dao else "")

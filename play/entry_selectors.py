"""What the enter page reads (/play/enter/): the table as the entered moves leave it, the moves in words, the first fault, the palette."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from kwx.hand.tiles import COPIES, TILE_IDS
from kwx.table.table import Action
from kwx.table.view import view_for
from kwx_site.table import seat_name, table_shown
from kwx_site.text import tile_label

from .entry import ME, Compiled, Entry, tokens_of
from .presenter import action_text, last_discard, turn_order


def _words(compiled: Compiled) -> list[dict[str, Any]]:
    """Every action entered, numbered from 1, in the seat's words (another seat's draw: no tile), with the token it came from."""
    out = []
    for index, action in enumerate(compiled.record.actions):
        made = action.action or Action(action.seat, "draw", 0)
        token = compiled.token_of[index]
        out.append({"n": index + 1, "text": action_text(made, ME), "token": compiled.tokens[token] if token >= 0 else "", "implied": action.verb == "draw" and action.kind is None})
    return out


def _next_words(compiled: Compiled) -> str:
    """What comes next, in words: whose draw, whose discard, or a claim on the tile on offer."""
    state = compiled.done.final
    if compiled.done.result is not None:
        return _("The hand is over.")
    if state.phase in ("claim", "rob") and state.tile is not None:
        return _("%(name)s's %(tile)s is on offer: a claim (碰 杠 胡), or the next draw.") % {"name": seat_name(state.turn, ME), "tile": tile_label(TILE_IDS[state.tile])}
    if state.turn == ME:
        return _("Your draw: tap the tile you drew.") if state.phase == "draw" else _("Your turn: tap the tile you discarded.")
    return _("%(name)s to play: tap the tile it discarded.") % {"name": seat_name(state.turn, ME)}


def entry_view(entry: Entry | None, compiled: Compiled | None, header_error: str = "") -> dict[str, Any]:
    """Everything the enter page shows of an entry: the table after the moves, the moves in words, the first fault naming the action and its tile, the palette."""
    if compiled is None:
        return {"compiled": None, "header_error": header_error, "moves_count": len(tokens_of(entry.moves)) if entry else 0, "palette": [{"tile": t, "left": COPIES} for t in TILE_IDS]}
    done = compiled.done
    state = done.final
    view = view_for(state, ME)
    error = compiled.error
    fault = ""
    if error is not None:
        fault = _("Move %(n)d (%(token)s): %(problem)s") % {"n": error.token + 1, "token": error.raw, "problem": error.translated(_)}
    over = done.result is not None
    left = [COPIES - n for n in view.seen]
    return {
        "compiled": compiled,
        "header_error": header_error,
        "shown": table_shown(view, over=over, last_discard=last_discard(done.actions)),
        "order": turn_order(view, over),
        "moves_words": _words(compiled),
        "fault": fault,
        "fault_token": error.token if error is not None else None,
        "next_words": _next_words(compiled) if error is None else "",
        "over": over,
        "savable": error is None and bool(compiled.record.actions),
        "palette": [{"tile": t, "left": left[k]} for k, t in enumerate(TILE_IDS)],
        "moves_count": len(compiled.tokens),
        "on_offer": state.phase in ("claim", "rob") and not over,
        "my_turn": state.phase == "act" and state.turn == ME and not over,
    }

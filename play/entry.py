"""Entering a hand played elsewhere, from your seat: the keys (one line per action, or a sequence) and the taps, into a one-seat record.

Pure Python over the engine (no Django). The person sits at seat 0; 下家 (R) is seat 1, 上家 (L)
seat 2. One action a token, tokens apart by spaces, commas or new lines:

=========================  ==============================================================
``+5p`` / ``摸5p``          you draw 5p (another seat's draw is implied; ``R+`` writes it, see ``Rh5p`` below, and
                           ``L+5p`` the tile a declared hand draws and keeps when it kongs)
``-5p`` / ``打5p``          you discard 5p; ``-5p!`` declares 亮倒 with it
``R-5p`` / ``下打5p``       下家 discards 5p (``L`` / ``上``: 上家); it drew first when it was its turn
``R-5p!234s567s789s99pFF``  下家 declares 亮倒 with 5p, revealing those tiles (``/1``: one triplet kept face down, 半亮)
``Lp`` / ``上碰``           上家 pongs the tile on offer (``p5p`` names it; ``k``/``杠`` kong, ``h``/``胡`` win)
``Rh5p=222s555s888s99pFF``  下家 wins on 5p (its own draw when it was its turn), showing those tiles (``=…`` may be left out);
                           right after a 5p is thrown it is a win on that 5p, or, where the rules refuse that win,
                           its self-draw of another 5p (``R+ Rh5p`` says so outright)
``h`` / ``胡``              you win: on your draw, or on the tile on offer
``m7s`` / ``马7s``          the horses (买马) turned after a self-draw that buys them
=========================  ==============================================================

:func:`compile_entry` reads the tokens one by one against the table as the seat sees it
(``kwx.table.seat_record``): it fills in the other seats' draws and the tile a claim is on,
and stops at the first token that is not an action or that the table refuses, naming it.
:func:`tap_token` is what a tap on the tile palette adds: the next natural action with that tile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kwx.errors import EngineError, RecordError, gettext_noop
from kwx.hand.notation import format_counts, parse_tile, parse_tiles, scan_notation
from kwx.hand.tiles import TILE_IDS, Counts, counts_of
from kwx.table.record import Header
from kwx.table.seat_record import SeatAction, SeatRecord, SeatReplay, replay_seat, step_seat, world_at_deal
from kwx.table.table import Table, Verb

ME = 0
"""The person's seat in an entered hand; 下家 is seat 1, 上家 seat 2."""
WHO = {"": ME, "我": ME, "I": ME, "i": ME, "R": 1, "r": 1, "下": 1, "L": 2, "l": 2, "上": 2}
WHO_KEY = {ME: "", 1: "R", 2: "L"}
VERB_OF = {
    "+": "draw",
    "摸": "draw",
    "-": "discard",
    "打": "discard",
    "p": "pong",
    "P": "pong",
    "碰": "pong",
    "k": "kong",
    "K": "kong",
    "杠": "kong",
    "h": "win",
    "H": "win",
    "胡": "win",
    "m": "horses",
    "M": "horses",
    "马": "horses",
}
TILE = r"(?:[1-9一二三四五六七八九][psPS筒条條索饼餅]|[ZFBzfb中发發白])"
TOKEN = re.compile(rf"(?P<who>[RrLlIi下上我]?)(?P<verb>[+\-pPkKhHmM摸打碰杠胡马])(?P<tile>{TILE})?(?P<ld>[!！亮])?(?P<rest>.*)", re.S)
SPLIT = re.compile(r"[\s,，;；、]+")
MAX_TOKENS = 400
"""More tokens than any hand holds (45 draws, as many discards, a few claims)."""


class EntryError(EngineError):
    """A token that is not an action, or one the table refuses: ``token`` its 0-based place, ``raw`` as typed."""

    def __init__(self, template: str, token: int, raw: str, **params: Any) -> None:
        self.token = token
        self.raw = raw
        super().__init__(template, "moves", **params)


@dataclass(frozen=True, slots=True)
class Entry:
    """What the person typed or tapped: the rules, who dealt, their own tiles (13, or 14 as dealer) and the moves."""

    rules: str
    options: tuple[tuple[str, Any], ...]
    dealer: int
    hand: str
    moves: str
    dice: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Compiled:
    """An entry read as far as it goes: the record of every action accepted, its replay, the tokens read and the first fault (None: all read)."""

    record: SeatRecord
    done: SeatReplay
    tokens: tuple[str, ...]
    error: EntryError | None
    token_of: tuple[int, ...]
    """The token each action of the record came from (an implied draw: the token after it)."""


def tokens_of(moves: str) -> tuple[str, ...]:
    """The moves split into tokens."""
    return tuple(t for t in SPLIT.split(moves.strip()) if t)


def own_tiles(hand: str, dealer: int) -> tuple[Counts, int | None]:
    """The person's 13 dealt tiles and, as dealer with 14 written, the last one as the first draw (raises EngineError naming ``hand``)."""
    kinds, melds = scan_notation(hand, "hand")
    if melds:
        raise EngineError(gettext_noop("Your hand is the 13 tiles you were dealt: no melds."), "hand")
    if len(kinds) == 14 and dealer == ME:
        return counts_of(kinds[:13]), kinds[13]
    if len(kinds) != 13:
        raise EngineError(
            gettext_noop("You were dealt %(count)d tiles here: write 13 (14 as dealer, the last one your first draw)."),
            "hand",
            count=len(kinds),
        )
    return counts_of(kinds), None


def header_of(entry: Entry) -> tuple[Header, int | None]:
    """The record's header from the entry, and the dealer's first draw when 14 tiles were written (raises EngineError)."""
    own, first = own_tiles(entry.hand, entry.dealer)
    data: dict[str, Any] = {"seat": ME, "rules": entry.rules, "options": dict(entry.options), "dealer": entry.dealer, "hands": [format_counts(own), None, None], "actions": []}
    if entry.dice is not None:
        data["dice"] = list(entry.dice)
    try:
        return SeatRecord.from_json(data).header, first
    except RecordError as exc:
        raise EngineError(exc.template, exc.field, **exc.params) from exc


def _drawer(state: Table) -> int | None:
    """The seat that draws next if nobody claims (None: a seat has its tiles to play, or the hand is over)."""
    if state.wins:
        return None
    if state.phase in ("draw", "rob"):
        return state.turn
    if state.phase == "claim":
        return (state.turn + 1) % 3
    return None


def _tiles_text(text: str, token: int, raw: str) -> Counts:
    try:
        return parse_tiles(text, "moves")
    except EngineError as exc:
        raise EntryError(exc.template, token, raw, **exc.params) from exc


def read_token(raw: str, token: int, state: Table, claims: bool = True) -> list[SeatAction]:
    """One token as actions, against the table as it stands: the other seat's implied draw first when the token is its turn's (raises EntryError).

    A 碰, 杠 or 胡 of the tile on offer is read as a claim of it, unless ``claims`` is False: then as the drawer's own.
    """
    match = TOKEN.fullmatch(raw)
    if match is None:
        raise EntryError(gettext_noop('"%(text)s" is not an action: write +5p (you draw), -5p (you discard), R-5p / L-5p (下家 / 上家 discards), p, k, h (碰 杠 胡).'), token, raw, text=raw)
    who = WHO[match["who"] if match["who"] not in ("I", "i") else ""]
    verb: Verb = VERB_OF[match["verb"]]  # type: ignore[assignment]
    tile = parse_tile(match["tile"], "moves") if match["tile"] else None
    rest, declares = match["rest"], bool(match["ld"])
    if verb == "horses":
        text = (match["tile"] or "") + rest
        try:
            kinds, _ = scan_notation(text, "moves")
        except EngineError as exc:
            raise EntryError(exc.template, token, raw, **exc.params) from exc
        winner = state.wins[0].seat if state.wins else who  # the horses are the winner's, whoever is named
        return [SeatAction(winner, "horses", kinds[0] if kinds else 0, horses=tuple(kinds))]
    if declares and verb != "discard":
        raise EntryError(gettext_noop('"%(text)s": 亮倒 (!) goes with a discard.'), token, raw, text=raw)
    shown: Counts | None = None
    revealed: Counts | None = None
    hidden_kou = 0
    if verb == "win" and rest.startswith(("=", "＝")):
        if who == ME:
            raise EntryError(gettext_noop('"%(text)s": your own tiles are known; =… shows another seat\'s.'), token, raw, text=raw)
        shown, rest = _tiles_text(rest[1:], token, raw), ""
    if declares and who != ME:
        text, _, kou = rest.partition("/")
        if not text:
            raise EntryError(gettext_noop('"%(text)s": write the tiles the 亮倒 reveals after the !, e.g. R-5p!234s567s789s99pFF.'), token, raw, text=raw)
        revealed, rest = _tiles_text(text, token, raw), ""
        if kou:
            if not kou.isdigit() or not 1 <= int(kou) <= 4:
                raise EntryError(gettext_noop('"%(text)s": after / write how many triplets it keeps face down (1 to 4).'), token, raw, text=raw)
            hidden_kou = int(kou)
    if rest:
        raise EntryError(gettext_noop('"%(text)s": "%(extra)s" is not part of an action.'), token, raw, text=raw, extra=rest[:20])
    out: list[SeatAction] = []
    drawer = _drawer(state)
    offered = state.tile if state.phase in ("claim", "rob") and not state.wins else state.tile if state.wins else None
    claim = claims and state.phase in ("claim", "rob") and who != state.turn and verb in ("pong", "kong", "win") and (tile is None or tile == offered)
    if verb == "draw":
        if who != ME:
            return [SeatAction(who, "draw", tile)]  # a tile only for a declared hand (the replay says)
        if tile is None:
            raise EntryError(gettext_noop('"%(text)s": name the tile you drew, e.g. +5p.'), token, raw, text=raw)
        return [SeatAction(ME, "draw", tile)]
    if drawer == who and not claim:
        if who == ME:
            raise EntryError(gettext_noop('"%(text)s": it is your draw first: enter the tile you drew (+5p).'), token, raw, text=raw)
        out.append(SeatAction(who, "draw"))
    own_turn = (drawer == who and not claim) or (state.phase in ("act", "pong") and state.turn == who)
    if tile is None:
        if claim and offered is not None:
            tile = offered
        elif verb == "win" and who == ME and own_turn and state.phase == "act" and state.tile is not None:
            tile = state.tile
        else:
            raise EntryError(gettext_noop('"%(text)s": name the tile, e.g. %(example)s.'), token, raw, text=raw, example=f"{match['who']}{match['verb']}5p")
    out.append(SeatAction(who, verb, tile, declares, revealed=revealed, hidden_kou=hidden_kou, shown=shown))
    return out


def compile_entry(entry: Entry) -> Compiled:
    """The entry read token by token into a one-seat record, as far as the first fault (raises EngineError for a bad header: the rules or the hand)."""
    header, first = header_of(entry)
    record = SeatRecord(header)
    tokens = tokens_of(entry.moves)
    token_of: list[int] = []
    error: EntryError | None = None
    state = world_at_deal(header)
    if first is not None:  # the dealer's fourteenth tile, written with the hand
        record = record.append(SeatAction(ME, "draw", first))
        state = step_seat(state, record, 0)
        token_of.append(-1)
    over = False
    for index, raw in enumerate(tokens[:MAX_TOKENS]):
        try:
            made = read_token(raw, index, state)
            try:
                record, state, over = _played(record, state, made, over)
            except EngineError as exc:  # a claim the table refuses may be the drawer's own: Rh5p after your 5p, its 屁胡 self-drawn
                try:
                    own = read_token(raw, index, state, claims=False)
                    if own == made:
                        raise exc
                    record, state, over = _played(record, state, own, over)
                except EngineError:
                    raise exc from None
        except EntryError as exc:
            error = exc
        except EngineError as exc:  # the table's refusal, or a tile that is not one
            error = EntryError(exc.template, index, raw, **exc.params)
        if error is not None:
            break
        token_of.extend([index] * (len(record.actions) - len(token_of)))
    if len(tokens) > MAX_TOKENS and error is None:
        error = EntryError(gettext_noop("A hand has at most %(limit)d actions."), MAX_TOKENS, tokens[MAX_TOKENS], limit=MAX_TOKENS)
    return Compiled(record, replay_seat(record), tokens, error, tuple(token_of))


def _played(record: SeatRecord, state: Table, made: list[SeatAction], over: bool) -> tuple[SeatRecord, Table, bool]:
    """The record and table after one token's actions, and whether the hand is over (raises EngineError: the table refuses one)."""
    for n, action in enumerate(made):
        record = record.append(action)
        if over:  # after a win whose tiles were not shown: only a second win may follow, which the replay checks
            replay_seat(record)
            continue
        before = state
        state = step_seat(state, record, len(record.actions) - 1, tuple(made[n + 1 :]))
        over = state is before
    return record, state, over


def tap_token(state: Table, kind: int, declare: bool = False, shown: str = "") -> str:
    """The token a tap on tile ``kind`` adds: your draw on your draw, your discard on your turn (``declare``: with 亮倒), else the discard of the seat to play (``shown``: the tiles its 亮倒 reveals)."""
    tile = TILE_IDS[kind]
    drawer = _drawer(state)
    if state.wins:
        return f"h{tile}"
    if drawer == ME:
        return f"+{tile}"
    turn = drawer if drawer is not None else state.turn
    key = WHO_KEY[turn]
    if not declare:
        return f"{key}-{tile}"
    if turn == ME:
        return f"-{tile}!"
    return f"{key}-{tile}!{shown.strip()}"


def claim_token(who: int, verb: str, shown: str = "") -> str:
    """The token a claim button adds: 碰 杠 胡 of ``who`` on the tile on offer (a win with the winner's tiles ``shown``)."""
    letter = {"pong": "p", "kong": "k", "win": "h"}[verb]
    extra = f"={shown.strip()}" if verb == "win" and shown.strip() and who != ME else ""
    return f"{WHO_KEY[who]}{letter}{extra}"


def without_last(moves: str) -> str:
    """The moves less their last token (undo)."""
    tokens = tokens_of(moves)
    return " ".join(tokens[:-1])


def with_token(moves: str, token: str) -> str:
    """The moves with ``token`` after them."""
    return f"{moves.rstrip()} {token}".strip()


def counts_left(state: Table, seat: int = ME) -> Counts:
    """Copies of each kind the seat has not seen (the palette's small numbers)."""
    from kwx.table.view import view_for

    seen = view_for(state, seat).seen
    return tuple(4 - n for n in seen)


def entry_text(record: SeatRecord) -> str:
    """A one-seat record of seat 0 in the entry's keys: what :func:`compile_entry` reads back.

    The others' draws are left implied, but for a self-draw of the kind just thrown and a declared hand's draw kept beside its kong.
    """
    out = []
    discarded: int | None = None
    for action, following in zip(record.actions, (*record.actions[1:], None), strict=True):
        who = WHO_KEY[action.seat]
        tile = TILE_IDS[action.kind] if action.kind is not None else ""
        if action.verb == "draw":
            if action.seat == ME:
                out.append(f"+{tile}")
            elif following is not None and following.seat == action.seat and following.verb == "kong" and action.kind is not None:
                out.append(f"{who}+{tile}")  # a declared hand's draw that it keeps beside its kong (its waits are checked with it)
            elif following is not None and following.seat == action.seat and following.verb == "win" and following.kind == discarded:
                out.append(f"{who}+")  # its self-draw of the kind just thrown, which "Rh5p" alone would read as a win on that discard
            continue
        if action.verb == "discard":
            discarded = action.kind
        if action.verb == "horses":
            out.append("m" + "".join(TILE_IDS[k] for k in action.horses))
            continue
        letter = {"discard": "-", "pong": "p", "kong": "k", "win": "h"}[action.verb]
        text = f"{who}{letter}{tile}"
        if action.liang_dao:
            text += "!" + (format_counts(action.revealed) if action.revealed is not None else "") + (f"/{action.hidden_kou}" if action.hidden_kou else "")
        if action.shown is not None:
            text += "=" + format_counts(action.shown)
        out.append(text)
    return " ".join(out)

"""Reading and writing hands: every notation of kwx-rules §1 in, canonical text out.

Accepted: ``4556p123s``; dragons ``Z F B`` (either case) or 中 发 發 白; Chinese
numerals and suit words (``五筒``, ``3条``, ``三索``, ``5饼``); riichi honours
``5z 6z 7z`` = 白 发 中; spaces and commas anywhere; melds after the concealed
tiles as ``[555p]`` (碰), ``[5555p]`` (明杠), ``{5555p}`` (暗杠).
Positions in error messages count characters from 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kwx.errors import NotationError, gettext_noop
from kwx.hand.tiles import BAI, EMPTY, FA, NUM_KINDS, ZHONG, Counts, Hand, Meld, MeldType, counts_of

_IGNORED = frozenset(" \t\n,，、\u3000")
_DIGITS = {str(n): n for n in range(1, 10)} | {c: n + 1 for n, c in enumerate("一二三四五六七八九")}
_SUIT_OFFSET = {"p": 0, "P": 0, "筒": 0, "饼": 0, "餅": 0, "s": 9, "S": 9, "条": 9, "條": 9, "索": 9}
_DRAGON_CHARS = {"中": ZHONG, "发": FA, "發": FA, "白": BAI, "F": FA, "f": FA, "B": BAI, "b": BAI}
_RIICHI_HONOURS = {5: BAI, 6: FA, 7: ZHONG}
_NO_MANZU = frozenset("mM万萬")
_WINDS = frozenset("东南西北東")
_OPEN = {"[": "]", "{": "}"}


@dataclass(frozen=True, slots=True)
class _Pending:
    value: int
    position: int
    char: str


def _flush_error(pending: list[_Pending], field: str) -> NotationError:
    first = pending[0]
    return NotationError(
        gettext_noop('The numbers "%(digits)s" at position %(position)d have no suit: add p (筒) or s (条).'),
        field,
        digits="".join(p.char for p in pending),
        position=first.position,
    )


def scan_notation(text: str, field: str) -> tuple[list[int], list[Meld]]:
    """Turn text into concealed kinds and melds, or raise NotationError."""
    concealed: list[int] = []
    melds: list[Meld] = []
    pending: list[_Pending] = []
    group: list[int] | None = None
    group_open = ("", 0)

    def emit(kind: int) -> None:
        (concealed if group is None else group).append(kind)

    for index, char in enumerate(text):
        position = index + 1
        if char in _IGNORED:
            continue
        if char in _DIGITS:
            pending.append(_Pending(_DIGITS[char], position, char))
        elif char == "0":
            raise NotationError(
                gettext_noop('"0" at position %(position)d is not a tile: 卡五星 has no red fives, write 5.'),
                field,
                position=position,
            )
        elif char in _SUIT_OFFSET:
            if not pending:
                raise NotationError(
                    gettext_noop('"%(char)s" at position %(position)d has no numbers before it.'),
                    field,
                    char=char,
                    position=position,
                )
            for p in pending:
                emit(_SUIT_OFFSET[char] + p.value - 1)
            pending = []
        elif char in "zZ" and pending:
            for p in pending:
                if p.value not in _RIICHI_HONOURS:
                    raise NotationError(
                        gettext_noop('"%(text)s" at position %(position)d is a wind: 卡五星 has no winds (5z 6z 7z are 白 发 中).'),
                        field,
                        text=f"{p.char}{char}",
                        position=p.position,
                    )
                emit(_RIICHI_HONOURS[p.value])
            pending = []
        elif char in "zZ" or char in _DRAGON_CHARS:
            if pending:
                raise _flush_error(pending, field)
            emit(ZHONG if char in "zZ" else _DRAGON_CHARS[char])
        elif char in _NO_MANZU:
            raise NotationError(
                gettext_noop('"%(char)s" at position %(position)d: 卡五星 has no 万 (characters) suit.'),
                field,
                char=char,
                position=position,
            )
        elif char in _WINDS:
            raise NotationError(
                gettext_noop('"%(text)s" at position %(position)d is a wind: 卡五星 has no winds (5z 6z 7z are 白 发 中).'),
                field,
                text=char,
                position=position,
            )
        elif char in _OPEN:
            if pending:
                raise _flush_error(pending, field)
            if group is not None:
                raise NotationError(
                    gettext_noop('"%(char)s" at position %(position)d: brackets cannot be nested.'),
                    field,
                    char=char,
                    position=position,
                )
            group, group_open = [], (char, position)
        elif char in "]}":
            if pending:
                raise _flush_error(pending, field)
            if group is None or _OPEN[group_open[0]] != char:
                raise NotationError(
                    gettext_noop('"%(char)s" at position %(position)d closes a bracket that was not opened.'),
                    field,
                    char=char,
                    position=position,
                )
            melds.append(_meld_of(group, group_open, field))
            group = None
        else:
            raise NotationError(
                gettext_noop('Unknown character "%(char)s" at position %(position)d.'),
                field,
                char=char,
                position=position,
            )
    if pending:
        raise _flush_error(pending, field)
    if group is not None:
        raise NotationError(
            gettext_noop('The bracket "%(char)s" at position %(position)d is never closed.'),
            field,
            char=group_open[0],
            position=group_open[1],
        )
    return concealed, melds


def _meld_of(kinds: list[int], opened: tuple[str, int], field: str) -> Meld:
    bracket, position = opened
    if len(set(kinds)) != 1 or len(kinds) not in (3, 4) or (bracket == "{" and len(kinds) != 4):
        raise NotationError(
            gettext_noop("The meld at position %(position)d must be three of a kind in [ ] (碰), four in [ ] (明杠) or four in { } (暗杠)."),
            field,
            position=position,
        )
    if bracket == "{":
        meld_type = MeldType.CONCEALED_KONG
    else:
        meld_type = MeldType.PONG if len(kinds) == 3 else MeldType.KONG
    return Meld(meld_type, kinds[0])


_PLAIN = re.compile(r"(?:[1-9]+[ps]|[ZFB])+")
_PLAIN_PART = re.compile(r"([1-9]+)([ps])|([ZFB])")
_DRAGON_ID = {"Z": ZHONG, "F": FA, "B": BAI}


def plain_kinds(text: str) -> list[int] | None:
    """The kinds of text in plain ASCII notation (the common case), or None for anything else."""
    if not _PLAIN.fullmatch(text):
        return None
    kinds: list[int] = []
    for digits, suit, dragon in _PLAIN_PART.findall(text):
        if dragon:
            kinds.append(_DRAGON_ID[dragon])
        else:
            offset = -1 if suit == "p" else 8
            kinds.extend(offset + int(d) for d in digits)
    return kinds


def parse_hand(text: str, field: str = "hand") -> Hand:
    """Parse concealed tiles and bracketed melds; counts are not checked here."""
    plain = plain_kinds(text)
    if plain is not None:
        return Hand(counts_of(plain))
    concealed, melds = scan_notation(text, field)
    return Hand(counts_of(concealed), tuple(melds))


def parse_tiles(text: str, field: str = "visible") -> Counts:
    """Parse plain tiles (no melds) into counts, e.g. visible tiles."""
    if not text:
        return EMPTY
    plain = plain_kinds(text)
    if plain is not None:
        return counts_of(plain)
    concealed, melds = scan_notation(text, field)
    if melds:
        raise NotationError(gettext_noop("Melds in brackets are not allowed here."), field)
    return counts_of(concealed)


def parse_sequence(text: str, field: str = "river") -> tuple[int, ...]:
    """Parse plain tiles keeping their order (a river: ``5p3sZ1p``, or ``5p 3s 中 1p``)."""
    if not text:
        return ()
    concealed, melds = scan_notation(text, field)
    if melds:
        raise NotationError(gettext_noop("Melds in brackets are not allowed here."), field)
    return tuple(concealed)


def parse_tile(text: str, field: str = "tile") -> int:
    """Parse exactly one tile, in any accepted notation, into its kind."""
    concealed, melds = scan_notation(text, field)
    if melds or len(concealed) != 1:
        raise NotationError(gettext_noop('"%(text)s" is not a single tile.'), field, text=text)
    return concealed[0]


@lru_cache(maxsize=65536)
def format_counts(counts: Counts) -> str:
    """Canonical text of plain tiles: 筒, then 条, then 中发白, e.g. ``4556p123789sZZZ``."""
    parts: list[str] = []
    for offset, suit in ((0, "p"), (9, "s")):
        digits = "".join(str(r + 1) * counts[offset + r] for r in range(9))
        if digits:
            parts.append(digits + suit)
    parts.append("Z" * counts[ZHONG] + "F" * counts[FA] + "B" * counts[BAI])
    return "".join(parts)


def format_meld(meld: Meld) -> str:
    """Canonical text of one meld: ``[555p]``, ``[5555p]`` or ``{5555p}``."""
    body = format_counts(tuple(meld.type.size if k == meld.kind else 0 for k in range(NUM_KINDS)))
    return "{" + body + "}" if meld.type is MeldType.CONCEALED_KONG else "[" + body + "]"


def format_hand(hand: Hand) -> str:
    """Canonical text of a hand: concealed tiles, then its melds in brackets."""
    return format_counts(hand.concealed) + "".join(format_meld(m) for m in hand.melds)

"""The table in the analyzer's link: rivers, melds, 亮倒 tiles, wall, offered and drawn tile.

A position at the table (``kwx.table.position``) is the hand plus what the table shows.
The analyzer keeps it in the query string, one short key per part, each a tile text in the
hand's notation:

======  =====================================  ===============================
key     what                                   ``POST /api/v1/advice/`` field
======  =====================================  ===============================
r0      your own river, in order               ``river``
r1      下家's river, in order                 ``opponents[0].river``
m1      下家's melds in brackets               ``opponents[0].melds``
l1      下家's 亮倒 (revealed) tiles           ``opponents[0].revealed``
r2      上家's river / m2 melds / l2 亮倒      ``opponents[1]....``
wall    tiles left in the wall (optional)      ``wall_left``
offer   the tile offered to you                ``offered.tile``
by      who offers it: 1 下家, 2 上家          ``offered.by``
kind    ``kong`` for a tile added to a pong    ``offered.kind``
drawn   the tile you just drew                 ``drawn``
seed    seeds the sampled worlds               ``seed``
======  =====================================  ===============================

The wall count is optional in the link: it follows from the other tiles (docs/advice.md), so
when it is left out the count the tiles leave is used; when given it is checked. ``by``
defaults to 1 and ``kind`` to a discard, and both are left out of the canonical link then.

This module reads and writes those keys (``read_table``, ``table_pairs``), applies the taps
that build a table (``tap``, ``untap``), and turns a hand and a table into the engine's
``Position`` (``position_of``) and into the API's request body (``api_body``), so the
analyzer's link and the API describe a position with the same fields. Every error names the
link key it is about (and, from the notation, the character and its position).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kwx import EngineError
from kwx.hand.notation import format_counts, format_hand, format_meld, parse_hand, parse_sequence, parse_tile, parse_tiles
from kwx.hand.rules import Rules
from kwx.hand.tiles import COPIES, EMPTY, NUM_KINDS, TILE_IDS, Counts, Hand, Meld, MeldType, with_tile
from kwx.numbers import read_whole
from kwx.table.position import Opponent, Position
from kwx.table.table import WALL_AFTER_DEAL
from kwx_site.drawing import meld_faces
from kwx_site.flags import read_flag
from kwx_site.table import seat_name
from kwx_site.text import tile_label

RIVER_KEYS = ("r0", "r1", "r2")
MELD_KEYS = ("m1", "m2")
REVEALED_KEYS = ("l1", "l2")
TABLE_KEYS = ("r0", "r1", "m1", "l1", "r2", "m2", "l2", "wall", "offer", "by", "kind", "drawn")
"""The link keys of the table, in canonical order; any of them given makes a table."""
TARGETS = ("r1", "r2", "r0", "m1", "m2", "l1", "l2", "offer", "drawn")
"""Where a palette tap can add a tile besides the hand (the analyzer's ``to``)."""
MAX_TEXT = 120
"""A river holds at most 45 tiles: a longer text is refused before it is parsed."""
LABELS: dict[str, str] = {
    "r0": gettext_noop("Your river"),
    "r1": gettext_noop("下家's river"),
    "r2": gettext_noop("上家's river"),
    "m1": gettext_noop("下家's melds (碰/杠)"),
    "m2": gettext_noop("上家's melds (碰/杠)"),
    "l1": gettext_noop("下家's 亮倒 tiles"),
    "l2": gettext_noop("上家's 亮倒 tiles"),
    "wall": gettext_noop("Tiles left in the wall"),
    "offer": gettext_noop("Tile on offer (to 碰, 杠 or 胡)"),
    "by": gettext_noop("Offered by"),
    "kind": gettext_noop("Offered as"),
    "drawn": gettext_noop("Drawn tile"),
    "table": gettext_noop("Table"),
}
"""What each key is called on the form and in its messages (the player's words; the link keys stay in the link)."""
POSITION_FIELDS = {"wall_left": "wall", "offered": "offer", "drawn": "drawn", "river": "r0"}
"""The engine's position fields and the link key each is shown by (the rest: ``table``)."""


@dataclass(frozen=True)
class TableForm:
    """The table as the link gives it: texts as typed, parsed parts, and errors by link key."""

    texts: dict[str, str] = field(default_factory=dict)
    rivers: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    melds: tuple[tuple[Meld, ...], tuple[Meld, ...]] = ((), ())
    revealed: tuple[Counts | None, Counts | None] = (None, None)
    wall: int | None = None
    offer: int | None = None
    by: int = 1
    kind: str = "discard"
    drawn: int | None = None
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def given(self) -> bool:
        """Whether the link holds any table field (without one the analyzer is as it always was)."""
        return any(self.texts.get(key) for key in TABLE_KEYS if key not in ("by", "kind"))

    @property
    def seen(self) -> Counts:
        """Copies of each kind the table shows: the ``shown`` of its position with no hand."""
        return position_of(Hand(EMPTY), self).shown


def label(key: str) -> str:
    """The translated name of a link key, for messages and the form."""
    return _(LABELS.get(key, LABELS["table"]))


def _message(key: str, exc: EngineError) -> str:
    return _("%(field)s: %(message)s") % {"field": label(key), "message": exc.translated(_)}


def _too_long(key: str, text: str) -> None:
    if len(text) > MAX_TEXT:
        raise EngineError(gettext_noop("Too long: %(length)d characters, at most %(limit)d."), key, length=len(text), limit=MAX_TEXT)


def read_table(query: QueryDict) -> TableForm:
    """The table a query string describes; a part that cannot be read gets a message under its key."""
    texts = {key: query.get(key, "").strip() for key in TABLE_KEYS}
    errors: dict[str, str] = {}

    def parsed(key: str, parse: Any, empty: Any) -> Any:
        text = texts[key]
        if not text:
            return empty
        try:
            _too_long(key, text)
            return parse(text, key)
        except EngineError as exc:
            errors[key] = _message(key, exc)
            return empty

    rivers = tuple(parsed(key, parse_sequence, ()) for key in RIVER_KEYS)
    melds = tuple(parsed(key, _parse_melds, ()) for key in MELD_KEYS)
    revealed = tuple(parsed(key, parse_tiles, None) for key in REVEALED_KEYS)
    offer = parsed("offer", parse_tile, None)
    drawn = parsed("drawn", parse_tile, None)
    wall = parsed("wall", _parse_wall, None)
    by = texts["by"] or "1"
    if by not in ("1", "2"):
        errors["by"] = _("%(field)s: “%(text)s” is not 1 (下家) or 2 (上家).") % {"field": label("by"), "text": by[:10]}
    kind = texts["kind"] or "discard"
    if kind not in ("discard", "kong"):
        errors["kind"] = _("%(field)s: “%(text)s” is not discard or kong.") % {"field": label("kind"), "text": kind[:10]}
    return TableForm(
        texts,
        rivers,
        melds,
        revealed,
        wall,
        offer,  # type: ignore[arg-type]
        int(by) if by in ("1", "2") else 1,
        kind if kind in ("discard", "kong") else "discard",
        drawn,
        errors,
    )


def _parse_melds(text: str, key: str) -> tuple[Meld, ...]:
    hand = parse_hand(text, key)
    if any(hand.concealed):
        raise EngineError(gettext_noop("Melds go in brackets: [555p] 碰, [5555p] 明杠, {5555p} 暗杠."), key)
    return hand.melds


def _parse_wall(text: str, key: str) -> int:
    number = read_whole(text)
    if number is None or not 0 <= number <= WALL_AFTER_DEAL:
        raise EngineError(gettext_noop("Must be a whole number from %(low)d to %(high)d."), key, low=0, high=WALL_AFTER_DEAL)
    return number


def format_sequence(kinds: tuple[int, ...]) -> str:
    """Canonical text of tiles in order (a river): runs of one suit share the suit letter, ``56p3sZ1p``."""
    out: list[str] = []
    for kind in kinds:
        tile = TILE_IDS[kind]
        if len(tile) == 2 and out and out[-1].endswith(tile[1]) and out[-1][0].isdigit():
            out[-1] = out[-1][:-1] + tile
        else:
            out.append(tile)
    return "".join(out)


def table_pairs(table: TableForm) -> list[tuple[str, str]]:
    """The table's part of the canonical query: each given key once, in canonical notation."""
    if not table.given:
        return []
    values: dict[str, str] = {}
    for number, key in enumerate(RIVER_KEYS):
        values[key] = format_sequence(table.rivers[number]) if key not in table.errors else table.texts[key]
    for number, key in enumerate(MELD_KEYS):
        values[key] = "".join(format_meld(m) for m in table.melds[number]) if key not in table.errors else table.texts[key]
    for number, key in enumerate(REVEALED_KEYS):
        revealed = table.revealed[number]
        values[key] = format_counts(revealed) if revealed is not None and key not in table.errors else table.texts[key]
    values["wall"] = str(table.wall) if table.wall is not None else table.texts["wall"]
    values["offer"] = TILE_IDS[table.offer] if table.offer is not None else table.texts["offer"]
    values["by"] = table.texts["by"] if "by" in table.errors else str(table.by) if table.by != 1 else ""
    values["kind"] = table.texts["kind"] if "kind" in table.errors else table.kind if table.kind != "discard" else ""
    values["drawn"] = TILE_IDS[table.drawn] if table.drawn is not None else table.texts["drawn"]
    if not values["offer"]:
        values["by"] = values["kind"] = ""
    return [(key, values[key]) for key in TABLE_KEYS if values[key]]


def _opponents(table: TableForm) -> tuple[Opponent, Opponent]:
    return (
        Opponent(table.rivers[1], table.melds[0], table.revealed[0]),
        Opponent(table.rivers[2], table.melds[1], table.revealed[1]),
    )


def position_of(hand: Hand, table: TableForm) -> Position:
    """The engine's position of a hand at this table (the wall the tiles leave when the link gives none)."""
    position = Position(
        hand,
        table.rivers[0],
        _opponents(table),
        table.wall or 0,
        (table.by, table.offer) if table.offer is not None else None,
        table.kind,  # type: ignore[arg-type]
        table.drawn,
    )
    return position if table.wall is not None else replace(position, wall_left=position.left_in_wall)


def check_position(hand: Hand, table: TableForm, rules: Rules) -> tuple[Position | None, dict[str, str]]:
    """(the position, {}) when hand and table fit together, else (None, {link key: message})."""
    if table.errors:
        return None, dict(table.errors)
    position = position_of(hand, table)
    try:
        position.view(rules)
    except EngineError as exc:
        key = POSITION_FIELDS.get(exc.field, "hand" if exc.field == "hand" else "table")
        return None, {key: _message(key, exc)}
    return position, {}


def api_body(hand: Hand, table: TableForm, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``POST /api/v1/advice/`` body that describes the same position as the hand and the link's table."""
    position = position_of(hand, table)
    opponents = []
    for opp in position.opponents:
        item: dict[str, Any] = {"river": format_sequence(opp.river), "melds": "".join(format_meld(m) for m in opp.melds)}
        if opp.revealed is not None:
            item["revealed"] = format_counts(opp.revealed)
        opponents.append(item)
    body: dict[str, Any] = {
        "hand": format_hand(hand),
        "river": format_sequence(position.river),
        "opponents": opponents,
        "wall_left": position.wall_left,
    }
    if position.offered is not None:
        body["offered"] = {"tile": TILE_IDS[position.offered[1]], "by": position.offered[0], "kind": position.offered_as}
    if position.drawn is not None:
        body["drawn"] = TILE_IDS[position.drawn]
    return body | (extra or {})


def tap(table: TableForm, target: str, kind: int, seen: Counts) -> tuple[TableForm, str]:
    """The table after a palette tap of ``kind`` aimed at ``target`` (a ``TARGETS`` key), or why not (a notice).

    ``seen`` counts every copy already placed (hand, visible tiles and this table). A river tap
    appends; a meld tap adds a 碰 or turns that player's 碰 of the kind into a 明杠; a 亮倒 tap
    adds one tile; an offer tap sets the offered tile and, for a discard, ends the offerer's
    river with it (that is where a discard lies); a drawn tap sets the drawn tile.
    """
    name = tile_label(TILE_IDS[kind])
    left = COPIES - seen[kind]
    if target in RIVER_KEYS:
        if left < 1:
            return table, _("All four %(tile)s are already used.") % {"tile": name}
        return _with_river(table, RIVER_KEYS.index(target), table.rivers[RIVER_KEYS.index(target)] + (kind,)), ""
    if target in MELD_KEYS:
        number = MELD_KEYS.index(target)
        melds = table.melds[number]
        pong = next((i for i, m in enumerate(melds) if m.kind == kind and m.type is MeldType.PONG), None)
        need = 1 if pong is not None else 3
        if left < need:
            return table, _("%(tile)s: %(need)d needed, %(left)d left.") % {"tile": name, "need": need, "left": max(0, left)}
        if pong is not None:
            melds = melds[:pong] + (Meld(MeldType.KONG, kind),) + melds[pong + 1 :]
        elif len(melds) >= 4:
            return table, _("A hand has at most 4 melds.")
        else:
            melds = melds + (Meld(MeldType.PONG, kind),)
        return _with_melds(table, number, melds), ""
    if target in REVEALED_KEYS:
        number = REVEALED_KEYS.index(target)
        if left < 1:
            return table, _("All four %(tile)s are already used.") % {"tile": name}
        revealed = with_tile(table.revealed[number] or EMPTY, kind)
        return _with_revealed(table, number, revealed), ""
    if target == "offer":
        if table.kind == "discard":
            river = table.rivers[table.by]
            if not river or river[-1] != kind:
                if left < 1:
                    return table, _("All four %(tile)s are already used.") % {"tile": name}
                table = _with_river(table, table.by, river + (kind,))
        return _with_text(replace(table, offer=kind), "offer", TILE_IDS[kind]), ""
    if target == "drawn":
        return _with_text(replace(table, drawn=kind), "drawn", TILE_IDS[kind]), ""
    return table, _("That is not a tile.")


def untap(table: TableForm, target: str, index: int) -> TableForm:
    """The table without item ``index`` of ``target`` (a river's tile, a meld, a 亮倒 tile by kind; offer and drawn are cleared)."""
    if target in RIVER_KEYS:
        number = RIVER_KEYS.index(target)
        river = table.rivers[number]
        if 0 <= index < len(river):
            return _with_river(table, number, river[:index] + river[index + 1 :])
    elif target in MELD_KEYS:
        number = MELD_KEYS.index(target)
        melds = table.melds[number]
        if 0 <= index < len(melds):
            return _with_melds(table, number, melds[:index] + melds[index + 1 :])
    elif target in REVEALED_KEYS:
        number = REVEALED_KEYS.index(target)
        revealed = table.revealed[number]
        if revealed is not None and 0 <= index < NUM_KINDS and revealed[index]:
            less = with_tile(revealed, index, -1)
            return _with_revealed(table, number, less if any(less) else None)
    elif target in ("offer", "drawn"):
        return _with_text(replace(table, **{target: None}), target, "")
    return table


def last_index(table: TableForm, target: str) -> int:
    """The index ``untap`` takes to undo the last tile put at ``target`` (-1 when there is none)."""
    if target in RIVER_KEYS:
        return len(table.rivers[RIVER_KEYS.index(target)]) - 1
    if target in MELD_KEYS:
        return len(table.melds[MELD_KEYS.index(target)]) - 1
    if target in REVEALED_KEYS:
        revealed = table.revealed[REVEALED_KEYS.index(target)] or EMPTY
        return max((k for k in range(NUM_KINDS) if revealed[k]), default=-1)
    return 0


def _with_text(table: TableForm, key: str, text: str) -> TableForm:
    errors = {k: v for k, v in table.errors.items() if k != key}
    return replace(table, texts={**table.texts, key: text}, errors=errors)


def _with_tiles(table: TableForm, key: str, text: str) -> TableForm:
    """``_with_text`` for a change of the tiles on the table: a wall count typed before no longer holds, so it is dropped."""
    table = _with_text(table, key, text)
    return _with_text(replace(table, wall=None), "wall", "")


def _with_river(table: TableForm, number: int, river: tuple[int, ...]) -> TableForm:
    rivers = list(table.rivers)
    rivers[number] = river
    return _with_tiles(replace(table, rivers=tuple(rivers)), RIVER_KEYS[number], format_sequence(river))  # type: ignore[arg-type]


def _with_melds(table: TableForm, number: int, melds: tuple[Meld, ...]) -> TableForm:
    both = list(table.melds)
    both[number] = melds
    return _with_tiles(replace(table, melds=tuple(both)), MELD_KEYS[number], "".join(format_meld(m) for m in melds))  # type: ignore[arg-type]


def _with_revealed(table: TableForm, number: int, revealed: Counts | None) -> TableForm:
    both = list(table.revealed)
    both[number] = revealed
    text = format_counts(revealed) if revealed is not None else ""
    return _with_tiles(replace(table, revealed=tuple(both)), REVEALED_KEYS[number], text)  # type: ignore[arg-type]


TABLE_EDIT_KEYS = ("tadd", "tdel", "tundo")
"""The edits of the table: ``tadd`` (a tile, to the ``tto`` target), ``tdel`` (``r1.3``: item 3 of r1), ``tundo`` (the target's last)."""
DEFAULT_TARGET = "r1"
MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class TableRequest:
    """The table with the link's other estimate keys: the tap target ``tto``, ``seed``, ``advice=1`` and ``longer=1``."""

    table: TableForm
    target: str = DEFAULT_TARGET
    seed: int = 0
    advice: bool = False
    notice: str = ""
    longer: bool = False
    """``longer=1``: the estimate computed with ``ev_limits.LONGER`` times the work (the "compute longer" button)."""

    def pairs(self) -> list[tuple[str, str]]:
        """This request's part of the canonical query (nothing at all when no table key, target, seed or estimate is given)."""
        pairs = table_pairs(self.table)
        if self.target != DEFAULT_TARGET:
            pairs.append(("tto", self.target))
        if self.seed:
            pairs.append(("seed", str(self.seed)))
        if self.advice:
            pairs.append(("advice", "1"))
            if self.longer:
                pairs.append(("longer", "1"))
        return pairs


def read_request(query: QueryDict) -> TableRequest:
    """The table and its estimate keys from a query string (a bad seed gets a message under ``seed``)."""
    table = read_table(query)
    target = query.get("tto", DEFAULT_TARGET)
    seed_text = query.get("seed", "").strip()[:12]
    seed = 0
    if seed_text:
        if seed_text.isdecimal() and int(seed_text) <= MAX_SEED:
            seed = int(seed_text)
        else:
            table = replace(table, errors={**table.errors, "seed": _("Seed of the sampled worlds: must be a whole number from 0 to %(high)d.") % {"high": MAX_SEED}})
    advice = read_flag(query.get("advice", "")) is True
    longer = advice and read_flag(query.get("longer", "")) is True
    return TableRequest(table, target if target in ("hand", *TARGETS) else DEFAULT_TARGET, seed, advice, longer=longer)


def edit_table(request: TableRequest, query: QueryDict, seen: Counts) -> TableRequest:
    """The request after the query's table edit (``TABLE_EDIT_KEYS``; a tap aimed at the hand is the analyzer's own ``add``)."""
    table = request.table
    if "tdel" in query:
        target, _dot, index = query.get("tdel", "").partition(".")
        number = read_whole(index)
        if target in TARGETS and (number is not None or target in ("offer", "drawn")):
            table = untap(table, target, number or 0)
        return replace(request, table=table)
    if "tundo" in query:
        index = last_index(table, request.target)
        return replace(request, table=untap(table, request.target, index)) if index >= 0 else request
    if "tadd" in query and request.target != "hand":
        try:
            kind = parse_tile(query.get("tadd", "")[:10], "tadd")
        except EngineError:
            return replace(request, notice=_("That is not a tile."))
        table, notice = tap(table, request.target, kind, seen)
        return replace(request, table=table, notice=notice)
    return request


TARGET_NAMES: dict[str, str] = {
    "hand": gettext_noop("Your hand"),
    "r1": gettext_noop("下家 river"),
    "r2": gettext_noop("上家 river"),
    "r0": gettext_noop("Your river"),
    "m1": gettext_noop("下家 碰/杠"),
    "m2": gettext_noop("上家 碰/杠"),
    "l1": gettext_noop("下家 亮倒"),
    "l2": gettext_noop("上家 亮倒"),
    "offer": gettext_noop("Offered tile"),
    "drawn": gettext_noop("Drawn tile"),
}


def _meld_tiles(meld: Meld) -> list[str]:
    return list(meld_faces(meld.type, meld.tile))


def display(request: TableRequest, hand: Hand | None, seen: Counts, errors: dict[str, str]) -> dict[str, Any]:
    """What the table input shows: each seat's river, melds and 亮倒 tiles (with the edit that removes each), targets, palette, wall."""
    table = request.table
    seats = []
    for number in (1, 2, 0):
        river_key = RIVER_KEYS[number]
        seat: dict[str, Any] = {
            "number": number,
            "name": seat_name(number, 0),
            "river_key": river_key,
            "river_text": table.texts.get(river_key, ""),
            "river_label": label(river_key),
            "river": [
                {"tile": TILE_IDS[k], "remove": f"{river_key}.{i}", "offered": number == table.by and table.offer == k and table.kind == "discard" and i == len(table.rivers[number]) - 1}
                for i, k in enumerate(table.rivers[number])
            ],
            "errors": [errors[key] for key in (river_key,) if key in errors],
        }
        if number:
            meld_key, revealed_key = MELD_KEYS[number - 1], REVEALED_KEYS[number - 1]
            revealed = table.revealed[number - 1] or EMPTY
            seat |= {
                "meld_key": meld_key,
                "meld_text": table.texts.get(meld_key, ""),
                "meld_label": label(meld_key),
                "melds": [{"tiles": _meld_tiles(m), "remove": f"{meld_key}.{i}"} for i, m in enumerate(table.melds[number - 1])],
                "revealed_key": revealed_key,
                "revealed_text": table.texts.get(revealed_key, ""),
                "revealed_label": label(revealed_key),
                "revealed": [{"tile": TILE_IDS[k], "remove": f"{revealed_key}.{k}"} for k in range(NUM_KINDS) for _n in range(revealed[k])],
            }
            seat["errors"] += [errors[key] for key in (meld_key, revealed_key) if key in errors]
        seats.append(seat)
    wall = None
    if hand is not None and not table.errors:
        wall = position_of(hand, table).left_in_wall
    return {
        "table": table,
        "table_seats": seats,
        "table_target": request.target,
        "table_targets": [(key, _(TARGET_NAMES[key])) for key in ("hand", *TARGETS)],
        "table_palette": [{"tile": TILE_IDS[k], "left": max(0, COPIES - seen[k])} for k in range(NUM_KINDS)],
        "table_wall": wall,
        "table_errors": errors,
        "table_labels": {key: label(key) for key in ("wall", "offer", "by", "kind", "drawn")},
        "table_other_errors": [errors[key] for key in ("wall", "offer", "by", "kind", "drawn", "seed", "table", "hand") if key in errors],
        "table_request": request,
    }

"""Hand records ``kwx-hand/1`` (hand-record.md): read, write and replay one whole hand.

:func:`replay` reads a record's header, then plays its actions one by one through
``table.apply``; the first action the table refuses makes the record illegal at that
index (:class:`RecordError`). A legal record's facts (result, winners, kongs and their
杠上杠 chains, 亮倒) come from the final table state, never from flags, and its money
from ``settlement.settle`` — the one copy of kwx-rules §6.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from kwx.errors import EngineError, RecordError, gettext_noop
from kwx.hand.notation import format_counts, parse_tiles
from kwx.hand.rules import Rules, make_rules
from kwx.hand.tiles import COPIES, EMPTY, TILE_IDS, Counts, add
from kwx.rules import OptionValue
from kwx.table.settlement import MAX_BASE, MAX_NAME, PIAO_CHOICES, HandInput, Settlement, next_dealer, settle
from kwx.table.table import SEATS, Action, IllegalAction, Result, Table, apply, deal

FORMAT = "kwx-hand/1"
DEFAULT_PLAYERS = ("甲", "乙", "丙")
MAX_ACTIONS = 1000
"""No real hand comes near: 45 draws, as many discards, and a few claims."""
NAME_REFUSED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories a player's name may not hold: controls (NUL included), format marks, lone surrogates, line breaks."""
HEADER_KEYS = ("format", "rules", "options", "base", "piao", "players", "dealer", "hands", "dice", "actions")


@dataclass(frozen=True, slots=True)
class Header:
    """Everything a record says before its actions."""

    rules: str
    options: tuple[tuple[str, OptionValue], ...]
    base: int
    piao: tuple[int, int, int]
    players: tuple[str, str, str]
    dealer: int
    hands: tuple[Counts, Counts, Counts]
    dice: tuple[int, int] | None = None
    seat: int | None = None
    """The one seat whose view the record is (``kwx.table.seat_record``): the other hands are unknown, empty here. None: a full record."""

    @property
    def rule_set(self) -> Rules:
        """The preset and options as engine Rules (no situation); an option the header does not write takes the preset's value."""
        return make_rules(self.rules, (), dict(self.options))


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What a finished (or unfinished) hand did for one seat.

    Won, dealt in (fed the winning discard or robbed kong), declared 亮倒, its net.
    """

    won: bool
    dealt_in: bool
    liang_dao: bool
    net: int


@dataclass(frozen=True, slots=True)
class Replay:
    """A legal record played out.

    Every table state (after the deal and after each action), the settlement, the result and the next dealer.
    """

    record: Record
    states: tuple[Table, ...]
    settlement: Settlement
    result: Result | None
    next_dealer: int | None

    @property
    def header(self) -> Header:
        """The record's header."""
        return self.record.header

    @property
    def actions(self) -> tuple[Action, ...]:
        """The record's actions."""
        return self.record.actions

    @property
    def final(self) -> Table:
        """The state after the last action."""
        return self.states[-1]

    def seat_facts(self, seat: int) -> SeatFacts:
        """Whether ``seat`` won, dealt in, declared 亮倒, and its net money."""
        final = self.final
        feeder = final.turn if self.result in ("discard", "rob_kong") else None
        return SeatFacts(any(w.seat == seat for w in final.wins), feeder == seat, final.seats[seat].liang_dao, self.settlement.nets[seat])


def _header_error(template: str, field: str, **params: Any) -> RecordError:
    return RecordError(template, field, None, **params)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_header(data: Any, *, one_seat: bool = False) -> tuple[Header, list[Any]]:
    """Check a record's header; return it with the raw actions (not yet checked).

    ``one_seat``: a record of one seat's view (``"seat"``, the other hands ``null``).
    """
    if not isinstance(data, Mapping):
        raise _header_error(gettext_noop("The record must be a JSON object."), "body")
    unknown = sorted(str(k) for k in data if k not in HEADER_KEYS and not (one_seat and k == "seat"))
    if unknown:
        name = unknown[0][:40]
        raise _header_error(gettext_noop('Unknown field "%(name)s".'), name, name=name)
    if "format" in data and data["format"] != FORMAT:
        raise _header_error(gettext_noop('The format must be "%(format)s".'), "format", format=FORMAT)
    rules = data.get("rules", "standard")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise _header_error(gettext_noop("The options must be an object of rule options."), "options")
    try:
        values = make_rules(rules, (), options).options
    except EngineError as exc:
        raise _header_error(exc.template, exc.field, **exc.params) from exc
    base = data.get("base", 1)
    if not _whole(base) or not 1 <= base <= MAX_BASE:
        raise _header_error(gettext_noop("The base stake must be a whole number from 1 to %(limit)d."), "base", limit=MAX_BASE)
    piao = data.get("piao", [0, 0, 0])
    if not isinstance(piao, list) or len(piao) != 3 or not all(_whole(p) and p in PIAO_CHOICES for p in piao):
        raise _header_error(gettext_noop("漂 must be three numbers (0, 1, 2 or 5), one per seat."), "piao")
    players = data.get("players", list(DEFAULT_PLAYERS))
    if not isinstance(players, list) or len(players) != 3 or not all(isinstance(p, str) and p.strip() and len(p) <= MAX_NAME for p in players) or len(set(players)) != 3:
        raise _header_error(gettext_noop("The players must be three different names of 1 to %(limit)d characters."), "players", limit=MAX_NAME)
    for name in players:
        if any(unicodedata.category(c) in NAME_REFUSED for c in name):
            raise _header_error(gettext_noop("A player's name may not hold control or invisible characters: %(name)s."), "players", name=name)
    if "dealer" not in data:
        raise _header_error(gettext_noop("This field is required."), "dealer")
    dealer = data["dealer"]
    if not _whole(dealer) or dealer not in SEATS:
        raise _header_error(gettext_noop("The dealer must be seat 0, 1 or 2."), "dealer")
    seat = None
    if one_seat:
        seat = data.get("seat")
        if not _whole(seat) or seat not in SEATS:
            raise _header_error(gettext_noop("The seat must be 0, 1 or 2: the seat whose view the record holds."), "seat")
    hands = _hands(data.get("hands"), seat)
    dice = data.get("dice")
    if dice is not None and (not isinstance(dice, list) or len(dice) != 2 or not all(_whole(d) and 1 <= d <= 6 for d in dice)):
        raise _header_error(gettext_noop("The dice must be two numbers from 1 to 6."), "dice")
    if dice is None and values.shang_lou:
        raise _header_error(gettext_noop("These rules play 上楼: the record needs the deal's dice (dice: [d1, d2])."), "dice")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise _header_error(gettext_noop("The actions must be a list."), "actions")
    if len(actions) > MAX_ACTIONS:
        raise _header_error(gettext_noop("A hand has at most %(limit)d actions."), "actions", limit=MAX_ACTIONS)
    header = Header(
        rules,
        tuple(sorted(options.items())),
        base,
        (piao[0], piao[1], piao[2]),
        (players[0], players[1], players[2]),
        dealer,
        hands,
        None if dice is None else (dice[0], dice[1]),
        seat,
    )
    return header, actions


def _hands(value: Any, known: int | None = None) -> tuple[Counts, Counts, Counts]:
    """The three dealt hands: 13 tiles each, no kind more than four times in all.

    ``known``: only that seat's, the others ``null`` and read as empty.
    """
    if not isinstance(value, list) or len(value) != 3:
        raise _header_error(gettext_noop("The hands must be a list of three hands of 13 tiles."), "hands")
    hands = []
    for seat, text in enumerate(value):
        if known is not None and seat != known:
            if text is not None:
                raise _header_error(gettext_noop("Seat %(seat)d's hand is not seen from seat %(known)d: write null."), "hands", seat=seat, known=known)
            hands.append(EMPTY)
            continue
        if not isinstance(text, str) or len(text) > 200:
            raise _header_error(gettext_noop("Seat %(seat)d's hand must be tile text such as 4556p123s789sZZZ."), "hands", seat=seat)
        try:
            counts = parse_tiles(text, "hands")
        except EngineError as exc:
            raise _header_error(exc.template, "hands", **exc.params) from exc
        if sum(counts) != 13:
            raise _header_error(gettext_noop("Seat %(seat)d is dealt %(count)d tiles; every seat is dealt 13."), "hands", seat=seat, count=sum(counts))
        hands.append(counts)
    total = add(add(hands[0], hands[1]), hands[2])
    for kind, n in enumerate(total):
        if n > COPIES:
            raise _header_error(gettext_noop("The hands hold %(count)d %(tile)s; there are only four."), "hands", count=n, tile=TILE_IDS[kind])
    return hands[0], hands[1], hands[2]


@dataclass(frozen=True, slots=True)
class Record:
    """One whole hand as ``kwx-hand/1`` holds it: the header and the actions, shape-checked.

    Legality is the table's: :meth:`replay`.
    """

    header: Header
    actions: tuple[Action, ...] = ()

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Read a record's JSON (raises RecordError naming the field, and the action's index, at the first fault of shape)."""
        header, raw_actions = parse_header(data)
        return cls(header, tuple(Action.from_dict(raw, index) for index, raw in enumerate(raw_actions)))

    def to_json(self) -> dict[str, Any]:
        """The ``kwx-hand/1`` JSON of the record."""
        h = self.header
        return {
            "format": FORMAT,
            "rules": h.rules,
            "options": dict(h.options),
            "base": h.base,
            "piao": list(h.piao),
            "players": list(h.players),
            "dealer": h.dealer,
            "hands": [format_counts(c) for c in h.hands],
            **({"dice": list(h.dice)} if h.dice is not None else {}),
            "actions": [a.as_dict() for a in self.actions],
        }

    def start(self, wall: tuple[int, ...] | None = None) -> Table:
        """The table right after the deal (``wall``: the order of the tiles to draw, when known)."""
        h = self.header
        return deal(h.hands, h.dealer, h.rule_set, wall, base=h.base, piao=h.piao, dice=h.dice)

    def states(self, wall: tuple[int, ...] | None = None) -> tuple[Table, ...]:
        """The table after the deal and after each action (raises RecordError at the first illegal action)."""
        state = self.start(wall)
        out = [state]
        for index, action in enumerate(self.actions):
            try:
                state = apply(state, action)
            except IllegalAction as exc:
                raise RecordError(exc.template, "actions", index, **exc.params) from exc
            out.append(state)
        return tuple(out)

    def replay(self, wall: tuple[int, ...] | None = None) -> Replay:
        """Play the record through the table: every state, the settlement, the result and the next dealer."""
        return finish(self, self.states(wall))

    def append(self, *actions: Action) -> Record:
        """The record with ``actions`` after its own (not checked: :meth:`replay` checks)."""
        return Record(self.header, self.actions + actions)


def replay(data: Any) -> Replay:
    """Check and play a record's JSON; its facts and settlement (raises RecordError at the first fault)."""
    return Record.from_json(data).replay()


def finish(record: Record, states: tuple[Table, ...]) -> Replay:
    """The Replay of a record whose table states (the deal's first, one after each action) are ``states``."""
    state = states[-1]
    header = record.header
    settlement = settle_table(state, header.players, header.base, header.piao, header.dice)
    following = None if state.result is None else next_dealer(settlement, header.dealer)
    return Replay(record, states, settlement, state.result, following)


def settle_table(
    state: Table,
    players: tuple[str, str, str],
    base: int,
    piao: tuple[int, int, int],
    dice: tuple[int, int] | None = None,
) -> Settlement:
    """The money of a table state under its rules: its wins, kongs and 亮倒 (kong money alone while unfinished)."""
    result = state.result
    inp = HandInput(players, base, piao, state.rules.preset.key, state.rules.options.items(), state.kongs, dice=dice if dice is not None else state.dice)
    if result is None:  # an unfinished hand: kong money only (the wall has not run out: no drawn-hand payment, 查大叫 or other)
        return replace(settle(replace(inp, options=inp.options + (("hua_zhuang", "none"),))), input=inp, rules=state.rules.options)
    if result == "draw":
        hands = tuple(s.hand for s in state.seats) if state.rules.options.cha_da_jiao else ()
        return settle(replace(inp, liang_dao=state.declaration_order, hands=hands))
    winners = tuple(w.winner for w in state.wins)
    discarder = None if result == "self_draw" else state.turn
    return settle(replace(inp, liang_dao=state.declaration_order, result=result, discarder=discarder, winners=winners, wall_left=state.wall_left, horses=state.horses), state.wins)

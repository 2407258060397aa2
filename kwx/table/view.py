"""What one seat may know of the table, and what it may choose now.

A :class:`SeatView` is the table seen from one chair: the seat's own concealed tiles (the
tile it just drew among them, and apart as ``kind`` in the ``act`` phase), every river in
order, every meld, the hands revealed by 亮倒 with their locked waits, how many tiles each
other seat holds, the wall count, the kongs and wins made, the tile on offer and the seat's
:class:`Decision`. It holds nothing the seat cannot see: no other seat's concealed tiles
(unless revealed), no wall order, no other seat's 漏胡 bar.

:func:`view_for` is the only function that reads a :class:`~kwx.table.table.Table`'s
hidden state to make a view; bots see the table only through views (``selfplay.Policy``),
and rollouts deal a full table back from a view (``kwx.table.advice.sample_world``).

>>> from kwx.table.selfplay import seeded_deal
>>> from kwx.table.table import apply, deal, Action
>>> from kwx.hand.rules import make_rules
>>> d = seeded_deal(7)
>>> t = deal(d.hands, d.dealer, make_rules("standard"), d.wall)
>>> t = apply(t, Action(0, "draw", d.wall[0]))
>>> v = view_for(t, 0)
>>> v.phase, sum(v.concealed), v.drawn_tile == d.wall[0], v.seats[1].tiles
('act', 14, True, 13)
>>> view_for(t, 1).decision.options
()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from kwx.errors import EngineError, gettext_noop
from kwx.hand.notation import format_counts, parse_tile, parse_tiles
from kwx.hand.rules import Rules, stored_rules
from kwx.hand.tiles import COPIES, NUM_KINDS, TILE_IDS, Counts, Hand, Meld, MeldType
from kwx.table.settlement import Kong, Win
from kwx.table.table import (
    SEATS,
    WALL_AFTER_DEAL,
    Action,
    Phase,
    Table,
    face_up,
    forced_kong,
    legal_actions,
    win_for,
)

FORMAT = "kwx-view/1"


@dataclass(frozen=True, slots=True)
class Decision:
    """What a seat may choose now: its legal actions (never a draw) and whether it may pass (过, on another seat's tile)."""

    options: tuple[Action, ...] = ()
    may_pass: bool = False

    @property
    def choices(self) -> tuple[Action | None, ...]:
        """Every choice, passing (None) last when it is one."""
        return self.options + ((None,) if self.may_pass else ())

    def allows(self, choice: Action | None) -> bool:
        """Whether ``choice`` (None: 过) is one of the choices."""
        return self.may_pass if choice is None else choice in self.options

    @property
    def is_open(self) -> bool:
        """Whether the seat has anything to decide."""
        return bool(self.options)


NO_DECISION = Decision()


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """What every chair sees of one seat.

    Its river in order, its melds, how many tiles it holds concealed, and after 亮倒 its revealed tiles (the face-up
    ones), how many triplets it keeps face down (半亮) and its locked waits.
    """

    river: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()
    tiles: int = 13
    liang_dao: bool = False
    revealed: Counts | None = None
    waits: frozenset[int] = frozenset()
    kou: int = 0


@dataclass(frozen=True)
class SeatView:
    """The table from ``seat``'s chair (see the module docstring); immutable, with the seat's :class:`Decision`.

    ``kind`` is the tile in play when the seat may see it: the tile it just drew (``act`` on
    its own turn), the discard on offer (``claim``) or the tile being added to a pong
    (``rob``); None otherwise (another seat's draw is not seen). ``concealed`` holds the seat's
    own concealed tiles, the drawn one included; ``ready_on`` what its 13 tiles wait on (kept
    by the table between turns) and ``passed`` its own 漏胡 bar. ``rules`` (the preset and every
    option), the stakes (``base``, ``piao``), the dice of 上楼, the order of the 亮倒 declarations
    and the horses turned are what the seat knows of the money it plays for.
    """

    seat: int
    rules: Rules
    dealer: int
    phase: Phase
    turn: int
    kind: int | None
    drawn: int
    seats: tuple[PublicSeat, PublicSeat, PublicSeat]
    concealed: Counts
    replacement: int = 0
    after_kong: int = 0
    passed: int = 0
    ready_on: frozenset[int] = frozenset()
    kongs: tuple[Kong, ...] = ()
    wins: tuple[Win, ...] = ()
    decision: Decision = field(default=NO_DECISION)
    declared: tuple[int, ...] = ()
    base: int = 1
    piao: tuple[int, int, int] = (0, 0, 0)
    dice: tuple[int, int] | None = None
    horses: tuple[int, ...] | None = None

    # ------------------------------------------------------------ what the seat holds

    @property
    def me(self) -> PublicSeat:
        """The seat's own public part (river, melds, 亮倒)."""
        return self.seats[self.seat]

    @property
    def kou(self) -> frozenset[int]:
        """The triplets the seat itself keeps face down since its 亮倒 (半亮): held, not among the tiles it shows."""
        shown = self.me.revealed
        if shown is None or not self.me.kou:
            return frozenset()
        return frozenset(k for k, n in enumerate(self.concealed) if n - shown[k] == 3)

    @cached_property
    def hand(self) -> Hand:
        """The seat's concealed tiles and melds."""
        return Hand(self.concealed, self.me.melds)

    @property
    def options(self) -> tuple[Action, ...]:
        """The seat's legal actions now (``decision.options``)."""
        return self.decision.options

    def discard(self, kind: int, liang_dao: bool = False) -> Action:
        """The discard of ``kind``; a 亮倒 keeps face down as many triplets as the options allow (半亮)."""
        plain = Action(self.seat, "discard", kind, liang_dao)
        if not liang_dao:
            return plain
        declaring = (a for a in self.options if a.verb == "discard" and a.kind == kind and a.liang_dao)
        return max(declaring, key=lambda a: len(a.kou), default=plain)

    @property
    def drawn_tile(self) -> int | None:
        """The tile the seat has just drawn, on its own turn (None otherwise)."""
        return self.kind if self.phase == "act" and self.turn == self.seat else None

    @property
    def offered(self) -> tuple[int, int] | None:
        """(seat, kind) of another seat's tile the seat may claim: a discard (``claim``) or a tile added to a pong (``rob``)."""
        if self.phase in ("claim", "rob") and self.turn != self.seat and self.kind is not None:
            return self.turn, self.kind
        return None

    @property
    def wall_left(self) -> int:
        """Tiles still to draw."""
        return WALL_AFTER_DEAL - self.drawn

    def others(self) -> tuple[int, int]:
        """The other two seats: the next (下家), then the one before (上家)."""
        return (self.seat + 1) % 3, (self.seat + 2) % 3

    # ------------------------------------------------------------ what the seat has seen

    @cached_property
    def seen(self) -> Counts:
        """Tiles the seat has seen: its own, every river and meld, the hands revealed by 亮倒 and a tile being added to a pong."""
        return tuple(min(n, COPIES) for n in self.shown)

    @cached_property
    def shown(self) -> Counts:
        """The copies :attr:`seen` counts, before the cap at four (passed only by a described position that does not fit)."""
        counts = list(self.concealed)
        for other, s in enumerate(self.seats):
            for kind in s.river:
                counts[kind] += 1
            for meld in s.melds:
                counts[meld.kind] += meld.type.size
            if other != self.seat and s.revealed is not None:
                for kind in range(NUM_KINDS):
                    counts[kind] += s.revealed[kind]
        if self.phase == "rob" and self.kind is not None and self.turn != self.seat and not self.seats[self.turn].liang_dao:
            counts[self.kind] += 1  # the tile being added is shown
        return tuple(counts)

    @cached_property
    def visible(self) -> Counts:
        """The tiles the seat has seen outside its own hand and melds (the analysis's ``visible``)."""
        return self.visible_beside(self.hand)

    def visible_beside(self, hand: Hand) -> Counts:
        """The tiles seen outside ``hand``, a hand one of the seat's choices leaves: what was seen stays seen.

        A discard goes to the river, a claimed tile from a river into a meld, counted once.
        """
        held = hand.held
        return tuple(max(0, n - h) for n, h in zip(self.seen, held))

    @cached_property
    def visible_unrevealed(self) -> Counts:
        """The tiles seen outside the seat's hand and the hands revealed by 亮倒 (an analysis takes those hands apart)."""
        counts = self.visible
        for other in self.others():
            hand = self.revealed_hand(other)
            if hand is not None:
                counts = tuple(max(0, n - h) for n, h in zip(counts, hand.held))
        return counts

    @property
    def unseen(self) -> int:
        """How many tiles the seat has not seen (the other hidden hands and the wall)."""
        return COPIES * NUM_KINDS - sum(self.seen)

    def revealed_hand(self, seat: int) -> Hand | None:
        """The hand another seat revealed by 亮倒 (concealed tiles and melds), None while it is hidden.

        Triplets it keeps face down (半亮) are unknown: they are read as the first kinds of which the
        seat has not seen three copies and that keep the declared waits (the only ones it can hold).
        """
        s = self.seats[seat]
        if s.revealed is None:
            return None
        counts = list(s.revealed)
        seen = self.seen
        for _ in range(s.kou):
            for kind in range(NUM_KINDS):
                if COPIES - seen[kind] - counts[kind] >= 3:
                    trial = counts.copy()
                    trial[kind] += 3
                    if Hand(tuple(trial), s.melds).winning_kinds() == s.waits:
                        counts = trial
                        break
        return Hand(tuple(counts), s.melds)

    def win(self) -> Win | None:
        """The win the seat's tiles make on the tile in play now (its draw, the discard or the robbed tile), legal or not.

        None if they do not win.
        """
        kind = self.kind
        if kind is None:
            return None
        if self.phase == "act" and self.turn == self.seat:
            hand = Hand(tuple(n - (k == kind) for k, n in enumerate(self.concealed)), self.me.melds)
            side: Literal["self_draw", "discard"] = "self_draw"
        elif self.phase in ("claim", "rob") and self.turn != self.seat:
            hand = self.hand
            side = "discard"
        else:
            return None
        if kind not in self.ready_on:
            return None
        return win_for(self.rules, self.seat, hand, kind, side, self.phase, self.after_kong, self.drawn, self.me.liang_dao)

    # ------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (``kwx-view/1``): what a drill stores and a client may be sent; :meth:`from_json` reads it back."""
        if self.wins:
            raise ValueError("a view after a win is not stored")
        extra: dict[str, Any] = {}
        if self.declared and self.declared != tuple(sorted(self.declared)):
            extra["declared"] = list(self.declared)
        if self.base != 1:
            extra["base"] = self.base
        if any(self.piao):
            extra["piao"] = list(self.piao)
        if self.dice is not None:
            extra["dice"] = list(self.dice)
        return {
            "format": FORMAT,
            "seat": self.seat,
            "rules": self.rules.preset.key,
            "options": self.rules.record_options(),
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "tile": TILE_IDS[self.kind] if self.kind is not None else None,
            "drawn": self.drawn,
            "replacement": self.replacement,
            "after_kong": self.after_kong,
            "hand": format_counts(self.concealed),
            "passed": self.passed,
            "ready_on": [TILE_IDS[k] for k in sorted(self.ready_on)],
            "seats": [_seat_json(s) for s in self.seats],
            "kongs": [_kong_json(k) for k in self.kongs],
            "decision": {"options": [a.as_dict() for a in self.decision.options], "may_pass": self.decision.may_pass},
            **extra,
        }

    @classmethod
    def from_json(cls, data: Any) -> SeatView:
        """A view from its JSON form (raises EngineError naming the field at fault)."""
        try:
            return _view_from_json(data)
        except EngineError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise EngineError(gettext_noop("Not a seat view: %(problem)s."), "view", problem=str(exc)[:80]) from exc


def _kong_json(k: Kong) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": k.seat, "type": k.type, "tile": TILE_IDS[k.kind], "fed_by": k.fed_by, "chain": k.chain}
    if not k.drawn:
        out["drawn"] = False  # an 暗杠 of tiles already held (written only then: every view stored before reads the same)
    return out


def _seat_json(s: PublicSeat) -> dict[str, Any]:
    out: dict[str, Any] = {"river": [TILE_IDS[k] for k in s.river], "melds": [m.as_dict() for m in s.melds], "tiles": s.tiles}
    if s.liang_dao:
        out["liang_dao"] = True
        out["revealed"] = format_counts(s.revealed) if s.revealed is not None else None
        out["waits"] = [TILE_IDS[k] for k in sorted(s.waits)]
        if s.kou:
            out["kou"] = s.kou
    return out


def _kinds(values: Any, name: str) -> tuple[int, ...]:
    if not isinstance(values, list):
        raise EngineError(gettext_noop("Not a seat view: %(problem)s."), name, problem=f"{name} must be a list")
    return tuple(parse_tile(v, name) for v in values)


def _view_from_json(data: Any) -> SeatView:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EngineError(gettext_noop("Not a seat view: %(problem)s."), "view", problem=f'format must be "{FORMAT}"')
    rules = stored_rules(data["rules"], data.get("options") or {})
    seats = []
    for raw in data["seats"]:
        melds = tuple(Meld(MeldType(m["type"]), parse_tile(m["tile"], "melds")) for m in raw["melds"])
        revealed = parse_tiles(raw["revealed"], "revealed") if raw.get("revealed") else None
        seats.append(
            PublicSeat(_kinds(raw["river"], "river"), melds, int(raw["tiles"]), bool(raw.get("liang_dao")), revealed, frozenset(_kinds(raw.get("waits", []), "waits")), int(raw.get("kou", 0)))
        )
    kongs = tuple(Kong(k["seat"], k["type"], parse_tile(k["tile"], "kongs"), k["fed_by"], k["chain"], bool(k.get("drawn", True))) for k in data.get("kongs", []))
    decision = data.get("decision") or {}
    options = tuple(Action.from_dict(a, i) for i, a in enumerate(decision.get("options", [])))
    tile = data.get("tile")
    return SeatView(
        seat=int(data["seat"]),
        rules=rules,
        dealer=int(data["dealer"]),
        phase=data["phase"],
        turn=int(data["turn"]),
        kind=parse_tile(tile, "tile") if tile else None,
        drawn=int(data["drawn"]),
        seats=(seats[0], seats[1], seats[2]),
        concealed=parse_tiles(data["hand"], "hand"),
        replacement=int(data.get("replacement", 0)),
        after_kong=int(data.get("after_kong", 0)),
        passed=int(data.get("passed", 0)),
        ready_on=frozenset(_kinds(data.get("ready_on", []), "ready_on")),
        kongs=kongs,
        decision=Decision(options, bool(decision.get("may_pass", False))),
        declared=tuple(int(x) for x in data.get("declared", ())) or tuple(i for i, p in enumerate(seats) if p.liang_dao),
        base=int(data.get("base", 1)),
        piao=_three(data.get("piao", (0, 0, 0))),
        dice=(int(data["dice"][0]), int(data["dice"][1])) if data.get("dice") else None,
    )


def _three(values: Any) -> tuple[int, int, int]:
    a, b, c = (int(v) for v in values)
    return a, b, c


# ---------------------------------------------------------------- the one reader of hidden state


def decision_for(state: Table, seat: int, legal: tuple[Action, ...] | None = None) -> Decision:
    """What ``seat`` may choose in ``state``: its own turn's actions, or its claims on another seat's tile and passing.

    No choices once the hand is over.
    """
    phase = state.phase
    if phase in ("act", "pong"):
        if state.turn != seat or (state.wins and state.wins[0].side == "self_draw"):
            return NO_DECISION
    elif phase not in ("claim", "rob") or seat == state.turn:
        return NO_DECISION
    options = tuple(a for a in (legal_actions(state) if legal is None else legal) if a.seat == seat and a.verb not in ("draw", "horses"))
    forced = forced_kong(state)
    return Decision(options, bool(options) and phase in ("claim", "rob") and (forced is None or forced.seat != seat))


def view_for(state: Table, seat: int, legal: tuple[Action, ...] | None = None, open_hands: bool = False) -> SeatView:
    """What ``seat`` sees of ``state`` and may choose (``legal``: the state's legal actions, when the caller has them).

    ``open_hands`` shows every seat's concealed tiles as ``revealed`` (``liang_dao`` stays what
    it is): for a finished hand only — its end and its review — never for a decision.
    """
    if seat not in SEATS:
        raise ValueError(f"no seat {seat}")
    seats = [
        PublicSeat(s.river, s.melds, sum(s.concealed), s.liang_dao, s.concealed if open_hands else face_up(s) if s.liang_dao else None, s.waits, 0 if open_hands else len(s.kou)) for s in state.seats
    ]
    own = state.seats[seat]
    sees_tile = state.phase in ("claim", "rob") or (state.phase == "act" and state.turn == seat)
    return SeatView(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        phase=state.phase,
        turn=state.turn,
        kind=state.tile if sees_tile else None,
        drawn=state.drawn,
        seats=(seats[0], seats[1], seats[2]),
        concealed=own.concealed,
        replacement=state.replacement,
        after_kong=state.after_kong,
        passed=own.passed,
        ready_on=own.ready_on,
        kongs=state.kongs,
        wins=state.wins,
        decision=decision_for(state, seat, legal),
        declared=state.declaration_order,
        base=state.base,
        piao=state.piao,
        dice=state.dice,
        horses=state.horses,
    )

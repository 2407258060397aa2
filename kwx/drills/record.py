"""A table drill's bank record, typed: :class:`TableDrill` and its parts, read from and written to the bank's JSON.

``puzzles/data/table_bank.json.gz`` holds one JSON object a drill (docs/drills.md): the position
(``hand``, ``melds``, ``visible``, the stored view ``table``), the choices it played out in the
order played (each in the record form of ``kwx-hand/1``), each answer's row (mean, standard error,
whether it is right, the hand it leaves), the margin of the worlds that confirmed it and of those
that selected it, where it came from and its rating. :meth:`TableDrill.from_json` and
:meth:`TableDrill.to_json` read and write that object exactly: ``to_json(from_json(x)) == x``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kwx.hand.notation import parse_tile
from kwx.hand.tiles import Meld, MeldType
from kwx.table.table import Action
from kwx.table.view import SeatView

Wait = tuple[str, int, int, int]
"""A wait of a ready hand: its tile, the copies left, the self-draw total and the discard total (0: not allowed)."""


def choice_json(choice: Action | None) -> dict[str, Any]:
    """A drill's choice as its record stores it: the record form of ``kwx-hand/1`` (``{"pass": true}`` for 过)."""
    return {"pass": True} if choice is None else choice.as_dict()


def choice_from(data: dict[str, Any]) -> Action | None:
    """A stored choice back (None: 过)."""
    return None if data.get("pass") else Action.from_dict(data)


def answer_of(choice: Action | None, kind: str) -> str:
    """A choice as the answer the page posts: pong, kong, pass, declare, hidden, or a tile id (defence)."""
    if choice is None:
        return "pass"
    if kind == "declare":
        return "declare" if choice.liang_dao else "hidden"
    if kind == "defence":
        return choice.tile
    if choice.verb in ("pong", "kong"):
        return choice.verb
    return "pass"  # 杠不杠 on one's own turn: not konging is the strong bot's discard


@dataclass(frozen=True, slots=True)
class AnswerRow:
    """One answer of a drill as its page shows it: its mean, whether it is right, and the hand it leaves.

    ``then`` is the judge's discard after a pong; ``kong_type``, ``discard`` and ``liang_dao`` say
    what the choice does beyond its answer; ``dangerous`` that it deals into a revealed hand.
    """

    answer: str
    mean: float
    se: float
    right: bool
    shanten: int
    ukeire: int
    waits: tuple[Wait, ...] | None = None
    then: str | None = None
    kong_type: str | None = None
    discard: str | None = None
    liang_dao: bool = False
    dangerous: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerRow:
        """A row from the record's JSON."""
        waits = data.get("waits")
        return cls(
            data["answer"],
            data["mean"],
            data["se"],
            data["right"],
            data["shanten"],
            data["ukeire"],
            None if waits is None else tuple((w[0], w[1], w[2], w[3]) for w in waits),
            data.get("then"),
            data.get("kong_type"),
            data.get("discard"),
            bool(data.get("liang_dao")),
            bool(data.get("dangerous")),
        )

    def to_json(self) -> dict[str, Any]:
        """The row as the record stores it (a key left out when it says nothing)."""
        out: dict[str, Any] = {"answer": self.answer, "mean": self.mean, "se": self.se, "right": self.right, "shanten": self.shanten, "ukeire": self.ukeire}
        if self.waits is not None:
            out["waits"] = [list(w) for w in self.waits]
        for key, value in (("then", self.then), ("kong_type", self.kong_type), ("discard", self.discard)):
            if value is not None:
                out[key] = value
        if self.liang_dao:
            out["liang_dao"] = True
        if self.dangerous:
            out["dangerous"] = True
        return out


@dataclass(frozen=True, slots=True)
class Figures:
    """The margin of a set of worlds: the best minus the best clearly worse choice, and the worlds it was measured on.

    The confirming worlds' margin also names the rule (``sigmas``, ``money``) and, once
    confirmed, the ``policy``; the selecting worlds' (``selection``) the answers they accepted.
    """

    diff: float
    se: float
    worlds: int
    rollouts: int
    sigmas: float | None = None
    money: float | None = None
    policy: str | None = None
    accepted: tuple[str, ...] | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Figures:
        """A margin from the record's JSON."""
        accepted = data.get("accepted")
        return cls(data["diff"], data["se"], data["worlds"], data["rollouts"], data.get("sigmas"), data.get("money"), data.get("policy"), None if accepted is None else tuple(accepted))

    def to_json(self) -> dict[str, Any]:
        """The margin as the record stores it."""
        out: dict[str, Any] = {"diff": self.diff, "se": self.se, "worlds": self.worlds, "rollouts": self.rollouts}
        for key, value in (("sigmas", self.sigmas), ("money", self.money), ("policy", self.policy)):
            if value is not None:
                out[key] = value
        if self.accepted is not None:
            out["accepted"] = list(self.accepted)
        return out


@dataclass(frozen=True, slots=True)
class Source:
    """Where a drill came from: its index of its kind, the attempt (deal) that gave it and that deal's seed."""

    index: int
    attempt: int
    seed: int


@dataclass(frozen=True, slots=True)
class TableDrill:
    """A table drill's bank record (see the module docstring); ``selection`` is None until the drill is confirmed."""

    key: str
    kind: str
    hand: str
    melds: tuple[Meld, ...]
    visible: str
    rules: str
    situation: tuple[str, ...]
    turn: int
    wall_left: int
    table: SeatView
    choices: tuple[Action | None, ...]
    accepted: tuple[str, ...]
    options: tuple[AnswerRow, ...]
    danger: tuple[tuple[str, float], ...]
    margin: Figures
    source: Source
    themes: tuple[str, ...]
    rating: int
    selection: Figures | None = None

    def dangerous(self) -> frozenset[int]:
        """The indices (in the played order) of the choices that deal into a revealed hand, as the rows say."""
        rows = {o.answer: o for o in self.options}
        return frozenset(i for i, c in enumerate(self.choices) if rows[answer_of(c, self.kind)].dangerous)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableDrill:
        """A drill from its bank record."""
        selection = data.get("selection")
        source = data["source"]
        return cls(
            key=data["key"],
            kind=data["kind"],
            hand=data["hand"],
            melds=tuple(Meld(MeldType(m["type"]), parse_tile(m["tile"], "melds")) for m in data["melds"]),
            visible=data["visible"],
            rules=data["rules"],
            situation=tuple(data["situation"]),
            turn=data["turn"],
            wall_left=data["wall_left"],
            table=SeatView.from_json(data["table"]),
            choices=tuple(choice_from(c) for c in data["choices"]),
            accepted=tuple(data["accepted"]),
            options=tuple(AnswerRow.from_json(o) for o in data["options"]),
            danger=tuple((d[0], d[1]) for d in data["danger"]),
            margin=Figures.from_json(data["margin"]),
            source=Source(source["index"], source["attempt"], source["seed"]),
            themes=tuple(data["themes"]),
            rating=data["rating"],
            selection=None if selection is None else Figures.from_json(selection),
        )

    def to_json(self) -> dict[str, Any]:
        """The bank record (JSON) of the drill."""
        out: dict[str, Any] = {
            "key": self.key,
            "kind": self.kind,
            "hand": self.hand,
            "melds": [m.as_dict() for m in self.melds],
            "visible": self.visible,
            "rules": self.rules,
            "situation": list(self.situation),
            "turn": self.turn,
            "wall_left": self.wall_left,
            "table": self.table.to_json(),
            "choices": [choice_json(c) for c in self.choices],
            "accepted": list(self.accepted),
            "options": [o.to_json() for o in self.options],
            "danger": [list(d) for d in self.danger],
            "margin": self.margin.to_json(),
            "source": {"index": self.source.index, "attempt": self.source.attempt, "seed": self.source.seed},
            "themes": list(self.themes),
            "rating": self.rating,
        }
        if self.selection is not None:
            out["selection"] = self.selection.to_json()
        return out

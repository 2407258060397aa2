"""The boosted bot with one of its margins shifted, for the paired probes of docs/bots.md ("Probing the boosted bot's margins").

Not a bot of the site: a seat of ``manage.py tournament`` named ``bench.probes:Probe``, its shifts read from
the environment variable ``KWX_PROBE`` (``name=value`` pairs, comma-separated; none: the boosted bot as shipped):

- ``ready``, ``reveal``, ``throw_hidden`` — factors on the strong bot's figures of hidden opponents: the share of
  them ready, the share declaring 亮倒 at each river length (at most 1), and how often a seat throws a hidden
  hand's waits (1 as shipped; the trees read what the figures then give);
- ``trees`` — the factor on the trees' correction of a discard (1 as shipped);
- ``declare`` — money added to every discard that declares 亮倒;
- ``declare_beside_revealed`` — money added to a discard that declares 亮倒 while an opponent has declared;
- ``pong`` — money added to 碰 against 过 (the corrected worth of passing lowered by it);
- ``kong`` — money added to every kong against its alternative (the strong bot's kong worth);
- ``pass_win`` — pass a discard win of a hidden hand when the hand kept is worth this many times the win (never, as shipped).

    KWX_PROBE=declare=-1.5 .venv/bin/python manage.py tournament --hands 12000 --seed 4680 --jobs 2 \\
        --seats bench.probes:Probe,companion,companion --paired boosted

A second seat, ``bench.probes:OtherTrees``, is the boosted bot with the trees of another fit's file
(``KWX_TREES``: a path, or several joined by ``+``, their trees averaged), for the refits of docs/bots.md
("A fourth round, its size held").
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from kwx.bots.boosted import Boosted, Trees, features, load_trees
from kwx.bots.judge import BoostedJudgeBot
from kwx.bots.money import pay
from kwx.bots.strong import Choice, StrongBot
from kwx.hand.efficiency import Efficiency
from kwx.hand.tiles import Hand
from kwx.table.table import Action
from kwx.table.view import SeatView

SHIFTS = {"ready": 1.0, "reveal": 1.0, "throw_hidden": 1.0, "trees": 1.0, "declare": 0.0, "declare_beside_revealed": 0.0, "pong": 0.0, "kong": 0.0, "pass_win": math.inf}
"""Every shift a probe takes, with its value as shipped."""


def parse(text: str) -> dict[str, float]:
    """The shifts of a ``KWX_PROBE`` value, every other one as shipped (ValueError naming the pair at fault)."""
    shifts = dict(SHIFTS)
    for pair in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = pair.partition("=")
        if not sep or name not in SHIFTS:
            raise ValueError(f"KWX_PROBE: {pair!r} is not name=value with a name of {', '.join(SHIFTS)}")
        try:
            shifts[name] = float(value)
        except ValueError:
            raise ValueError(f"KWX_PROBE: {pair!r}: {value!r} is not a number") from None
    return shifts


class ProbeEvaluator(Boosted):
    """The boosted evaluator with its margins shifted by ``shifts`` (and other ``trees`` than the shipped, if given)."""

    def __init__(self, shifts: Mapping[str, float], trees: Trees | None = None) -> None:
        super().__init__(trees)
        self.shifts = dict(shifts)
        f = self.figures
        sh = self.shifts
        self.figures = replace(
            f,
            ready=tuple(tuple(x * sh["ready"] for x in row) for row in f.ready),
            reveal=tuple(tuple(min(1.0, x * sh["reveal"]) for x in row) for row in f.reveal),
            throw={k: v * (sh["throw_hidden"] if k.startswith("hidden") else 1.0) for k, v in f.throw.items()},
        )

    def corrected(self, view: SeatView, choice: Choice, results: dict[int, Efficiency], hand: Hand | None = None) -> float:
        """The shipped corrected worth, the trees' part scaled and a 亮倒 shifted."""
        if hand is not None:
            return super().corrected(view, choice, results, hand)
        s = self.shifts
        worth: float = choice.worth + s["trees"] * self.trees.predict(features(self, view, choice, results))
        if choice.liang_dao:
            worth += s["declare"] + (s["declare_beside_revealed"] if any(view.seats[o].liang_dao for o in view.others()) else 0.0)
        return worth

    def _kong_worth(self, view: SeatView, kind: int) -> float:
        return super()._kong_worth(view, kind) + self.shifts["kong"]

    def passing(self, view: SeatView) -> float:
        """The shipped worth of passing a claim, less the pong shift."""
        return super().passing(view) - self.shifts["pong"]


class Probe(BoostedJudgeBot):
    """The boosted bot with the shifts of ``KWX_PROBE``."""

    name = "probe"

    @staticmethod
    def default_evaluator() -> StrongBot:
        """The shifted evaluator."""
        return ProbeEvaluator(parse(os.environ.get("KWX_PROBE", "")))

    def claim(self, view: SeatView) -> Action | None:
        """The boosted bot's claim, but a discard win passed when ``pass_win`` says the hand kept is worth more."""
        evaluator = self.evaluator
        assert isinstance(evaluator, ProbeEvaluator)
        margin = evaluator.shifts["pass_win"]
        win = view.win() if margin < math.inf and not view.me.liang_dao else None
        if win is not None and any(a.verb == "win" for a in view.options):
            taken = pay(view, win.value, win.hand, win.kind, self_draw=False, winner=view.seat, payer=view.turn)
            if taken and evaluator.passing(view) > margin * taken:
                return None
        return super().claim(view)


@lru_cache(maxsize=4)
def other_trees(files: tuple[str, ...]) -> Trees:
    """The trees of the fits' files ``files``, one sum of them all (one file: its trees as read)."""
    for path in files:
        if not Path(path).is_file():
            raise ValueError(f"KWX_TREES: {path!r} is not a file")
    if len(files) == 1:
        return load_trees(files[0])
    return Trees(tuple(tree for path in files for tree in load_trees(path).trees))


class OtherTrees(BoostedJudgeBot):
    """The boosted bot with the trees of ``KWX_TREES`` (another fit's file, or several averaged)."""

    name = "other-trees"

    @staticmethod
    def default_evaluator() -> StrongBot:
        """The boosted evaluator with those trees, their sum divided by the number of files (the probe's ``trees``)."""
        paths = os.environ.get("KWX_TREES", "")
        if not paths:
            raise ValueError("KWX_TREES: name a fit's file (or several joined by '+')")
        files = tuple(paths.split("+"))
        return ProbeEvaluator({**SHIFTS, "trees": 1 / len(files)}, other_trees(files))

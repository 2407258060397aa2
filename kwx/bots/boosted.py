"""The boosted evaluator: the strong bot's worth of a discard corrected by regression trees fitted on self-play.

The judge's linear correction (:mod:`kwx.bots.learned`) reads 19 features of the hand a discard
leaves. This evaluator reads those and 21 more — the hand's shape and waits as §4 counts them,
the draws and wall left, what the revealed opponents hold and cost, the hidden ones' rivers and
melds, the deal-in chance and cost apart — and adds a sum of boosted regression trees over all
40 (:class:`Trees`), fitted on the money the seat made from then on less the strong bot's worth
(``python -m kwx.bots.fit_boosted``; the trees ship in ``kwx/bots/data/boosted.json`` with the
command and seed that made them). Inference is pure Python: the trees are compiled into one function
of nested ifs (:func:`compiled`). 碰 and 过 keep the linear correction.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeAlias

from kwx.bots.learned import NAMES as LINEAR_NAMES
from kwx.bots.learned import Learned, Model
from kwx.bots.strong import Choice
from kwx.hand.efficiency import Efficiency
from kwx.hand.tiles import Hand, with_tile
from kwx.table.view import SeatView

DATA = Path(__file__).resolve().parent / "data" / "boosted.json"
EXTRA = (
    "shanten",
    "ukeire",
    "wait_kinds",
    "wait_copies",
    "wait_value",
    "draws",
    "wall_left",
    "melds",
    "revealed",
    "revealed_live",
    "revealed_cost",
    "revealed_self_pay",
    "hidden_river",
    "hidden_melds",
    "deal_in_chance",
    "deal_in_cost",
    "strong_worth",
    "liang_dao",
    "suit_tiles",
    "dragon_tiles",
    "dealer",
)
"""The features read beside the linear model's."""
NAMES = LINEAR_NAMES + EXTRA
"""Every feature, in the order the trees index them."""
TOP = 10
"""How many of the strong bot's best discards the trees rank (six, the judge's, measured 0.05 a hand worse: docs/bots.md)."""
NO_RIVER = 30.0
"""The hidden-river feature when no opponent is hidden (longer than any river)."""

Node: TypeAlias = float | tuple[int, float, "Node", "Node"]
"""A leaf's value, or a split: (feature, threshold, the node for ``x[feature] <= threshold``, the node otherwise)."""


def features(bot: Learned, view: SeatView, choice: Choice, results: dict[int, Efficiency]) -> tuple[float, ...]:
    """The 40 features of one scored discard of the seat's 14 tiles, read from what the seat sees."""
    hand = view.hand
    look = bot.outlook(view)
    after = Hand(with_tile(hand.concealed, choice.kind, -1), hand.melds)
    eff = results[choice.kind]
    chance, cost = look.deal_in(choice.kind)
    revealed = [r for r in look.rivals if r.revealed]
    hidden = [r for r in look.rivals if not r.revealed]
    held = after.held
    return bot.features_of(view, choice, results) + (
        float(eff.shanten),
        eff.ukeire / 10.0,
        float(len(eff.waits)),
        float(sum(w.remaining for w in eff.waits)),
        (eff.value or 0.0) / 10.0,
        float(look.draws),
        float(view.wall_left),
        float(len(after.melds)),
        float(len(revealed)),
        max((r.live for r in revealed), default=0.0),
        max((r.cost for r in revealed), default=0.0),
        max((r.self_pay for r in revealed), default=0.0),
        min((float(r.river) for r in hidden), default=NO_RIVER),
        float(max((r.melds for r in hidden), default=0)),
        chance,
        cost,
        choice.worth,
        float(choice.liang_dao),
        float(max(sum(held[0:9]), sum(held[9:18]))),
        float(sum(held[18:21])),
        float(view.dealer == view.seat),
    )


def _node(raw: Any) -> Node:
    """A tree read from its JSON (a number, or ``[feature, threshold, left, right]``)."""
    if isinstance(raw, (int, float)):
        return float(raw)
    feature, threshold, left, right = raw
    return (int(feature), float(threshold), _node(left), _node(right))


def _used(node: Node, out: set[int]) -> set[int]:
    """The features a tree splits on, added to ``out``."""
    if isinstance(node, tuple):
        out.add(node[0])
        _used(node[2], out)
        _used(node[3], out)
    return out


def _lines(node: Node, depth: int, out: list[str]) -> None:
    """A tree as nested ``if``s that add the leaf it reaches to ``t``, indented ``depth`` levels."""
    pad = "    " * depth
    if isinstance(node, tuple):
        out.append(f"{pad}if x{node[0]} <= {node[1]!r}:")
        _lines(node[2], depth + 1, out)
        out.append(f"{pad}else:")
        _lines(node[3], depth + 1, out)
    else:
        out.append(f"{pad}t += {node!r}")


def compiled(trees: Sequence[Node]) -> Callable[[Sequence[float]], float]:
    """The sum of ``trees`` as one Python function of the features (nested ``if``s over locals).

    Three times as fast as walking the nodes (a decision ranks ten discards); the same sum, added in the same
    order. The source is made of the trees' integers and floats alone (``repr`` gives each float back exactly).
    """
    features = sorted(set().union(*(_used(t, set()) for t in trees)))
    body = ["def predict(x):", *(f"    x{i} = x[{i}]" for i in features), "    t = 0.0"]
    for tree in trees:
        _lines(tree, 1, body)
    body.append("    return t")
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(body), "<boosted trees>", "exec"), namespace)  # the source holds numbers only (see above)
    function: Callable[[Sequence[float]], float] = namespace["predict"]
    return function


@dataclass(frozen=True, slots=True)
class Trees:
    """A sum of regression trees over :data:`NAMES`."""

    trees: tuple[Node, ...]
    _predict: Callable[[Sequence[float]], float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_predict", compiled(self.trees))

    def predict(self, x: Sequence[float]) -> float:
        """The sum of the trees' leaves that ``x`` reaches."""
        return self._predict(x)

    def __reduce__(self) -> tuple[type[Trees], tuple[tuple[Node, ...]]]:
        """Pickled as its trees alone, compiled again where it is read.

        A fit's later rounds send the player's trees to worker processes.
        """
        return (Trees, (self.trees,))

    @classmethod
    def from_json(cls, data: Any) -> Trees:
        """The trees of a fit's file (its ``trees``)."""
        return cls(tuple(_node(t) for t in data["trees"]))


@lru_cache(maxsize=4)
def load_trees(path: str = str(DATA)) -> Trees:
    """The fitted trees shipped with the bot (or another fit's file)."""
    return Trees.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


class Boosted(Learned):
    """The judge's evaluator whose discards are ranked by the strong bot's worth plus the trees' correction."""

    name = "boosted"

    def __init__(self, trees: Trees | None = None, top: int = TOP, model: Model | None = None) -> None:
        super().__init__(model=model, top=top)
        self.trees = trees or load_trees()

    def corrected(self, view: SeatView, choice: Choice, results: dict[int, Efficiency], hand: Hand | None = None) -> float:
        """One scored discard's worth plus the trees' correction (after a 碰, ``hand`` given: the linear correction's)."""
        if hand is not None:
            return super().corrected(view, choice, results, hand)
        return choice.worth + self.trees.predict(features(self, view, choice, results))

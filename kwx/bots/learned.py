"""The judge's evaluator: the strong bot's worth of a discard, corrected by a linear model fitted on self-play.

The strong bot prices the hand a discard leaves with one model of the rest of the hand
(:class:`~kwx.bots.strong.Outlook`). What that model does not see — how good the ready hands
a hand one tile from ready will make are (:meth:`~kwx.bots.strong.Outlook.drawn_worth`), pairs
and dragons kept, a hand near 清一色, a ready hand only 屁胡 on a discard, how much it prices a
deal-in, how many opponents have revealed their hands — is read as a few features
(:func:`features`), and the money the seat made from
then on, less what the strong bot reckoned, is fitted on them by least squares on hands of a
pool of bots (``python -m kwx.bots.fit_judge``; the coefficients ship in
``kwx/bots/data/learned.json`` with the command and seed that made them). The same
corrected worths decide 碰 or 过: the best discard after the pong against the hand as it stands.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kwx.bots.strong import Choice, Outlook, StrongBot, far_total
from kwx.hand.efficiency import Efficiency, discard_options, efficiency
from kwx.hand.tiles import NUM_KINDS, Hand, with_tile
from kwx.table.table import Action
from kwx.table.view import SeatView

DATA = Path(__file__).resolve().parent / "data" / "learned.json"
NAMES = (
    "ready_hidden",
    "declared",
    "far1",
    "far2",
    "far3",
    "drawn",
    "danger",
    "pairs",
    "dragons",
    "flush",
    "near_flush",
    "live",
    "pinghu_only",
    "declared_draws",
    "worth",
    "revealed_ready",
    "revealed_declared",
    "revealed_far",
    "hidden_draws",
)
"""The features, in the order of the coefficients."""


def features(look: Outlook, after: Hand, eff: Efficiency, declared: bool, danger: float, worth: float) -> tuple[float, ...]:
    """The features of the hand a discard leaves (see :data:`NAMES`), read from what the seat sees."""
    shanten = eff.shanten
    ready = shanten == 0 and bool(eff.waits)
    held = after.concealed
    drawn = 0.0
    if shanten == 1:
        chance, start = look.far_chance(eff)
        if chance > 0:
            drawn = chance * (look.drawn_worth(after, eff, start) - look.typical_worth(far_total(after, look.weights), start))
    off = min(sum(after.held[0:9]), sum(after.held[9:18])) + sum(after.held[18:21]) if not ready else -1
    pairs = sum(1 for n in held if n >= 2) if not ready else 0
    live = sum(w.remaining for w in eff.waits) if ready else 0
    pinghu = ready and not declared and not any(w.discard.allowed for w in eff.waits if w.remaining)
    return (
        float(ready and not declared),
        float(declared),
        float(shanten == 1),
        float(shanten == 2),
        float(shanten >= 3),
        drawn,
        danger,
        float(pairs),
        float(sum(held[18:21])) if not ready else 0.0,
        float(off == 0),
        float(off == 1),
        live / 4.0,
        float(pinghu),
        look.draws / 10.0 if declared else 0.0,
        worth,
        float(look.revealed) if ready and not declared else 0.0,
        float(look.revealed) if declared else 0.0,
        float(look.revealed) if not ready and not declared else 0.0,
        look.draws / 10.0 if ready and not declared else 0.0,
    )


@dataclass(frozen=True, slots=True)
class Model:
    """The fitted coefficients (one per feature of :data:`NAMES`)."""

    coefficients: tuple[float, ...]

    def correction(self, x: Sequence[float]) -> float:
        """The money the model adds to the strong bot's worth for features ``x``."""
        return sum(b * v for b, v in zip(self.coefficients, x))


@lru_cache(maxsize=4)
def load_model(path: str = str(DATA)) -> Model:
    """The fitted model shipped with the judge (or another fit's file)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return Model(tuple(float(data["coefficients"][name]) for name in NAMES))


class Learned(StrongBot):
    """The strong bot whose discards are ranked by the corrected worth (:func:`judged`)."""

    name = "learned"

    def __init__(self, model: Model | None = None, top: int = 6) -> None:
        super().__init__()
        self.model = model or load_model()
        self.top = top
        self._scored: tuple[SeatView, tuple[Hand, frozenset[int], bool], list[Choice]] | None = None

    def discards(self, view: SeatView, hand: Hand, allowed: frozenset[int], may_declare: bool) -> list[Choice]:
        """The strong bot's scored discards (worked out once per view and question: ``act`` asks twice)."""
        key = (hand, allowed, may_declare)
        if self._scored is None or self._scored[0] is not view or self._scored[1] != key:
            self._scored = (view, key, super().discards(view, hand, allowed, may_declare))
        return self._scored[2]

    def own_discards(self, view: SeatView) -> list[Choice]:
        """The strong bot's scored discards of the seat's 14 tiles, those its options allow (亮倒 with them where it may)."""
        allowed = frozenset(a.kind for a in view.options if a.verb == "discard")
        return self.discards(view, view.hand, allowed, any(a.liang_dao for a in view.options))

    @staticmethod
    def results(view: SeatView, hand: Hand | None = None) -> dict[int, Efficiency]:
        """What each discard of the seat's 14 tiles (or of ``hand``, the hand after a 碰) leaves, by kind."""
        hand = hand or view.hand
        return {o.discard: o.result for o in discard_options(hand, view.visible_beside(hand), view.rules)}

    def features_of(self, view: SeatView, choice: Choice, results: dict[int, Efficiency], hand: Hand | None = None) -> tuple[float, ...]:
        """The features of one scored discard of the seat's hand, or of ``hand`` (``results``: :meth:`results` of the same hand)."""
        hand = hand or view.hand
        look = self.outlook(view)
        after = Hand(with_tile(hand.concealed, choice.kind, -1), hand.melds)
        chance, cost = look.deal_in(choice.kind)
        return features(look, after, results[choice.kind], choice.liang_dao, chance * cost, choice.worth)

    def corrected(self, view: SeatView, choice: Choice, results: dict[int, Efficiency], hand: Hand | None = None) -> float:
        """One scored discard's worth plus the model's correction (``results``: :meth:`results` of the same hand)."""
        return choice.worth + self.model.correction(self.features_of(view, choice, results, hand))

    def judged(self, view: SeatView, choices: Sequence[Choice], hand: Hand | None = None) -> list[tuple[Choice, float]]:
        """The first ``top`` choices of the seat's hand (or of ``hand``) with their corrected worths, best first."""
        results = self.results(view, hand)
        out = [(c, self.corrected(view, c, results, hand)) for c in choices[: self.top]]
        out.sort(key=lambda p: (-p[1], p[0].kind, p[0].liang_dao))
        return out

    def act(self, view: SeatView) -> Action:
        """The strong bot's action (a win, a kong, or which way to discard).

        A discard of an unlocked hand chosen by the corrected worth.
        """
        action = super().act(view)
        if action.verb != "discard" or view.me.liang_dao or not any(self.model.coefficients):
            return action
        scored = self.own_discards(view)
        if len(scored) < 2:
            return action
        best, _ = self.judged(view, scored)[0]
        return view.discard(best.kind, best.liang_dao)

    def passing(self, view: SeatView) -> float:
        """The corrected worth of the seat's 13 tiles as they stand (passing a claim).

        Hidden, or 亮倒 with the next discard when that is worth more.
        """
        look = self.outlook(view)
        hand = view.hand
        eff = efficiency(hand, view.seen, view.rules)
        hidden, declared = look.hand_worth(hand, eff)
        best = hidden + self.model.correction(features(look, hand, eff, False, 0.0, hidden))
        if declared is not None and self.weights.declare:
            best = max(best, declared + self.model.correction(features(look, hand, eff, True, 0.0, declared)))
        return best

    def claim(self, view: SeatView) -> Action | None:
        """The strong bot's claim (a win, a kong).

        碰 or 过 chosen by the corrected worths of the best discard after the pong and of the hand as it stands.
        """
        prior = super().claim(view)
        pongs = [a for a in view.options if a.verb == "pong"]
        if (prior is not None and prior.verb != "pong") or not pongs or view.me.liang_dao or not any(self.model.coefficients):
            return prior
        best, best_worth = None, self.passing(view)
        for pong in pongs:
            hand = view.hand.after_pong(pong.kind)
            allowed = frozenset(k for k in range(NUM_KINDS) if hand.concealed[k])
            judged = self.judged(view, self.discards(view, hand, allowed, True), hand)
            if judged and judged[0][1] > best_worth:
                best, best_worth = pong, judged[0][1]
        return best


ZERO = Model((0.0,) * len(NAMES))
"""No correction: the strong bot's own ranking."""

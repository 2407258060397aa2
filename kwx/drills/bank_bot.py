"""The strong bot as it was when the table-drill bank was made (kept so that bank rebuilds byte for byte; docs/drills.md).

``kwx/drills/table_drills.py`` plays the deals of its drills and rolls their choices out with
this bot. Issue 24 replaced the strong bot of ``kwx/bots/strong.py`` by one whose figures are
fitted on self-play; the bank of ``puzzles/data/table_bank.json.gz`` was made by this one, with
its guessed constants (``Weights``), and stays its until the bank is re-checked and made again
(issue 24 item 6). Nothing else plays with it. Its description as it was: docs/bots.md's history.

Every choice is scored in money (units of the base stake) from what its seat can see: the
offence of the 13-tile hand a choice leaves (:func:`hand_worth`), the danger of each discard
(:func:`danger`), 亮倒 when the doubled win beats the hidden hand plus the locked hand's cost,
kongs and pongs by the hand after the call. It uses no randomness, so a seed fixes its play.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import exp

from kwx.hand.danger import revealed_rules
from kwx.hand.efficiency import Efficiency, discard_options, efficiency
from kwx.hand.rules import Rules
from kwx.hand.scoring import score_win
from kwx.hand.tiles import FIVES, NUM_KINDS, Hand, add, with_tile
from kwx.table.settlement import KONG_MONEY
from kwx.table.table import Action
from kwx.table.view import PublicSeat, SeatView


@dataclass(frozen=True, slots=True)
class Weights:
    """The strong bot's figures (docs/bots.md says how they were chosen)."""

    survive: float = 0.75
    """Share of a win's chance left once the others may end the hand first."""
    throw_hidden: float = 0.45
    """Chance an opponent throws a copy of a hidden wait that reaches it."""
    throw_revealed: float = 0.1
    """The same for a revealed (亮倒) wait, which a careful opponent keeps."""
    typical_waits: float = 5.0
    """Live copies of the waits a hand not yet ready can expect."""
    typical_total: float = 1.0
    """The multiplier a hand not yet ready can expect."""
    far_discount: float = 0.25
    """Each shanten step's extra uncertainty."""
    hidden_hit: float = 0.045
    """Chance a kind wins on a discard for a hidden ready opponent (before the fan factors)."""
    hidden_value: float = 3.0
    """What a discard win of a hidden opponent costs."""
    flush_total: float = 4.0
    """The multiplier of a hand all in one suit (清一色)."""
    declare: bool = True
    """Declare 亮倒 at all (off only to measure what it is worth)."""
    pass_margin: float = float("inf")
    """Pass a discard win when keeping the hand is worth this many times the win (inf: never pass)."""


DEFAULT = Weights()


@dataclass(frozen=True, slots=True)
class Outlook:
    """What the seat knows that every estimate shares: the rules, its draws to come, the tiles it has not seen, the weights."""

    rules: Rules
    liang_rules: Rules
    draws: float
    unseen: int
    weights: Weights


def outlook(view: SeatView, weights: Weights) -> Outlook:
    """The estimates' shared figures for a seat's view."""
    return Outlook(view.rules, _liang_rules(view.rules), view.wall_left / 3, max(1, view.unseen), weights)


@lru_cache(maxsize=32)
def _liang_rules(rules: Rules) -> Rules:
    return revealed_rules(rules)


def _win_chance(rate: float) -> float:
    return 1.0 - exp(-rate)


def ready_worth(hand: Hand, eff: Efficiency, view: Outlook, liang: bool) -> float:
    """Expected money of a ready 13-tile hand: each live copy of a wait, drawn or thrown, times its pay."""
    w = view.weights
    own = min(1.0, view.draws / view.unseen)
    throw = (1.0 - own) * (w.throw_revealed if liang else w.throw_hidden)
    rate = 0.0
    money = 0.0
    for wait in eff.waits:
        if not wait.remaining:
            continue
        if liang:
            values = score_win(hand, wait.kind, view.liang_rules)
            assert values is not None
            self_total, disc_total = values[0].total, 2 * values[1].total
        else:
            self_total = wait.self_draw.total
            disc_total = wait.discard.total if wait.discard.allowed else 0
        own_rate = wait.remaining * own
        throw_rate = wait.remaining * throw if disc_total else 0.0
        rate += own_rate + throw_rate
        money += own_rate * 2 * self_total + throw_rate * disc_total
    if rate == 0.0:
        return 0.0
    return w.survive * _win_chance(rate) * money / rate


def far_total(hand: Hand, weights: Weights) -> float:
    """The multiplier a hand not yet ready can expect: more when all its tiles but one or none are of one suit (清一色)."""
    total = weights.typical_total
    held = hand.held
    if not any(held[18:21]):
        off = min(sum(held[0:9]), sum(held[9:18]))
        if off == 0:
            total *= weights.flush_total
        elif off == 1:
            total *= 1 + (weights.flush_total - 1) / 4
    return total


def far_worth(hand: Hand, eff: Efficiency, view: Outlook) -> float:
    """Expected money of a hand not yet ready: the chance to get ready in time, times a typical ready hand."""
    w = view.weights
    if eff.ukeire == 0:
        return 0.0
    steps = eff.shanten * view.unseen / eff.ukeire  # own draws to get ready
    left = view.draws - steps
    if left <= 0:
        return 0.0
    total = far_total(hand, w)
    own = min(1.0, left / view.unseen)
    rate = w.typical_waits * (own + (1 - own) * w.throw_revealed)
    # a typical ready hand declares 亮倒: either way of winning pays 4 × its total
    return w.survive * (w.far_discount**eff.shanten) * _win_chance(rate) * 4 * total


def hand_worth(hand: Hand, eff: Efficiency, view: Outlook) -> tuple[float, float | None]:
    """The worth of a 13-tile hand kept hidden, and declared 亮倒 (None: not ready)."""
    if eff.shanten > 0:
        return far_worth(hand, eff, view), None
    if eff.shanten < 0 or not eff.waits:
        return 0.0, None
    return ready_worth(hand, eff, view, False), ready_worth(hand, eff, view, True)


# ---------------------------------------------------------------- reading the others


def _revealed_cost(other: PublicSeat, kind: int, rules: Rules) -> float:
    """What dealing ``kind`` into a revealed hand costs (包胡: twice the win), 0 if it does not win."""
    if kind not in other.waits or other.revealed is None:
        return 0.0
    values = score_win(Hand(other.revealed, other.melds), kind, _liang_rules(rules))
    if values is None or not values[1].allowed:
        return 0.0
    return 2.0 * values[1].total


def _ready_guess(other: PublicSeat) -> float:
    """How likely a hidden hand is ready, from how far on it is."""
    return min(0.85, 0.04 * len(other.river) + 0.15 * len(other.melds))


def _hidden_hit(other: PublicSeat, kind: int, weights: Weights) -> float:
    """How likely a hidden ready hand wins on ``kind`` by discard (it needs a fan)."""
    hit = weights.hidden_hit
    if kind in FIVES:
        hit *= 2.5
    suits = {m.kind // 9 for m in other.melds}
    if len(other.melds) >= 2 and len(suits) == 1:
        suit = suits.pop()
        hit *= 3.0 if suit < 2 and kind // 9 == suit else 0.5
    if kind in other.river:
        hit *= 0.3
    return hit


def danger(view: SeatView, weights: Weights = DEFAULT) -> tuple[tuple[float, ...], frozenset[int]]:
    """Expected cost of the seat discarding each kind now, and the kinds a revealed opponent wins on (包胡)."""
    costs = [0.0] * NUM_KINDS
    bao: set[int] = set()
    double = 2.0 if view.after_kong else 1.0  # 杠上炮
    for other in view.others():
        s = view.seats[other]
        if s.liang_dao:
            for kind in s.waits:
                cost = _revealed_cost(s, kind, view.rules)
                if cost:
                    bao.add(kind)
                    costs[kind] += double * cost
            continue
        ready = _ready_guess(s)
        if ready:
            for kind in range(NUM_KINDS):
                costs[kind] += double * ready * _hidden_hit(s, kind, weights) * weights.hidden_value
    return tuple(costs), frozenset(bao)


def _lock_cost(costs: tuple[float, ...], left: tuple[int, ...], look: Outlook) -> float:
    """What a locked hand expects to lose by throwing every tile it draws (and the 荒庄 payment)."""
    total = sum(left) or 1
    per_draw = sum(c * n for c, n in zip(costs, left)) / total
    return per_draw * look.draws


# ---------------------------------------------------------------- the bot


def kong_money(view: SeatView, kind: int) -> int:
    """The kong money a kong of ``kind`` now earns the seat in all (kwx-rules §6; before any 杠上杠 doubling): 暗杠 and 蓄杠 from both others, 直杠 from the discarder."""
    if view.phase == "claim":
        return KONG_MONEY["zhi_gang"]
    if view.concealed[kind] == 4:
        return 2 * KONG_MONEY["an_gang"]
    return 2 * KONG_MONEY["ming_gang"]


@dataclass(frozen=True, slots=True)
class Choice:
    """A scored discard: its kind, whether it declares 亮倒, and its worth."""

    kind: int
    liang_dao: bool
    worth: float


class StrongBot:
    """Plays for money: value and win chance of each discard, defence, 亮倒 when it pays, weighed calls."""

    name = "strong"

    def __init__(self, weights: Weights = DEFAULT) -> None:
        self.weights = weights

    # ------------------------------------------------------------ discards

    def discards(self, view: SeatView, hand: Hand, allowed: frozenset[int], may_declare: bool) -> list[Choice]:
        """Every allowed discard of a 14-tile hand, scored, best first (包胡 tiles only when nothing else is left)."""
        look = outlook(view, self.weights)
        costs, bao = danger(view, self.weights)
        options = discard_options(hand, view.visible, view.rules)
        choices = []
        for option in options:
            kind = option.discard
            if kind not in allowed:
                continue
            after = Hand(with_tile(hand.concealed, kind, -1), hand.melds)
            hidden, declared = hand_worth(after, option.result, look)
            choices.append(Choice(kind, False, hidden - costs[kind]))
            if may_declare and self.weights.declare and declared is not None:
                cost = _lock_cost(costs, option.result.left, look) + self._drawn_hand_cost(declared, look)
                choices.append(Choice(kind, True, declared - cost - costs[kind]))
        safe = [c for c in choices if c.kind not in bao]
        pool = safe or choices
        pool.sort(key=lambda c: (-c.worth, c.kind, c.liang_dao))
        return pool

    def _drawn_hand_cost(self, declared: float, look: Outlook) -> float:
        """The 荒庄 payment (1 to each non-declarer) times the chance nobody wins."""
        chance_no_win = max(0.0, 1.0 - declared / 4.0) * exp(-look.draws / 4)
        return 2.0 * chance_no_win

    def _worth13(self, view: SeatView, hand: Hand) -> float:
        """The worth of a 13-tile-equivalent hand waiting for its next draw (the better of hidden and 亮倒)."""
        look = outlook(view, self.weights)
        eff = efficiency(hand, add(hand.held, view.visible), view.rules)
        hidden, declared = hand_worth(hand, eff, look)
        if view.me.liang_dao:
            return ready_worth(hand, eff, look, True) if eff.shanten == 0 else 0.0
        return hidden if declared is None or not self.weights.declare else max(hidden, declared)

    # ------------------------------------------------------------ the Policy

    def act(self, view: SeatView) -> Action:
        """Win if possible; else the best of the scored discards and kongs."""
        options = view.options
        for action in options:
            if action.verb == "win":
                return action
        hand = view.hand
        allowed = frozenset(a.kind for a in options if a.verb == "discard")
        may_declare = any(a.liang_dao for a in options)
        locked = view.me.liang_dao
        if locked:
            best = Choice(view.kind if view.kind is not None else min(allowed), False, 0.0)
        else:
            best = self.discards(view, hand, allowed, may_declare)[0]
        kongs = [a for a in options if a.verb == "kong"]
        if kongs:
            view_worth = best.worth if not locked else self._worth13(view, Hand(with_tile(hand.concealed, best.kind, -1), hand.melds))
            for kong in kongs:
                if self._kong_worth(view, kong.kind) >= view_worth:
                    return kong
        return Action(view.seat, "discard", best.kind, best.liang_dao)

    def _kong_worth(self, view: SeatView, kind: int) -> float:
        """The hand after a kong of ``kind`` plus its money, less the chance it is robbed or feeds a 杠上炮."""
        after = view.hand.after_kong(kind)
        chain = 2**view.after_kong if view.after_kong else 1
        worth = self._worth13(view, after) + kong_money(view, kind) * chain
        costs, bao = danger(view, self.weights)
        if view.phase == "act" and view.concealed[kind] != 4:  # a 蓄杠 may be robbed
            if kind in bao:
                return float("-inf")
            worth -= costs[kind]
        worth -= 0.1 * sum(costs) / NUM_KINDS  # the discard after the replacement is a 杠上炮
        return worth

    def claim(self, view: SeatView) -> Action | None:
        """Win if allowed (unless keeping the hand is worth ``pass_margin`` times more); kong or pong when it beats passing."""
        options = view.options
        for action in options:
            if action.verb == "win":
                if self.weights.pass_margin == float("inf") or not self._worth_passing(view):
                    return action
        calls = [a for a in options if a.verb in ("pong", "kong")]
        if not calls:
            return None
        now = self._worth13(view, view.hand)
        best: Action | None = None
        best_worth = now
        for action in calls:
            if action.verb == "kong":
                worth = self._kong_worth(view, action.kind)
            else:
                worth = self._pong_worth(view, action.kind)
            if worth > best_worth:
                best, best_worth = action, worth
        return best

    def _pong_worth(self, view: SeatView, kind: int) -> float:
        """The best discard's worth after ponging ``kind``."""
        hand = view.hand.after_pong(kind)
        allowed = frozenset(k for k in range(NUM_KINDS) if hand.concealed[k])
        return self.discards(view, hand, allowed, True)[0].worth

    def _worth_passing(self, view: SeatView) -> bool:
        """Whether the hand kept is worth ``pass_margin`` times the discard win on offer (漏胡 then bars smaller wins)."""
        win = view.win()
        if win is None or not win.value.allowed:
            return False
        pay = (2 if view.me.liang_dao else 1) * win.value.total
        look = outlook(view, self.weights)
        eff = efficiency(view.hand, view.seen, view.rules)
        keep = ready_worth(view.hand, eff, look, view.me.liang_dao) if eff.shanten == 0 else 0.0
        return keep > self.weights.pass_margin * pay

    # ------------------------------------------------------------ figures for a review (复盘)

    def worth_of(self, view: SeatView, action: Action | None) -> float:
        """What the bot reckons one of the seat's options is worth, in base stakes (None: 过, passing the claim).

        The same figures ``act`` and ``claim`` compare: a discard's scored worth (a 包胡 tile
        included, its cost counted), a kong's worth with its money, a pong's best discard after
        it, the hand as it stands for a pass; a win is its money (both others on a self-draw).
        """
        hand = view.hand
        if action is None:
            return self._worth13(view, hand)
        if action.verb == "win":
            win = view.win()
            assert win is not None
            total = win.value.total
            return float(2 * total if win.side == "self_draw" else (2 * total if view.me.liang_dao else total))
        if action.verb == "kong":
            return self._kong_worth(view, action.kind)
        if action.verb == "pong":
            return self._pong_worth(view, action.kind)
        if view.me.liang_dao:
            return self._worth13(view, Hand(with_tile(hand.concealed, action.kind, -1), hand.melds))
        scored = self.discards(view, hand, frozenset({action.kind}), action.liang_dao)
        return next(c.worth for c in scored if c.liang_dao == action.liang_dao)

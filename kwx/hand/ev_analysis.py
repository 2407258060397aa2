"""The issue-9 parts of ``analyze()``: ``depth: ev`` figures and danger against 亮倒 hands.

``analysis.analyze_hand`` asks for them only when one of these request fields is given, so
the plain answer stays exactly as it was. With ``revealed`` the opponents' revealed
tiles count as visible (do not also list them in ``visible``); each 14-tile option
gains ``deals_in`` and a discard that deals in is moved after every safe one (their
order among themselves unchanged). With ``depth: ev`` every option gains
``ready_probability``, ``win_probability``, ``expected_score`` and ``method``, and
the options are re-ordered by ``ev.DiscardEV.rank_key`` (deal-ins last, then shanten,
then expected score); a 13-tile hand gains the same figures at the top level.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kwx.errors import EngineError, gettext_noop
from kwx.hand.danger import dealing_in
from kwx.hand.estimate import Estimate
from kwx.hand.ev import Budget, DiscardEV, EVParams, check_draws, evaluate_discards, evaluate_hand
from kwx.hand.notation import parse_hand
from kwx.hand.rules import Rules, validate_hand
from kwx.hand.tiles import Counts, Hand, add

DEPTHS = ("plain", "ev")
FIELDS = ("depth", "draws_left", "liang_dao_when_ready", "revealed")
"""The request fields of the expected-value analysis, in ``analyze()`` and the API."""
MAX_REVEALED = 2
MAX_REVEALED_TEXT = 60
"""Longest revealed hand text accepted (13 tiles with melds fit easily)."""


def parse_depth(depth: Any) -> str:
    """``plain`` (default) or ``ev``."""
    if depth is None:
        return "plain"
    if depth not in DEPTHS:
        raise EngineError(gettext_noop('Unknown depth "%(value)s": use plain or ev.'), "depth", value=str(depth)[:40])
    return str(depth)


def parse_revealed(revealed: Any) -> tuple[Hand, ...]:
    """Opponents' revealed (亮倒) hands in bracket notation, at most two."""
    if revealed is None:
        return ()
    if isinstance(revealed, str) or not isinstance(revealed, (list, tuple)):
        raise EngineError(gettext_noop('revealed must be a list of hands such as ["4556p123789sZZZ"].'), "revealed")
    if len(revealed) > MAX_REVEALED:
        raise EngineError(gettext_noop("At most 2 opponents can have revealed hands."), "revealed")
    hands = []
    for item in revealed:
        if not isinstance(item, str) or len(item) > MAX_REVEALED_TEXT:
            raise EngineError(gettext_noop('revealed must be a list of hands such as ["4556p123789sZZZ"].'), "revealed")
        hands.append(parse_hand(item, "revealed"))
    return tuple(hands)


def with_revealed(hands: tuple[Hand, ...], full: Hand, seen: Counts) -> Counts:
    """Visible tiles plus every revealed tile, checked against four copies per kind."""
    for hand in hands:
        seen = add(seen, hand.held)
    try:
        validate_hand(full, seen)
    except EngineError as exc:
        if exc.field == "visible":
            raise EngineError(exc.template, "revealed", **exc.params) from exc
        raise
    return seen


def prepare(full: Hand, seen: Counts, revealed: Any) -> tuple[tuple[Hand, ...], Counts]:
    """Parse the revealed hands and add their tiles to the visible ones."""
    hands = parse_revealed(revealed)
    return hands, with_revealed(hands, full, seen) if hands else seen


@dataclass(frozen=True, slots=True)
class EVRequest:
    """A checked ``depth: ev`` request: own draws still to come and whether 亮倒 is declared when ready."""

    draws_left: int
    liang_dao: bool


def check_request(depth: Any, draws_left: Any, liang_dao_when_ready: Any, rules: Rules) -> EVRequest | None:
    """The EV request the fields make (None for a plain analysis); raises EngineError naming the field at fault."""
    depth = parse_depth(depth)
    if liang_dao_when_ready is not None and not isinstance(liang_dao_when_ready, bool):
        raise EngineError(gettext_noop("liang_dao_when_ready must be true or false."), "liang_dao_when_ready")
    if depth == "ev":
        if draws_left is None:
            raise EngineError(gettext_noop("draws_left is required with depth ev."), "draws_left")
        return EVRequest(check_draws(draws_left, 1), bool(liang_dao_when_ready) or "liang_dao" in rules.situation)
    if draws_left is not None or liang_dao_when_ready is not None:
        name = "draws_left" if draws_left is not None else "liang_dao_when_ready"
        raise EngineError(gettext_noop("%(name)s only applies with depth ev."), name, name=name)
    return None


def danger_of(revealed: tuple[Hand, ...], rules: Rules) -> tuple[frozenset[int], ...]:
    """The kinds that deal in to each revealed hand (包胡), in the order given."""
    return tuple(dealing_in(hand, rules) for hand in revealed)


def new_budget() -> Budget:
    """The work limit of one request (``Budget`` read here at call time, so a benchmark or test may swap it)."""
    return Budget()


def ranked(full: Hand, seen: Counts, rules: Rules, request: EVRequest, danger: frozenset[int], budget: Budget) -> tuple[DiscardEV, ...]:
    """Every discard of a 14-tile hand with its estimate, in the EV ranking (deal-ins last)."""
    return evaluate_discards(full, seen, rules, request.draws_left, liang_dao=request.liang_dao, danger=danger, budget=budget)


def hand_estimate(full: Hand, seen: Counts, rules: Rules, request: EVRequest, budget: Budget) -> Estimate:
    """The estimate of a 13-tile hand just after its discard."""
    return evaluate_hand(full, seen, rules, EVParams(request.draws_left, request.liang_dao), budget)

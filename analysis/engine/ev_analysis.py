"""The issue-9 additions to ``analyze()``: ``depth: ev`` figures and danger against 亮倒 hands.

``analyze()`` calls ``extend`` only when one of the new request fields is given, so
the plain answer stays exactly as it was. With ``revealed`` the opponents' revealed
tiles count as visible (do not also list them in ``visible``); each 14-tile option
gains ``deals_in`` and a discard that deals in is moved after every safe one (their
order among themselves unchanged). With ``depth: ev`` every option gains
``ready_probability``, ``win_probability``, ``expected_score`` and ``method``, and
the options are re-ordered by ``ev.DiscardEV.rank_key`` (deal-ins last, then shanten,
then expected score); a 13-tile hand gains the same figures at the top level.
"""
from __future__ import annotations

from typing import Any

from .danger import dealing_in
from .errors import EngineError, gettext_noop
from .ev import Budget, Estimate, EVParams, check_draws, evaluate_discards, evaluate_hand
from .notation import parse_hand
from .rules import Rules, validate_hand
from .tiles import KIND_OF_ID, TILE_IDS, Counts, Hand, add

DEPTHS = ("plain", "ev")
FIELDS = ("depth", "draws_left", "liang_dao_when_ready", "revealed")
"""The request fields of the expected-value analysis, in ``analyze()`` and the API."""
MAX_REVEALED = 2


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
        if not isinstance(item, str) or len(item) > 60:
            raise EngineError(gettext_noop('revealed must be a list of hands such as ["4556p123789sZZZ"].'), "revealed")
        hands.append(parse_hand(item, "revealed"))
    return tuple(hands)


def _revealed_seen(hands: tuple[Hand, ...], full: Hand, seen: Counts) -> Counts:
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


def _rounded(value: float) -> float:
    return round(value, 4)


def estimate_json(estimate: Estimate) -> dict[str, Any]:
    """The API form of one estimate."""
    out: dict[str, Any] = {
        "ready_probability": _rounded(estimate.ready_probability),
        "win_probability": _rounded(estimate.win_probability),
        "expected_score": _rounded(estimate.expected_score),
        "method": estimate.method,
    }
    if estimate.method == "monte_carlo":
        out["samples"] = estimate.samples
        out["stderr"] = {
            "ready_probability": _rounded(estimate.ready_stderr or 0.0),
            "win_probability": _rounded(estimate.win_stderr or 0.0),
            "expected_score": _rounded(estimate.score_stderr or 0.0),
        }
    return out


def prepare(full: Hand, seen: Counts, revealed: Any) -> tuple[tuple[Hand, ...], Counts]:
    """Parse the revealed hands and add their tiles to the visible ones."""
    hands = parse_revealed(revealed)
    return hands, _revealed_seen(hands, full, seen) if hands else seen


def extend(
    body: dict[str, Any],
    full: Hand,
    seen: Counts,
    rules: Rules,
    *,
    depth: Any = None,
    draws_left: Any = None,
    liang_dao_when_ready: Any = None,
    revealed: tuple[Hand, ...] = (),
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Add danger and EV figures to a plain analysis body (see the module docstring).

    The EV figures are worked out within ``budget`` (a fresh ``Budget()``, the request
    limit, when none is given); ``ev_complete`` says whether every figure got the
    precision planned for it.
    """
    depth = parse_depth(depth)
    if liang_dao_when_ready is not None and not isinstance(liang_dao_when_ready, bool):
        raise EngineError(gettext_noop("liang_dao_when_ready must be true or false."), "liang_dao_when_ready")
    if depth == "ev":
        if draws_left is None:
            raise EngineError(gettext_noop("draws_left is required with depth ev."), "draws_left")
        check_draws(draws_left, 1)
    elif draws_left is not None or liang_dao_when_ready is not None:
        name = "draws_left" if draws_left is not None else "liang_dao_when_ready"
        raise EngineError(gettext_noop("%(name)s only applies with depth ev."), name, name=name)
    danger: frozenset[int] = frozenset()
    if revealed:
        per_hand = [dealing_in(hand, rules) for hand in revealed]
        danger = frozenset().union(*per_hand)
        body["danger"] = [
            {"opponent": i + 1, "tiles": [TILE_IDS[k] for k in sorted(kinds)]} for i, kinds in enumerate(per_hand)
        ]
    liang_dao = bool(liang_dao_when_ready) or "liang_dao" in rules.situation
    work = budget if budget is not None else Budget()  # read only with depth ev
    if full.tile_count == 13:
        if revealed:
            body["deals_in"] = [TILE_IDS[k] for k in sorted(danger) if full.concealed[k]]
        if depth == "ev":
            body.update(estimate_json(evaluate_hand(full, seen, rules, EVParams(draws_left, liang_dao), work)))
            body["draws_left"] = draws_left
            body["ev_complete"] = not work.cut
        return body
    by_tile = {o["discard"]: o for o in body["options"]}
    if depth == "ev":
        ranked = evaluate_discards(full, seen, rules, draws_left, liang_dao=liang_dao, danger=danger, budget=work)
        order = [TILE_IDS[o.discard] for o in ranked]
        for o in ranked:
            by_tile[TILE_IDS[o.discard]].update(estimate_json(o.estimate))
        body["draws_left"] = draws_left
        body["ev_complete"] = not work.cut
    else:
        order = [t for t in by_tile if KIND_OF_ID[t] not in danger] + [t for t in by_tile if KIND_OF_ID[t] in danger]
    if revealed:
        for tile, option in by_tile.items():
            option["deals_in"] = KIND_OF_ID[tile] in danger
    body["options"] = [by_tile[tile] for tile in order]
    return body

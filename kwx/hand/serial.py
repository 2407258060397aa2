"""The JSON forms of the engine's values, in one place.

``option_json`` is a discard option as the ``/api/v1/analyze/`` body gives it (the
analyzer page shows the same dicts); ``option_row`` is the compact form the puzzle
banks store (effective tiles as ``[tile, remaining]`` pairs, each wait's two totals,
its hand fans and, under a town's flat extras, its worth), and ``estimate_row`` the compact form of an EV estimate. Every
one reads the same engine values (``DiscardOption``, ``Wait``, ``Estimate``).
"""

from __future__ import annotations

from typing import Any

from kwx.hand.efficiency import DiscardOption, Efficiency, Wait
from kwx.hand.estimate import Estimate
from kwx.hand.fans import EVENT_KEYS, fan
from kwx.hand.money import SideMoney, side_money
from kwx.hand.rules import Rules
from kwx.hand.scoring import WinValue
from kwx.hand.tiles import TILE_IDS, Counts, Hand


def fans_json(value: WinValue) -> list[dict[str, Any]]:
    """The fans of one win side: key, names, multiplier and (for a fourth-tile fan) its tile."""
    out = []
    for hit in value.fans:
        f = fan(hit.key)
        item: dict[str, Any] = {"key": hit.key, "name": f.name, "name_en": f.name_en, "multiplier": hit.multiplier}
        if hit.kind is not None:
            item["tile"] = TILE_IDS[hit.kind]
        out.append(item)
    return out


def _figure(value: float) -> float:
    """A figure that may be fractional (an expected 马, a value with it): whole as an int, else to 4 decimals."""
    if isinstance(value, int):
        return value
    return int(value) if value.is_integer() else round(value, 4)


def side_json(value: WinValue, money: SideMoney | None = None) -> dict[str, Any]:
    """One win side (自摸 or 点炮): allowed, total (0 when refused), fans, the reason of a refusal, F.

    With ``money``, what it pays (town-rules.md §4).

    ``amount`` is what one payer who did not declare pays per base stake, 漂 0 (total + 坎 +
    跑恰摸八 + expected 马; 0 when refused); ``declared_payer_total`` the multiplier a payer who
    declared pays, where it differs from what one who did not pays (``bao_hu`` where present); ``kan``, ``pao_qia_mo_ba``, ``expected_ma`` where the
    rules count them; ``bao_hu`` (discard side of a declared hand, where the rules have 包胡) its
    multiplier (both shares) and amount.
    """
    out: dict[str, Any] = {
        "allowed": value.allowed,
        "total": value.total if value.allowed else 0,
        "fans": fans_json(value),
        "reason": value.reason,
        "fan_product": value.fan_product,
    }
    if money is None:
        return out
    out["amount"] = _figure(money.amount)
    if money.declared_total != (money.bao_hu if money.bao_hu is not None else out["total"]):
        out["declared_payer_total"] = money.declared_total
        out["declared_payer_amount"] = _figure(money.declared_amount)
    if money.kan is not None:
        out["kan"] = money.kan
    if money.pao_qia_mo_ba is not None:
        out["pao_qia_mo_ba"] = money.pao_qia_mo_ba
    if money.expected_ma is not None:
        out["expected_ma"] = _figure(money.expected_ma)
    if money.bao_hu is not None and money.bao_hu_amount is not None:
        out["bao_hu"] = {"total": money.bao_hu, "amount": _figure(money.bao_hu_amount)}
    return out


def wait_json(wait: Wait, hand: Hand | None = None, rules: Rules | None = None, left: Counts | None = None) -> dict[str, Any]:
    """A winning tile with its remaining copies and both sides.

    With the 13-tile ``hand``, ``rules`` and the copies ``left``, each side's money.
    """
    if hand is None or rules is None:
        own, thrown = side_json(wait.self_draw), side_json(wait.discard)
    else:
        own = side_json(wait.self_draw, side_money(wait.self_draw, hand, wait.kind, True, rules, left))
        thrown = side_json(wait.discard, side_money(wait.discard, hand, wait.kind, False, rules, left))
    return {"tile": TILE_IDS[wait.kind], "remaining": wait.remaining, "self_draw": own, "discard": thrown}


def remaining_entries(left: Counts) -> list[dict[str, Any]]:
    """One ``{"tile", "remaining"}`` entry per kind (the options of one answer share them)."""
    return [{"tile": tile, "remaining": n} for tile, n in zip(TILE_IDS, left)]


def ukeire_json(result: Efficiency, entries: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The effective tiles: their total and one entry per kind (from ``entries`` when given)."""
    if entries is None:
        left = result.left
        return {"total": result.ukeire, "tiles": [{"tile": TILE_IDS[k], "remaining": left[k]} for k in result.kinds]}
    return {"total": result.ukeire, "tiles": [entries[k] for k in result.kinds]}


def _rounded(value: float) -> float:
    return round(value, 4)


def estimate_json(estimate: Estimate) -> dict[str, Any]:
    """The API form of one EV estimate (4 decimals; samples and standard errors when sampled)."""
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


def option_json(option: DiscardOption, entries: list[dict[str, Any]] | None = None, full: Hand | None = None, rules: Rules | None = None) -> dict[str, Any]:
    """A discard option as the API gives it.

    Discard, shanten, effective tiles, waits (with their money, given the 14-tile ``full`` hand and ``rules``),
    value, then EV and danger.
    """
    r = option.result
    left_hand = full.with_tile(option.discard, -1) if full is not None and r.waits else None
    out: dict[str, Any] = {
        "discard": TILE_IDS[option.discard],
        "shanten": r.shanten,
        "ukeire": ukeire_json(r, entries if entries is not None else remaining_entries(r.left)),
        "waits": [wait_json(w, left_hand, rules, r.left) for w in r.waits],
        "value": None if r.value is None else _figure(r.value),
    }
    if option.estimate is not None:
        out.update(estimate_json(option.estimate))
    if option.deals_in is not None:
        out["deals_in"] = option.deals_in
    return out


def wait_row(wait: Wait) -> dict[str, Any]:
    """A wait as the puzzle banks store it.

    Tile, copies left, both totals, the hand fans, and ``worth`` where the town's flat extras (坎 …) make it more
    than the two totals.
    """
    self_draw = wait.self_draw.total if wait.self_draw.allowed else 0
    discard = wait.discard.total if wait.discard.allowed else 0
    row: dict[str, Any] = {
        "tile": TILE_IDS[wait.kind],
        "remaining": wait.remaining,
        "self_draw": self_draw,
        "discard": discard,
        "fans": [h.key for h in wait.self_draw.fans if h.key not in EVENT_KEYS],
    }
    if wait.worth != self_draw + discard:
        row["worth"] = _figure(wait.worth)
    return row


def option_row(option: DiscardOption) -> dict[str, Any]:
    """A discard option as the puzzle banks store it: effective tiles as pairs, each wait's totals and hand fans.

    Each wait as ``wait_row`` stores it.

    A wait's ``fans`` are its self-draw fans without the event fans (``Fan.event``):
    what the hand is worth, whatever moment the winning tile comes at.
    """
    r = option.result
    return {
        "discard": TILE_IDS[option.discard],
        "shanten": r.shanten,
        "ukeire": r.ukeire,
        "tiles": [[TILE_IDS[e.kind], e.remaining] for e in r.effective],
        "waits": [wait_row(w) for w in r.waits],
        "value": None if r.value is None else _figure(r.value),
    }


def estimate_row(discard: int, estimate: Estimate) -> dict[str, Any]:
    """An EV estimate as the 期望值 bank stores it: discard, shanten, ready and win chance, expected score."""
    return {
        "discard": TILE_IDS[discard],
        "shanten": estimate.shanten,
        "ready": _rounded(estimate.ready_probability),
        "win": _rounded(estimate.win_probability),
        "score": _rounded(estimate.expected_score),
        "method": estimate.method,
    }

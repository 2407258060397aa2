"""The JSON forms of the engine's values, in one place.

``option_json`` is a discard option as the ``/api/v1/analyze/`` body gives it (the
analyzer page shows the same dicts); ``option_row`` is the compact form the puzzle
banks store (effective tiles as ``[tile, remaining]`` pairs, each wait's two totals
and its hand fans), and ``estimate_row`` the compact form of an EV estimate. Every
one reads the same engine values (``DiscardOption``, ``Wait``, ``Estimate``).
"""

from __future__ import annotations

from typing import Any

from kwx.hand.efficiency import DiscardOption, Efficiency, Wait
from kwx.hand.ev import Estimate
from kwx.hand.fans import EVENT_KEYS, fan
from kwx.hand.scoring import WinValue
from kwx.hand.tiles import TILE_IDS, Counts


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


def side_json(value: WinValue) -> dict[str, Any]:
    """One win side (自摸 or 点炮): allowed, total (0 when refused), fans and the reason of a refusal."""
    return {
        "allowed": value.allowed,
        "total": value.total if value.allowed else 0,
        "fans": fans_json(value),
        "reason": value.reason,
    }


def wait_json(wait: Wait) -> dict[str, Any]:
    """A winning tile with its remaining copies and both sides."""
    return {
        "tile": TILE_IDS[wait.kind],
        "remaining": wait.remaining,
        "self_draw": side_json(wait.self_draw),
        "discard": side_json(wait.discard),
    }


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


def option_json(option: DiscardOption, entries: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A discard option as the API gives it: discard, shanten, effective tiles, waits, value, then EV and danger."""
    r = option.result
    out: dict[str, Any] = {
        "discard": TILE_IDS[option.discard],
        "shanten": r.shanten,
        "ukeire": ukeire_json(r, entries if entries is not None else remaining_entries(r.left)),
        "waits": [wait_json(w) for w in r.waits],
        "value": r.value,
    }
    if option.estimate is not None:
        out.update(estimate_json(option.estimate))
    if option.deals_in is not None:
        out["deals_in"] = option.deals_in
    return out


def option_row(option: DiscardOption) -> dict[str, Any]:
    """A discard option as the puzzle banks store it: effective tiles as pairs, each wait's totals and hand fans.

    A wait's ``fans`` are its self-draw fans without the event fans (``Fan.event``):
    what the hand is worth, whatever moment the winning tile comes at.
    """
    r = option.result
    return {
        "discard": TILE_IDS[option.discard],
        "shanten": r.shanten,
        "ukeire": r.ukeire,
        "tiles": [[TILE_IDS[e.kind], e.remaining] for e in r.effective],
        "waits": [
            {
                "tile": TILE_IDS[w.kind],
                "remaining": w.remaining,
                "self_draw": w.self_draw.total if w.self_draw.allowed else 0,
                "discard": w.discard.total if w.discard.allowed else 0,
                "fans": [h.key for h in w.self_draw.fans if h.key not in EVENT_KEYS],
            }
            for w in r.waits
        ],
        "value": r.value,
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

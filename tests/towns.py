"""The town settlement vectors (tests/vectors/towns.json, town-rules.md §6) as ``POST /api/v1/settle/`` requests, and their checks."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from kwx.table.record import DEFAULT_PLAYERS as NAMES
from settlement.vectors import api_request
from tests.conftest import VECTORS

TOWNS = json.loads((VECTORS / "towns.json").read_text(encoding="utf-8"))
__all__ = ["NAMES", "TOWNS", "api_request", "assert_settles", "payments_of"]


def payments_of(body: dict[str, Any]) -> Counter[tuple[int, int, str, int]]:
    """The answer's payments as the multiset the vectors compare: (payer, payee, kind, amount), seats by number."""
    return Counter((NAMES.index(p["payer"]), NAMES.index(p["payee"]), p["kind"], p["amount"]) for p in body["payments"])


def assert_settles(case: dict[str, Any], body: dict[str, Any]) -> None:
    """The answer agrees with the vector: nets, the payments (kind, amount and parts), the echoed options, each win's fans, F and extras."""
    expect = case["expect"]
    assert [n["net"] for n in body["nets"]] == expect["nets"]
    assert payments_of(body) == Counter((p["payer"], p["payee"], p["kind"], p["amount"]) for p in expect["payments"])
    parts = Counter((NAMES.index(p["payer"]), NAMES.index(p["payee"]), p["kind"], json.dumps(p["parts"], sort_keys=True)) for p in body["payments"])
    assert parts == Counter((p["payer"], p["payee"], p["kind"], json.dumps(p["parts"], sort_keys=True)) for p in expect["payments"])
    assert body["options"] == expect["options"]
    shown = {NAMES.index(w["player"]): w for w in body["wins"]}
    shown.update({NAMES.index(r["player"]): r for r in body.get("ready", []) if r["ready"]})
    for winner in expect["winners"]:
        got = shown[winner["seat"]]
        assert got["tile"] == winner["tile"]
        assert sorted((f["key"], f["multiplier"]) for f in got["fans"] if f["key"] != "liang_dao") == sorted(tuple(f) for f in winner["fans"])
        assert got["fan_product"] == winner["product"]
        assert got["kan"] == winner["kan"]
        for key in ("ma", "pao_qia_mo_ba", "bao_hu", "rank"):
            if key in winner:
                assert got[key] == winner[key], key

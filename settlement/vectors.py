"""The town vectors' request format (town-rules.md §6, ``kwx-towns/1``: seats by number) read into the settle API's request shape."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kwx.table.record import DEFAULT_PLAYERS


def api_request(request: Mapping[str, Any], names: Sequence[str] = DEFAULT_PLAYERS) -> dict[str, Any]:
    """A vector's request in the shape of ``POST /api/v1/settle/``: players by name, a drawn hand's tiles under ``hands``."""
    body: dict[str, Any] = {"players": list(names)}
    for key in ("rules", "options", "base", "piao", "result", "horses", "wall_left", "dice"):
        if key in request:
            body[key] = request[key]
    body["liang_dao"] = [names[s] for s in request.get("liang_dao", [])]
    if request.get("discarder") is not None:
        body["discarder"] = names[request["discarder"]]
    body["winners"] = [{"player": names[w["seat"]], "hand": w["hand"], "melds": w.get("melds", []), "tile": w["tile"], "situation": w.get("situation", [])} for w in request.get("winners", [])]
    body["kongs"] = [
        {
            "who": names[k["seat"]],
            "type": k["type"],
            "tile": k["tile"],
            "chain": k.get("chain", 1),
            **({"fed_by": names[k["fed_by"]]} if k.get("fed_by") is not None else {}),
            **({"drawn": k["drawn"]} if "drawn" in k else {}),
        }
        for k in request.get("kongs", [])
    ]
    if "players" in request:
        body["hands"] = [{"hand": p["hand"], "melds": p.get("melds", [])} for p in request["players"]]
    return body

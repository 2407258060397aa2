"""The table of every shipped 何切 and 期望值 puzzle: ``puzzles/data/bank_tables.json.gz``.

The banks were made by seeded simulated play (``bank.generate``, ``ev.generate_ev``), which
records only the tiles seen, pooled. Played again from the seeds in the banks' meta, the same
play passes each kept position again with the whole table at that moment: every seat's river
in order and melds, the dealer, the drawn tile. Those tables are written here, keyed by puzzle,
in the shape of ``kwx.drills.table_drills.table_record`` (the table drills' own), and loaded by a
migration. The run first checks that it rebuilds the shipped banks exactly; if not, the tables
would belong to other positions and nothing is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kwx.hand.tiles import TILE_IDS

from .bank import BANK_PATH, Loaded, generate, read_bank, read_meta, write_bank
from .ev import EV_BANK_PATH, generate_ev
from .simulate import Position, SeatsSeen

BANK_TABLES_PATH = Path(__file__).resolve().parent.parent / "data" / "bank_tables.json.gz"
NAMES = ("me", "right", "left")
"""Seats from the deciding seat's chair: itself, the next seat (下家), the one before (上家)."""


class BankMismatch(Exception):
    """Playing a bank's seed again no longer makes the shipped bank."""


def table_of(seen: SeatsSeen, wall_left: int) -> dict[str, Any]:
    """A position's table from its player's chair (the table drills' shape; nobody has declared 亮倒)."""
    out: dict[str, Any] = {}
    for step, name in enumerate(NAMES):
        seat = (seen.seat + step) % 3
        out[name] = {"river": [TILE_IDS[k] for k in seen.rivers[seat]], "melds": [m.as_dict() for m in seen.melds[seat]]}
    out["dealer"] = NAMES[(seen.dealer - seen.seat) % 3]
    out["wall_left"] = wall_left
    out["drawn"] = TILE_IDS[seen.drawn] if seen.drawn is not None else None
    out["offered"] = None
    return out


def _tables(records: list[dict[str, Any]], pairs: list[tuple[dict[str, Any], Position]], shipped: Path) -> list[dict[str, Any]]:
    if records != read_bank(shipped):
        raise BankMismatch(f"{shipped.name} no longer rebuilds from its seed: its tables cannot be recovered")
    out = []
    for record, position in pairs:
        assert position.table is not None
        out.append({"key": record["key"], "hand": record["hand"], "table": table_of(position.table, position.wall_left)})
    return out


def bank_tables() -> list[dict[str, Any]]:
    """The table of each 何切 puzzle of both shipped banks, by playing their seeds again."""
    meta = read_meta(BANK_PATH)
    pairs: list[tuple[dict[str, Any], Position]] = []
    records, _stats = generate(meta["seed"], meta["count"], meta["quiz"], kept=lambda r, p: pairs.append((r, p)))
    out = _tables(records, pairs, BANK_PATH)
    ev_meta = read_meta(EV_BANK_PATH)
    ev_pairs: list[tuple[dict[str, Any], Position]] = []
    ev_records, _stats = generate_ev(ev_meta["seed"], ev_meta["count"], kept=lambda r, p: ev_pairs.append((r, p)))
    return out + _tables(ev_records, ev_pairs, EV_BANK_PATH)


def write_bank_tables(path: Path = BANK_TABLES_PATH) -> int:
    """Rebuild the tables file (byte for byte the same for the same banks); how many tables."""
    rows = bank_tables()
    write_bank(rows, path, {"from": [BANK_PATH.name, EV_BANK_PATH.name]})
    return len(rows)


def load_bank_tables(model: Any, path: Path = BANK_TABLES_PATH) -> Loaded:
    """Give each puzzle of ``model`` (historical or not) its table where the key and hand match (``updated``: how
    many were set); a stored puzzle of that key with another hand is left alone (``apart``)."""
    rows = {r["key"]: r for r in read_bank(path)}
    loaded = Loaded(records=len(rows))
    changed = []
    for puzzle in model.objects.filter(key__in=list(rows)).order_by("key"):
        row = rows[puzzle.key]
        if puzzle.hand != row["hand"]:
            loaded.apart.append(puzzle.key)
        elif puzzle.table != row["table"]:
            puzzle.table = row["table"]
            changed.append(puzzle)
    model.objects.bulk_update(changed, ["table"], batch_size=500)
    loaded.updated = len(changed)
    return loaded

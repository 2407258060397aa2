"""Why a drill's answer is right, in one or two sentences made from the engine's own figures for *this* position.

A 何切 puzzle: the answer's waits and value (tiles left × (self-draw + discard multiplier)) or its
shanten and effective tiles, against the best wrong discard's. A table drill: each choice's mean
net money over the deals played out, with its standard error and the hand it leaves (shanten,
effective tiles, waits), and how far the best is ahead in paired standard errors.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from kwx.table.view import SeatView
from kwx_site.text import english, fan_name, shanten_words, tile_label

KONG_TYPES = {"an_gang": "暗杠", "ming_gang": "蓄杠", "zhi_gang": "直杠"}


def _money(value: float) -> str:
    return f"{value:+.2f}".replace("-", "−")


def _wait_parts(wait: list[Any] | dict[str, Any]) -> tuple[str, int, int, int, list[str]]:
    """A stored wait as (tile, copies left, self-draw total, discard total, fan keys), from either stored form.

    The 何切 bank stores a wait as a dict (``serial.option_row``), the table drills as a list
    ``[tile, left, self-draw, discard]`` (``drills.figures``).
    """
    if isinstance(wait, dict):
        return wait["tile"], wait["remaining"], wait["self_draw"], wait["discard"], wait.get("fans", [])
    tile, left, self_draw, discard = wait
    return tile, left, self_draw, discard, []


def wait_text(wait: list[Any] | dict[str, Any]) -> str:
    """One wait: 五筒 2 × (2+2), its copies left times what a win on it pays by self-draw and by discard."""
    tile, left, self_draw, discard, fans = _wait_parts(wait)
    named = tile_label(tile) + (f"（{'、'.join(fan_name(f) for f in fans)}）" if fans else "")
    return _("%(tile)s %(left)d left × (%(self)d+%(discard)d)") % {"tile": named, "left": left, "self": self_draw, "discard": discard}


def shape_text(row: dict[str, Any]) -> str:
    """The hand a choice leaves: ready with each wait and the total value, or its shanten and effective tiles."""
    waits = row.get("waits")
    if row["shanten"] == 0 and waits:
        total = sum(left * (self_draw + discard) for _tile, left, self_draw, discard, _fans in map(_wait_parts, waits))
        return _("ready on %(waits)s = %(value)d") % {"waits": " + ".join(wait_text(w) for w in waits), "value": total}
    return _("%(shanten)s, %(count)d effective tiles") % {"shanten": shanten_words(row["shanten"]), "count": row["ukeire"]}


def discard_explanation(puzzle: Any) -> list[str]:
    """Why the accepted discard of a 何切 puzzle beats the best wrong one, from the option table's figures."""
    rows = puzzle.options
    best = next(r for r in rows if r["discard"] in puzzle.accepted)
    other = next((r for r in rows if r["discard"] not in puzzle.accepted), None)
    first = _("Discard %(tile)s: %(shape)s.") % {"tile": tile_label(best["discard"]), "shape": shape_text(best)}
    if other is None:
        return [str(first)]
    if other["shanten"] > best["shanten"]:
        second = _("Discard %(tile)s steps back to %(shanten)s.") % {"tile": tile_label(other["discard"]), "shanten": shanten_words(other["shanten"])}
    else:
        second = _("Discard %(tile)s: only %(shape)s.") % {"tile": tile_label(other["discard"]), "shape": shape_text(other)}
    return [str(first), str(second)]


def choice_text(kind: str, row: dict[str, Any], view: SeatView | None) -> str:
    """A table drill's choice in words: 碰五筒, 过, 暗杠五筒, 不杠（打三条）, 打八筒并亮倒, 打八筒不亮 …"""
    answer = row["answer"]
    if answer == "pong":
        return _("Pong %(tile)s") % {"tile": tile_label(_called(view, "pong"))}
    if answer == "kong":
        return _("Kong %(tile)s (%(type)s)") % {"tile": tile_label(_called(view, "kong")), "type": KONG_TYPES.get(row.get("kong_type", ""), "杠")}
    if answer == "pass":
        if kind == "kong" and row.get("discard"):
            return _("No kong (discard %(tile)s)") % {"tile": tile_label(row["discard"])}
        return _("Pass (过)")
    if answer == "declare":
        return _("Discard %(tile)s and declare 亮倒") % {"tile": tile_label(row["discard"])}
    if answer == "hidden":
        return _("Discard %(tile)s, stay hidden") % {"tile": tile_label(row["discard"])}
    return _("Discard %(tile)s") % {"tile": tile_label(answer)}


def _called(view: SeatView | None, verb: str) -> str:
    """The tile of the drill's pong or kong (the first its decision offers)."""
    action = next((a for a in view.options if a.verb == verb), None) if view is not None else None
    return action.tile if action is not None else "?"


def _row_sentence(kind: str, row: dict[str, Any], view: SeatView | None) -> str:
    names = {"choice": choice_text(kind, row, view), "mean": _money(row["mean"]), "se": f"{row['se']:.2f}"}
    if row.get("dangerous"):
        return _("%(choice)s deals into the 亮倒 hand (包胡): %(mean)s") % names
    shape = shape_text(row)
    if row.get("then"):
        shape = _("then discard %(tile)s: %(shape)s") % {"tile": tile_label(row["then"]), "shape": shape}
    return _("%(choice)s: %(mean)s ± %(se)s (%(shape)s)") % (names | {"shape": shape})


def table_explanation(puzzle: Any) -> list[str]:
    """Why a table drill's answer is right: the mean net of each choice with its standard error and the hand it leaves, and the margin."""
    rows, view, margin = puzzle.options, puzzle.view, puzzle.verdict.get("margin", {})
    best = rows[0]
    shown = [best] + [r for r in rows[1:] if not r["right"]][:1]
    shown += [r for r in rows if r.get("dangerous") and r not in shown][:1]
    sep, end = ("; ", ".") if english() else ("；", "。")
    first = sep.join(_row_sentence(puzzle.kind, r, view) for r in shown) + end
    if not margin:
        return [first]
    se = margin["se"] or 0.0
    names = {
        "best": choice_text(puzzle.kind, best, view),
        "diff": f"{margin['diff']:.2f}",
        "worlds": margin["worlds"],
        "sigmas": f"{margin['diff'] / se:.1f}" if se else "∞",
    }
    second = _("%(best)s is ahead by %(diff)s base stakes a hand over the same %(worlds)d deals played out, %(sigmas)s standard errors of the paired difference.") % names
    return [first, str(second)]


KIND_NAMES = {
    "pong": gettext_lazy("碰不碰 (pong or pass)"),
    "kong": gettext_lazy("杠不杠 (kong or not)"),
    "declare": gettext_lazy("亮不亮 (declare or not)"),
    "defence": gettext_lazy("Defence against 亮倒"),
}
"""The table drills' names, for the sidebar and the mode badge."""
KIND_PROMPTS = {
    "pong": gettext_lazy("Pong the offered tile, or pass?"),
    "kong": gettext_lazy("Kong now, or not?"),
    "declare": gettext_lazy("With this discard: declare 亮倒, or stay hidden?"),
    "defence": gettext_lazy("An opponent has declared 亮倒: which tile do you throw?"),
}
ORDER = {"pong": 0, "kong": 0, "declare": 0, "hidden": 1, "pass": 2}


def choice_buttons(puzzle: Any) -> list[dict[str, Any]]:
    """A table drill's choices in a fixed order that gives nothing away (calls first, then 过; defence: tiles in hand order)."""
    rows = [{"answer": r["answer"], "label": choice_text(puzzle.kind, r, puzzle.view), "tile": r["answer"] if puzzle.kind == "defence" else None} for r in puzzle.options]
    if puzzle.kind == "defence":
        order = puzzle.hand_tiles
        return sorted(rows, key=lambda r: order.index(r["answer"]) if r["answer"] in order else len(order))
    return sorted(rows, key=lambda r: ORDER.get(r["answer"], 1))


def choice_rows(puzzle: Any) -> list[dict[str, Any]]:
    """A table drill's choices best first, each with its words, mean and the hand it leaves (the answer's table)."""
    return [{**r, "label": choice_text(puzzle.kind, r, puzzle.view), "mean_text": _money(r["mean"]), "shape": _("deals in (包胡)") if r.get("dangerous") else shape_text(r)} for r in puzzle.options]

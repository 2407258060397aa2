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

from kwx.hand.tiles import TILE_IDS
from kwx.table.view import SeatView
from kwx_site.figures import figure
from kwx_site.table import seat_name
from kwx_site.text import english, fan_name, shanten_words, tile_label

KONG_TYPES = {"an_gang": "暗杠", "ming_gang": "蓄杠", "zhi_gang": "直杠"}


def _money(value: float) -> str:
    return figure(value, 2, signed=True)


def _wait_parts(wait: list[Any] | dict[str, Any]) -> tuple[str, int, int, int, list[str], float]:
    """A stored wait as (tile, copies left, self-draw total, discard total, fan keys, worth), from either stored form.

    The 何切 bank stores a wait as a dict (``serial.option_row``), the table drills as a list
    ``[tile, left, self-draw, discard]`` (``drills.figures``). ``worth`` is what one copy adds to the
    value: the two totals, and under a town's flat extras (坎 …) the wait's stored ``worth``.
    """
    if isinstance(wait, dict):
        worth = wait.get("worth", wait["self_draw"] + wait["discard"])
        return wait["tile"], wait["remaining"], wait["self_draw"], wait["discard"], wait.get("fans", []), worth
    tile, left, self_draw, discard = wait
    return tile, left, self_draw, discard, [], self_draw + discard


def wait_text(wait: list[Any] | dict[str, Any]) -> str:
    """One wait: 五筒 2 × (2+2), its copies left times what a win on it pays by self-draw and by discard (and the flat extras on top, under a town that has them)."""
    tile, left, self_draw, discard, fans, worth = _wait_parts(wait)
    named = tile_label(tile) + (f"（{'、'.join(fan_name(f) for f in fans)}）" if fans else "")
    words = {"tile": named, "left": left, "self": self_draw, "discard": discard}
    if worth != self_draw + discard:
        return _("%(tile)s %(left)d left × (%(self)d+%(discard)d, plus %(extra)d flat)") % {**words, "extra": worth - self_draw - discard}
    return _("%(tile)s %(left)d left × (%(self)d+%(discard)d)") % words


def _ready_value(row: dict[str, Any]) -> float | None:
    """What a ready choice is worth (§4: each wait's copies left times its self-draw plus discard amount); None when it is not ready.
    (Whole in every 何切 bank: a fractional worth comes only from an expected 马, and no bank is made under 买马.)"""
    waits = row.get("waits")
    if row["shanten"] != 0 or not waits:
        return None
    return sum(left * worth for _tile, left, _self, _discard, _fans, worth in map(_wait_parts, waits))


def shape_text(row: dict[str, Any]) -> str:
    """The hand a choice leaves: ready with each wait and the total value, or its shanten and effective tiles."""
    value = _ready_value(row)
    if value is not None:
        return _("ready on %(waits)s = %(value)d") % {"waits": " + ".join(wait_text(w) for w in row["waits"]), "value": value}
    return _("%(shanten)s, %(count)d effective tiles") % {"shanten": shanten_words(row["shanten"]), "count": row["ukeire"]}


def _same_shanten_text(other: dict[str, Any], best: dict[str, Any], mine: bool) -> str:
    """Why a choice at the best's own shanten loses: it is ready too but worth less, or as far from ready with fewer effective tiles
    (never "only one-shanten" when the best is one-shanten too)."""
    value, best_value = _ready_value(other), _ready_value(best)
    tile = tile_label(other["discard"])
    if value is not None and best_value is not None and value < best_value:
        words = {"tile": tile, "shape": shape_text(other), "best": best_value}
        if mine:
            return _("Your discard %(tile)s is ready too, but worth less: %(shape)s, against %(best)d.") % words
        return _("Discard %(tile)s is ready too, but worth less: %(shape)s, against %(best)d.") % words
    if value is None and best_value is None and other["ukeire"] < best["ukeire"]:
        words = {"tile": tile, "shanten": shanten_words(other["shanten"]), "count": other["ukeire"], "best": best["ukeire"]}
        if mine:
            return _("Your discard %(tile)s leaves %(shanten)s too, but fewer effective tiles: %(count)d against %(best)d.") % words
        return _("Discard %(tile)s leaves %(shanten)s too, but fewer effective tiles: %(count)d against %(best)d.") % words
    if mine:
        return _("Your discard %(tile)s leaves %(shape)s.") % {"tile": tile, "shape": shape_text(other)}
    return _("Discard %(tile)s leaves %(shape)s.") % {"tile": tile, "shape": shape_text(other)}


def _tiles_text(tiles: list[str]) -> str:
    return str(_(" or ")).join(tile_label(t) for t in tiles)


def discard_explanation(puzzle: Any, answer: str | None = None) -> list[str]:
    """Why the accepted discard of a 何切 puzzle is best, said about the player's own ``answer`` when given.

    A right answer tied with another is told it is one of the best; a wrong one is told what it
    leaves, and that it steps back a shanten when it does; without an answer the best wrong
    discard is the comparison.
    """
    rows = puzzle.options
    by_tile = {r["discard"]: r for r in rows}
    mine = by_tile.get(answer) if answer else None
    if mine is not None and mine["discard"] in puzzle.accepted:
        best = mine
        others = [t for t in puzzle.accepted if t != answer]
        if others:
            first = _("Discard %(tile)s is one of the best: %(shape)s, as good as discarding %(others)s.") % {
                "tile": tile_label(answer),
                "shape": shape_text(mine),
                "others": _tiles_text(others),
            }
        else:
            first = _("Discard %(tile)s is the best: %(shape)s.") % {"tile": tile_label(answer), "shape": shape_text(mine)}
        other = next((r for r in rows if r["discard"] not in puzzle.accepted), None)
    else:
        best = next(r for r in rows if r["discard"] in puzzle.accepted)
        tied = [t for t in puzzle.accepted if t != best["discard"]]
        if tied:
            first = _("Discard %(tile)s (or %(others)s, just as good): %(shape)s.") % {"tile": tile_label(best["discard"]), "others": _tiles_text(tied), "shape": shape_text(best)}
        else:
            first = _("Discard %(tile)s: %(shape)s.") % {"tile": tile_label(best["discard"]), "shape": shape_text(best)}
        other = mine if mine is not None else next((r for r in rows if r["discard"] not in puzzle.accepted), None)
    if other is None:
        return [str(first)]
    if other["shanten"] > best["shanten"]:
        words = {"tile": tile_label(other["discard"]), "shanten": shanten_words(other["shanten"]), "from": shanten_words(best["shanten"]), "shape": shape_text(other)}
        if other is mine:
            second = _("Your discard %(tile)s steps back a shanten: from %(from)s to %(shanten)s (%(shape)s).") % words
        else:
            second = _("Discard %(tile)s steps back to %(shanten)s.") % words
    else:
        second = _same_shanten_text(other, best, other is mine)
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
            if row.get("liang_dao"):
                return _("No kong (discard %(tile)s and declare 亮倒)") % {"tile": tile_label(row["discard"])}
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
    names = {"choice": choice_text(kind, row, view), "mean": _money(row["mean"]), "se": figure(row["se"])}
    if row.get("dangerous"):
        return _("%(choice)s deals into the 亮倒 hand (包胡): %(mean)s") % names
    shape = shape_text(row)
    if row.get("then"):
        shape = _("then discard %(tile)s: %(shape)s") % {"tile": tile_label(row["then"]), "shape": shape}
    return _("%(choice)s: %(mean)s ± %(se)s (%(shape)s)") % (names | {"shape": shape})


KONG_MONEY = {
    "an_gang": gettext_lazy("a 暗杠 is paid 2 by each other player, 4 base stakes in all"),
    "ming_gang": gettext_lazy("a 蓄杠 is paid 1 by each other player, 2 base stakes in all"),
    "zhi_gang": gettext_lazy("a 直杠 is paid 2 by the discarder"),
}
"""Kong money (喜钱, kwx-rules §6), paid at once whatever the end of the hand and never doubled by 亮倒."""


def robbed_by(view: SeatView | None, kong: dict[str, Any]) -> int | None:
    """The revealed (亮倒) seat whose waits take the tile of an added kong (蓄杠): it robs the kong (抢杠胡) at once; None when no revealed hand waits on it."""
    if view is None or kong.get("kong_type") != "ming_gang":
        return None
    tile = _called(view, "kong")
    return next((o for o in view.others() if view.seats[o].liang_dao and tile in {TILE_IDS[k] for k in view.seats[o].waits}), None)


def _kong_reason(kind: str, rows: list[dict[str, Any]], view: SeatView | None) -> str:
    """What separates konging from not: a revealed hand that robs the added kong when one waits on its tile; else the kong money it collects, and what each leaves of the hand."""
    kong = next((r for r in rows if r["answer"] == "kong"), None)
    other = next((r for r in rows if r["answer"] != "kong"), None)
    if kong is None or other is None:
        return ""
    robber = robbed_by(view, kong)
    if robber is not None and view is not None:
        return str(
            _(
                "The money is in the robbed kong: %(seat)s has declared 亮倒 and waits on %(tile)s, so the added kong (蓄杠) is won on at once (抢杠胡) — a win on a declared hand, paid by you for everyone (包胡): %(kong)s %(mean)s against %(other)s %(omean)s."
            )
            % {
                "seat": seat_name(robber, view.seat),
                "tile": tile_label(_called(view, "kong")),
                "kong": choice_text(kind, kong, view),
                "mean": _money(kong["mean"]),
                "other": choice_text(kind, other, view),
                "omean": _money(other["mean"]),
            }
        )
    names = {
        "money": KONG_MONEY.get(kong.get("kong_type", ""), KONG_MONEY["zhi_gang"]),
        "kong": choice_text(kind, kong, view),
        "other": choice_text(kind, other, view),
        "kshape": shape_text(kong),
        "oshape": shape_text(other),
    }
    if names["kshape"] == names["oshape"]:
        return str(
            _("Both leave the same hand (%(kshape)s): what separates them is the kong money — %(money)s, at once and whatever the end of the hand (荒庄不荒杠) — and the replacement draw.") % names
        )
    return str(_("The kong money: %(money)s, at once and whatever the end of the hand (荒庄不荒杠); against it, the hand: %(kong)s leaves %(kshape)s, %(other)s leaves %(oshape)s.") % names)


def _declare_reason(kind: str, rows: list[dict[str, Any]], view: SeatView | None) -> str:
    """What declaring 亮倒 gives (every win doubled, a discard win for a 屁胡) and what it costs, and which weighs more here."""
    declare = next((r for r in rows if r["answer"] == "declare"), None)
    hidden = next((r for r in rows if r["answer"] == "hidden"), None)
    if declare is None or hidden is None:
        return ""
    gives = _("Declaring 亮倒 doubles every win (%(d)s against %(h)s hidden)") % {"d": shape_text(declare), "h": shape_text(hidden)}
    if any(_wait_parts(w)[3] == 0 for w in hidden.get("waits") or []):
        gives = _("%(gives)s and lets a wait that is only 屁胡 win on a discard (hidden it must be self-drawn)") % {"gives": gives}
    costs = _(
        "it costs the hand's freedom (locked: only the drawn tile may be discarded), the others see your waits and hold them back, and at a drawn hand (荒庄) you pay each player who did not declare 1"
    )
    declare_best = declare["mean"] >= hidden["mean"]
    verdict = _("Here what it gives is worth more: declare %(d)s against stay hidden %(h)s.") if declare_best else _("Here what it costs weighs more: stay hidden %(h)s against declare %(d)s.")
    sep = ", " if english() else "；"
    return str(gives) + sep + str(costs) + (". " if english() else "。") + str(verdict % {"d": _money(declare["mean"]), "h": _money(hidden["mean"])})


def table_explanation(puzzle: Any, answer: str | None = None) -> list[str]:
    """Why a table drill's answer is right: the player's own choice (``answer``) and the best with their figures, the reason, the margin.

    Each choice's mean net with its standard error and the hand it leaves; a right answer that is
    not the top row is told it is one of the best; a kong drill always shows the kong and names its
    money (when 碰 is the runner-up too), a 亮倒 drill what declaring gives and costs.
    """
    rows, view, margin = puzzle.options, puzzle.view, puzzle.verdict.get("margin", {})
    best = rows[0]
    mine = next((r for r in rows if r["answer"] == answer), None) if answer else None
    if mine is not None and mine is not best:
        shown = [best, mine]
    else:
        shown = [best] + [r for r in rows[1:] if not r["right"]][:1]
    shown += [r for r in rows if r.get("dangerous") and r not in shown][:1]
    shown += [r for r in rows if puzzle.kind == "kong" and r["answer"] == "kong" and r not in shown]  # a 杠不杠 drill always weighs the kong
    sep, end = ("; ", ".") if english() else ("；", "。")
    sentences = []
    if mine is not None and mine["right"] and mine is not best:
        sentences.append(
            str(
                _("%(choice)s is one of the best: over the deals played out it is not clearly behind %(best)s.")
                % {"choice": choice_text(puzzle.kind, mine, view), "best": choice_text(puzzle.kind, best, view)}
            )
        )
    elif mine is not None and mine["right"] and len([r for r in rows if r["right"]]) > 1:
        sentences.append(str(_("%(choice)s is one of the best: the other right answers are not clearly behind it.") % {"choice": choice_text(puzzle.kind, mine, view)}))
    sentences.append(sep.join(_row_sentence(puzzle.kind, r, view) for r in shown) + end)
    reason = _kong_reason(puzzle.kind, shown, view) if puzzle.kind == "kong" else _declare_reason(puzzle.kind, shown, view) if puzzle.kind == "declare" else ""
    if reason:
        sentences.append(reason)
    if not margin:
        return sentences
    se = margin["se"] or 0.0
    names = {
        "best": choice_text(puzzle.kind, best, view),
        "diff": figure(margin["diff"]),
        "worlds": margin["worlds"],
        "sigmas": figure(margin["diff"] / se, 1) if se else "∞",
    }
    sentences.append(str(_("%(best)s is ahead by %(diff)s base stakes a hand over the same %(worlds)d deals played out, %(sigmas)s standard errors of the paired difference.") % names))
    return sentences


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
    return [
        {**r, "label": choice_text(puzzle.kind, r, puzzle.view), "mean_text": _money(r["mean"]), "se_text": figure(r["se"]), "shape": _("deals in (包胡)") if r.get("dangerous") else shape_text(r)}
        for r in puzzle.options
    ]

"""The rows of a discard table ("each discard and what it leaves"), one shape wherever the figures came from.

Every page that lists a hand's discards draws them with ``templates/partials/discards.html``
from ``DiscardRow`` values: the analyzer from the options of an ``/api/v1/analyze/`` body
(``from_api``), the drills from the puzzle bank's stored rows (``from_bank``:
``serial.option_row``, with the 期望值 bank's ``serial.estimate_row`` joined on by discard).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple


class TileLeft(NamedTuple):
    """A tile and how many copies of it are still unseen."""

    tile: str
    remaining: int


@dataclass(frozen=True, slots=True)
class EVCell:
    """An EV figure set as a page shows it: ready and win chance in percent, expected score; ``*_pm`` the standard errors (None when exact)."""

    ready: float
    win: float
    score: float
    ready_pm: float | None = None
    win_pm: float | None = None
    score_pm: float | None = None


@dataclass(frozen=True, slots=True)
class WaitCell:
    """One winning tile of a ready discard: copies left, the self-draw and discard totals (None: that win is not allowed), the hand's fans."""

    tile: str
    remaining: int
    self_draw: int | None
    discard: int | None
    fans: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DiscardRow:
    """One discard of a 14-tile hand and what it leaves, with the marks the table shows.

    ``then``: the winning tiles when ready, else the effective tiles, each with copies left;
    ``left``: the effective tiles' total; ``waits``: each winning tile's totals and fans.
    Marks: ``best`` (best by the table's ranking), ``ev_best`` (best by expected score),
    ``plain_best`` (best by the plain ranking, when the table ranks by another), ``mine`` (the
    player's answer), ``chosen`` (the row whose detail the page shows), ``deals_in`` (包胡 to a
    revealed hand), ``reference`` (steps back a shanten: its EV figures are for reference).
    """

    discard: str
    shanten: int
    then: tuple[TileLeft, ...]
    left: int
    value: float | None
    """The §4 value: whole under rules without flat extras, fractional with an expected 马 (shown to 2 decimals)."""
    waits: tuple[WaitCell, ...] = ()
    ev: EVCell | None = None
    link: str = ""
    best: bool = False
    ev_best: bool = False
    plain_best: bool = False
    mine: bool = False
    chosen: bool = False
    deals_in: bool = False
    reference: bool = False


def ev_cell(item: Mapping[str, Any]) -> EVCell | None:
    """The EV figures of an API result or option (``ready_probability`` …, ``stderr`` when sampled), or None without them."""
    if item.get("win_probability") is None:
        return None
    errors = item.get("stderr")
    return EVCell(
        ready=100 * item["ready_probability"],
        win=100 * item["win_probability"],
        score=item["expected_score"],
        ready_pm=100 * errors["ready_probability"] if errors else None,
        win_pm=100 * errors["win_probability"] if errors else None,
        score_pm=errors["expected_score"] if errors else None,
    )


def _api_wait(wait: Mapping[str, Any]) -> WaitCell:
    def total(side: Mapping[str, Any]) -> int | None:
        return side["total"] if side["allowed"] else None

    return WaitCell(wait["tile"], wait["remaining"], total(wait["self_draw"]), total(wait["discard"]), tuple(f["key"] for f in wait["self_draw"]["fans"]))


def from_api(
    options: Iterable[Mapping[str, Any]],
    *,
    best: Collection[str] = (),
    ev_best: Collection[str] = (),
    chosen: str = "",
    links: Mapping[str, str] | None = None,
) -> list[DiscardRow]:
    """The rows of an ``/api/v1/analyze/`` body's options, in its order; a row with EV figures that steps back a shanten is ``reference``."""
    options = list(options)
    least = min((o["shanten"] for o in options), default=0)
    rows = []
    for o in options:
        waits = tuple(_api_wait(w) for w in o["waits"])
        ev = ev_cell(o)
        rows.append(
            DiscardRow(
                discard=o["discard"],
                shanten=o["shanten"],
                then=tuple(TileLeft(w.tile, w.remaining) for w in waits) or tuple(TileLeft(e["tile"], e["remaining"]) for e in o["ukeire"]["tiles"]),
                left=o["ukeire"]["total"],
                value=o["value"],
                waits=waits,
                ev=ev,
                link=(links or {}).get(o["discard"], ""),
                best=o["discard"] in best,
                ev_best=o["discard"] in ev_best,
                chosen=o["discard"] == chosen,
                deals_in=bool(o.get("deals_in")),
                reference=ev is not None and o["shanten"] > least,
            )
        )
    return rows


def from_bank(
    options: Iterable[Mapping[str, Any]],
    *,
    accepted: Collection[str],
    plain_best: Collection[str] = (),
    mine: str = "",
    estimates: Iterable[Mapping[str, Any]] | None = None,
) -> list[DiscardRow]:
    """The rows of a puzzle's stored options (``serial.option_row``); with ``estimates`` (``serial.estimate_row``) in their order, EV figures joined on.

    ``accepted`` are the puzzle's answers (its best); ``plain_best`` the plain ranking's best
    when the puzzle is answered by expected score.
    """
    plain = {o["discard"]: o for o in options}
    order = [(plain[e["discard"]], e) for e in estimates] if estimates is not None else [(o, None) for o in plain.values()]
    least = min((o["shanten"] for o in plain.values()), default=0)
    rows = []
    for o, e in order:
        waits = tuple(WaitCell(w["tile"], w["remaining"], w["self_draw"] or None, w["discard"] or None, tuple(w["fans"])) for w in o["waits"])
        rows.append(
            DiscardRow(
                discard=o["discard"],
                shanten=o["shanten"],
                then=tuple(TileLeft(w.tile, w.remaining) for w in waits) or tuple(TileLeft(tile, n) for tile, n in o["tiles"]),
                left=o["ukeire"],
                value=o["value"],
                waits=waits,
                ev=EVCell(100 * e["ready"], 100 * e["win"], e["score"]) if e is not None else None,
                best=o["discard"] in accepted,
                plain_best=o["discard"] in plain_best,
                mine=o["discard"] == mine,
                reference=e is not None and o["shanten"] > least,
            )
        )
    return rows

"""Puzzles for tests, built by the engine itself (never a hard-coded answer)."""

from __future__ import annotations

import uuid
from functools import partial
from itertools import count
from typing import Any

from kwx import build_hand
from kwx.drills.simulate import Candidate
from kwx.hand.efficiency import best_discards, discard_options
from kwx.hand.ev import compare_rankings
from kwx.hand.notation import format_counts
from kwx.hand.rules import make_rules
from kwx.hand.scoring import score_win
from kwx.hand.serial import option_row
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS, kinds_of
from kwx.table.view import PublicSeat, SeatView
from puzzles.banks import NAMES, TOWN_BANK, load_banks
from puzzles.generation.bank import PREFIX, read_bank
from puzzles.generation.ev import EV_BANK_PATH, ev_record, judge_ev
from puzzles.generation.themes import tag
from puzzles.models import Puzzle

_serial = count(1)
_EV_SHIPPED = bool(read_bank(EV_BANK_PATH))
"""Whether the 期望值 bank ships any drill (the table judges them: docs/drills.md); an empty one counts as loaded."""


def _town_bank_present(rules: str) -> bool:
    return Puzzle.objects.filter(key__startswith=f"{rules}-").exists()


_PRESENT = {
    "bank": lambda: Puzzle.objects.filter(key__startswith=PREFIX["discard"]).exists() and Puzzle.objects.filter(key__startswith=PREFIX["quiz"]).exists(),
    "ev_bank": lambda: not _EV_SHIPPED or Puzzle.objects.filter(key__startswith=PREFIX["ev"]).exists(),
    "table_bank": lambda: Puzzle.objects.filter(kind__in=Puzzle.TABLE_KINDS).exists(),
    **{name: partial(_town_bank_present, name.removeprefix(TOWN_BANK)) for name in NAMES if name.startswith(TOWN_BANK)},
}
"""Whether a bank is in the database, by ``puzzles.banks`` name (a town's bank: its keys ``xiaogan-…``)."""


def ensure_bank(*names: str) -> None:
    """The named shipped banks (all when none is named) in the test database, loaded as ``manage.py load_banks``
    loads them when missing: the session loaded them all once, and a live-server test flushes the database."""
    missing = [name for name in names or NAMES if not _PRESENT[name]()]
    if missing:
        load_banks(names=missing)


def table_drill(kind: str, n: int = 0) -> Puzzle:
    """The ``n``-th shipped table drill of ``kind`` (made by the generator and verified by its rollouts)."""
    ensure_bank("table_bank")
    return Puzzle.objects.filter(kind=kind).order_by("key")[n]


def ev_puzzle(notation: str, draws_left: int, visible: str = "", rules: str = "standard") -> Puzzle:
    """A 期望值 puzzle made by the generator's own code from the engine's two rankings (must pass the EV filter)."""
    hand, seen = build_hand(notation, visible=visible)
    rule_set = make_rules(rules)
    comparison = compare_rankings(hand, seen, rule_set, draws_left)
    verdict = judge_ev(comparison)
    assert verdict is not None, f"{notation} with {draws_left} draws is no 期望值 puzzle"
    # the tiles seen lie in the next seat's river; the player has just drawn its 14th tile
    seats = (PublicSeat(melds=hand.melds, tiles=sum(hand.concealed)), PublicSeat(river=kinds_of(seen)), PublicSeat())
    view = SeatView(seat=0, rules=rule_set, dealer=0, phase="act", turn=0, kind=None, drawn=45 - 3 * draws_left, seats=seats, concealed=hand.concealed)
    position = Candidate(view, 0, comparison.plain_options)
    r = ev_record(position, draws_left, comparison, verdict)
    return Puzzle.objects.create(
        key=f"t{next(_serial):05d}",
        kind=Puzzle.DISCARD,
        hand=r["hand"],
        melds=r["melds"],
        visible=r["visible"],
        rules=rules,
        wall_left=r["wall_left"],
        draws_left=draws_left,
        accepted=r["accepted"],
        options=r["options"],
        ev=r["ev"],
        themes=" ev ",
        rating=r["rating"],
    )


def discard_puzzle(notation: str, visible: str = "", rules: str = "standard", rating: float = 1500.0, model: Any = Puzzle) -> Puzzle:
    """A 何切 puzzle whose accepted answers and option table come from the engine."""
    hand, seen = build_hand(notation, visible=visible)
    options = discard_options(hand, seen, make_rules(rules))
    return model.objects.create(
        key=f"t{next(_serial):05d}",
        kind=Puzzle.DISCARD,
        hand=format_counts(hand.concealed),
        melds=[m.as_dict() for m in hand.melds],
        visible=format_counts(seen),
        rules=rules,
        accepted=[TILE_IDS[k] for k in best_discards(options)],
        options=[option_row(o) for o in options],
        themes=" " + " ".join(tag(hand, options)) + " ",
        rating=rating,
    )


def quiz_puzzle(notation: str, win: str, side: str = "self_draw", rules: str = "standard", situation: tuple[str, ...] = (), model: Any = Puzzle) -> Puzzle:
    """A 算番 quiz item whose answer is the engine's total."""
    hand, _ = build_hand(notation)
    sd, dc = score_win(hand, KIND_OF_ID[win], make_rules(rules, situation))
    value = sd if side == "self_draw" else dc
    return model.objects.create(
        key=f"t{next(_serial):05d}",
        kind=Puzzle.QUIZ,
        hand=format_counts(hand.concealed),
        melds=[m.as_dict() for m in hand.melds],
        rules=rules,
        situation=list(situation),
        win_tile=win,
        win_side=side,
        accepted=[str(value.total)],
        options={
            "choices": sorted({1, value.total, value.total * 2, value.total * 4}),
            "product": value.product,
            "total": value.total,
            "fans": [{"key": h.key, "multiplier": h.multiplier} for h in value.fans],
        },
        themes="",
    )


def aid(label: object) -> str:
    """A fixed attempt id (a UUID, as the API requires) for a test's label."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"kwx-test-attempt:{label}"))

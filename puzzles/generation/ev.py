"""The 期望值 drill: positions where the EV-best discard is not the plain best (issue 9).

Candidates come from the same simulated play as the main bank. A position is tried
when its best discard leaves the hand ready or 1-shanten (so every discard is at
most 2 from ready and the exact programme of ``kwx.hand.ev`` is fast), with
``draws_left = wall_left // 3`` own draws still to come (the two others draw before
the player's next tile). ``judge_ev`` keeps it when (the *EV margin rule*):

1. no EV-best discard is best by the plain ranking (``RankingComparison.differs``);
2. at most ``MAX_EV_ACCEPTED`` (2) discards are tied EV-best;
3. every other discard (the plain best included) loses on expected score by at least
   max(``EV_MARGIN[0]`` = 0.05 base stakes, ``EV_MARGIN[1]`` = 5 % of the best).

The records go to ``puzzles/data/ev_bank.json.gz`` (loaded by migration 0004); the
accepted answers are ``ev_best``, ``options`` keeps the plain option table and
``ev`` the EV ranking, so a page can show both.

The EV model lets nobody else win; at the table the others win and declare 亮倒. So a drill is
also **judged at the table** (:func:`judge_at_table`, ``manage.py judge_ev_drills``): its
discards played out by the judge in every seat; it stays only when the table agrees, and keeps
the table's figures beside the model's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kwx.bots.registry import policy_factory
from kwx.drills.confirm import play_out
from kwx.drills.simulate import Candidate, play_deal
from kwx.drills.table_drills import RULE, clearly_worse
from kwx.hand.ev import RankingComparison, compare_rankings
from kwx.hand.rules import make_rules
from kwx.hand.serial import estimate_row, option_row
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.numbers import seed_of
from kwx.table.advice import mean_se, paired
from kwx.table.table import Action
from kwx.table.view import SeatView

from .bank import PREFIX, PRESET_WEIGHTS, Stats, clamp_rating, position_fields, position_key
from .themes import EV_THEME

EV_BANK_PATH = Path(__file__).resolve().parent.parent / "data" / "ev_bank.json.gz"
MAX_EV_SHANTEN = 1
MAX_EV_ACCEPTED = 2
EV_MARGIN = (0.05, 0.05)
"""(absolute in base stakes, share of the best expected score) the runner-up must lose by."""
PLAYERS = 3


@dataclass(frozen=True, slots=True)
class EVVerdict:
    """Why an EV position was kept: its EV-best discards and how clearly the runner-up loses."""

    accepted: tuple[int, ...]
    best: float
    runner_up: float

    @property
    def margin(self) -> float:
        """Expected score the runner-up gives up, in base stakes."""
        return self.best - self.runner_up


def draws_left_at(wall_left: int) -> int:
    """Own draws still to come when ``wall_left`` tiles remain after the player's draw."""
    return wall_left // PLAYERS


def clear_ev_margin(best: float, runner_up: float) -> bool:
    """Whether the EV-best beats the runner-up by the EV margin rule (point 3 above)."""
    floor, share = EV_MARGIN
    return best - runner_up >= max(floor, share * best) - 1e-12


def judge_ev(comparison: RankingComparison) -> EVVerdict | None:
    """The verdict on both rankings of a position, or None when it is no 期望值 puzzle."""
    if not comparison.differs or not 1 <= len(comparison.ev_best) <= MAX_EV_ACCEPTED:
        return None
    accepted = set(comparison.ev_best)
    best = comparison.ev_options[0].estimate.expected_score
    others = [o for o in comparison.ev_options if o.discard not in accepted]
    if not others:
        return None
    runner_up = max(o.estimate.expected_score for o in others)
    if not clear_ev_margin(best, runner_up):
        return None
    return EVVerdict(comparison.ev_best, best, runner_up)


def ev_rating(verdict: EVVerdict, position: Candidate) -> int:
    """A first difficulty estimate: these go against the plain count, so they start high; a thin margin is harder."""
    relative = verdict.margin / max(verdict.best, 1e-9)
    rating = 1500 + 400 * (1 - min(relative, 0.5) / 0.5)
    rating += 60 * len(position.hand.melds) + (80 if len(verdict.accepted) == 1 else 0)
    return clamp_rating(rating)


def ev_record(position: Candidate, draws_left: int, comparison: RankingComparison, verdict: EVVerdict) -> dict[str, Any]:
    """The bank record of a kept 期望值 position."""
    return {
        **position_fields(position),
        "draws_left": draws_left,
        "accepted": [TILE_IDS[k] for k in verdict.accepted],
        "options": [option_row(o) for o in comparison.plain_options],
        "ev": {
            "options": [estimate_row(o.discard, o.estimate) for o in comparison.ev_options],
            "plain_best": [TILE_IDS[k] for k in comparison.plain_best],
        },
        "margin": {"measure": "expected_score", "best": round(verdict.best, 4), "runner_up": round(verdict.runner_up, 4)},
        "themes": [EV_THEME],
        "rating": ev_rating(verdict, position),
    }


def candidate(position: Candidate) -> int | None:
    """The draws left if the position is worth an EV evaluation (ready or 1-shanten, some draws to come)."""
    shanten = position.options[0].result.shanten
    draws = draws_left_at(position.wall_left)
    return draws if 0 <= shanten <= MAX_EV_SHANTEN and draws >= 1 else None


def generate_ev(
    seed: int,
    count: int,
    progress: Callable[[int], None] | None = None,
    kept: Callable[[dict[str, Any], Candidate], None] | None = None,
) -> tuple[list[dict[str, Any]], Stats]:
    """``count`` 期望值 puzzles from simulated play, reproducible from ``seed`` (``kept``: as in ``bank.generate``)."""
    rng = random.Random(seed)
    stats = Stats()
    records: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    started = time.perf_counter()
    while len(records) < count:
        preset = rng.choices(tuple(PRESET_WEIGHTS), weights=tuple(PRESET_WEIGHTS.values()))[0]
        stats.deals += 1
        for event in play_deal(rng, make_rules(preset)):
            if not isinstance(event, Candidate) or len(records) >= count:
                continue
            draws = candidate(event)
            if draws is None or event.offers_kong:
                continue
            key = position_key(event, preset)
            if key in seen:
                stats.duplicates += 1
                continue
            seen.add(key)
            stats.positions += 1
            comparison = compare_rankings(event.hand, event.visible, event.rules, draws)
            verdict = judge_ev(comparison)
            if verdict is None:
                reason = "agree" if not comparison.differs else "margin"
                stats.rejected[reason] = stats.rejected.get(reason, 0) + 1
                continue
            records.append(ev_record(event, draws, comparison, verdict))
            if kept:
                kept(records[-1], event)
            stats.kept += 1
            if progress:
                progress(1)
    stats.seconds = time.perf_counter() - started
    for n, record in enumerate(records, 1):
        record["key"] = f"{PREFIX['ev']}{n:05d}"
    return records, stats


# ---------------------------------------------------------------- judged at the table (issue 36)

TABLE_WORLDS = 128
"""Worlds on which each discard of a 期望值 drill is played out at the table."""
TABLE_POLICY = "judge"
"""The bot in every seat of those worlds: opponents who win and declare."""


def table_seed(key: str) -> int:
    """The seed of drill ``key``'s worlds at the table (a hash of its key)."""
    return seed_of("kwx-ev-table", key)


def judge_at_table(record: dict[str, Any], worlds: int = TABLE_WORLDS, policy: str = TABLE_POLICY) -> dict[str, Any] | None:
    """The 期望值 drill judged at the table, or None when it leaves the bank.

    Every discard of its EV ranking is played out from its stored view on the same ``worlds``
    worlds of its own seed, ``policy`` in every seat afterwards (the other seats win, deal in and
    declare 亮倒). A discard is right there unless clearly worse than the table's best (the one
    margin rule's ``CONFIRM``). The drill stays only when the table agrees with it: every discard
    right at the table is one of its EV answers, and every plain-ranking best is clearly worse; it
    then keeps its answers and gains ``ev["table"]``: each discard's mean and standard error at the
    table, best first, the worlds and the bot, the margin of the best over the plain best.
    """
    view = SeatView.from_json(record["table"])
    discards = tuple(Action(view.seat, "discard", KIND_OF_ID[o["discard"]]) for o in record["ev"]["options"])
    results = play_out(view, discards, worlds, table_seed(record["key"]), policy_factory(policy))
    worse = clearly_worse(results, RULE)
    means = [mean_se(r) for r in results]
    order = sorted(range(len(discards)), key=lambda i: (-means[i][0], i))
    right = {discards[i].tile for i in order if i not in worse}
    plain = set(record["ev"]["plain_best"])
    if not right <= set(record["accepted"]) or any(discards[i].tile in plain for i in order if i not in worse):
        return None
    best = order[0]
    runner = next(i for i in order if discards[i].tile in plain)
    diff, se = paired(results[best], results[runner])
    table = {
        "policy": policy,
        "worlds": worlds,
        "options": [{"discard": discards[i].tile, "mean": round(means[i][0], 3), "se": round(means[i][1], 3), "right": i not in worse} for i in order],
        "margin": {"diff": round(diff, 3), "se": round(se, 3), "sigmas": RULE.sigmas, "money": RULE.money},
    }
    return {**record, "ev": {**record["ev"], "table": table}}

"""Re-checking table drills on fresh worlds (kwx/drills/recheck.py)."""

from __future__ import annotations

import pytest

from kwx.drills.recheck import choices_of, recheck, world_seed
from kwx.drills.record import answer_of
from puzzles.generation.table_bank import read_table_bank

RECORDS = read_table_bank()
SAMPLE = [r for kind in ("pong", "kong", "declare", "defence") for r in [x for x in RECORDS if x.kind == kind][::50]]


@pytest.mark.parametrize("record", SAMPLE, ids=[r.key for r in SAMPLE])
def test_the_choices_made_again_from_the_stored_view_are_the_ones_the_drill_played(record):
    _view, choices = choices_of(record)
    assert sorted(answer_of(c, record.kind) for c in choices) == sorted(o.answer for o in record.options)


def test_a_recheck_plays_every_choice_on_its_own_fresh_worlds():
    record = next(r for r in RECORDS if r.kind == "pong")
    check = recheck(record, worlds=6, seed=3)
    assert [len(r) for r in check.results] == [6] * len(check.choices)
    assert check.shown == frozenset(record.accepted) and check.accepted <= frozenset(check.answers)
    assert world_seed(record.key, 3) not in (world_seed(record.key, 4), record.source.seed)
    assert recheck(record, worlds=6, seed=3) == check  # a seed fixes the worlds
    assert recheck(record, worlds=6, seed=4).results != check.results  # another seed, other worlds

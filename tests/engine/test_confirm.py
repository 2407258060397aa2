"""Confirming table drills on a second set of worlds (kwx/drills/confirm.py): figures from the confirming worlds, the selection's kept apart; a re-check the same on fresh worlds, written nowhere."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kwx.drills import confirm as confirming
from kwx.drills.confirm import Confirmed, choices_of, confirm, confirm_seed, recheck, world_seed
from kwx.drills.record import TableDrill, answer_of
from kwx.drills.table_drills import figures, pong_line
from kwx.table.table import Action
from puzzles.generation.table_bank import read_table_bank

BANK = read_table_bank()


def _with_results(monkeypatch: pytest.MonkeyPatch, *series: list[float]) -> None:
    """Make the confirming worlds give these results, choice by choice (in the order the drill plays its choices)."""
    monkeypatch.setattr(confirming, "play_out", lambda view, choices, worlds, seed, policy: tuple(tuple(s) for s in series))


def _plain(kind: str) -> TableDrill:
    """A shipped drill of ``kind`` with two choices."""
    return next(r for r in BANK if r.kind == kind and len(r.options) == 2)


def _pong(record: TableDrill) -> Action:
    """A 碰不碰 drill's pong."""
    return next(c for c in record.choices if c is not None and c.verb == "pong")


def test_the_confirming_worlds_have_their_own_seed():
    keys = [r.key for r in BANK]
    seeds = {confirm_seed(k) for k in keys}
    judges = {confirm_seed(k, "judge") for k in keys}
    boosted = {confirm_seed(k, "boosted") for k in keys}
    assert len(seeds) == len(judges) == len(boosted) == len(keys) and not seeds & judges and not (seeds | judges) & boosted  # each policy its own worlds
    assert not (seeds | judges | boosted) & {r.source.seed for r in BANK}
    assert not seeds & {world_seed(k, s) for k in keys[:50] for s in range(1, 4)}  # nor a re-check's


def test_every_figure_comes_from_the_confirming_worlds_and_the_selection_is_kept_apart(monkeypatch):
    record = _plain("pong")
    assert record.selection is not None and record.selection.accepted is not None
    first = record.selection.accepted[0]
    order = ["pong", "pass"]
    good, bad = [3.0, 2.0, 4.0, 3.0] * 8, [0.0, -1.0, 1.0, 0.0] * 8
    _with_results(monkeypatch, *(good if a == first else bad for a in order))
    done = confirm(record, worlds=32)
    assert isinstance(done, Confirmed) and done.status == "holds" and done.accepted == {first}
    assert done.record is not None and done.record.accepted == (first,)
    new, old = done.record.to_json(), record.to_json()
    assert [o["answer"] for o in new["options"]] == [first, *(a for a in order if a != first)]
    assert new["options"][0]["mean"] == 3.0 and new["options"][1]["mean"] == 0.0 and new["options"][0]["se"] > 0
    assert new["margin"] == {**new["margin"], "diff": 3.0, "worlds": 32, "rollouts": 64, "policy": confirming.POLICY}
    assert new["selection"] == old["selection"]
    assert {k: v for k, v in new.items() if k not in ("options", "accepted", "margin", "selection", "rating")} == {
        k: v for k, v in old.items() if k not in ("options", "accepted", "margin", "selection", "rating")
    }  # the position, its table and the explanations' figures are the drill's own
    rows = {o["answer"]: {k: v for k, v in o.items() if k not in ("mean", "se", "right")} for o in new["options"]}
    assert rows["pass"] == {k: v for k, v in next(o for o in old["options"] if o["answer"] == "pass").items() if k not in ("mean", "se", "right")}
    assert rows["pong"] == {"answer": "pong", **figures(record.table, _pong(record), confirming.POLICY)}  # what a pong leaves: the confirming policy's line


def test_a_pong_row_shows_the_line_of_the_policy_that_confirms_it(monkeypatch):
    pongs = [r for r in BANK if r.kind == "pong"]
    record = next(r for r in pongs if pong_line(r.table, _pong(r), "judge") != pong_line(r.table, _pong(r), "strong"))  # two bots, two lines
    _with_results(monkeypatch, *([3.0, 2.0] * 20 if c is not None and c.verb == "pong" else [0.0, -1.0] * 20 for c in record.choices))
    lines = set()
    for policy in ("strong", "judge"):
        done = confirm(record, worlds=40, policy=policy)
        assert done.record is not None
        row = next(o for o in done.record.options if o.answer == "pong")
        assert row.then == pong_line(record.table, _pong(record), policy).tile
        lines.add(row.then)
    assert len(lines) == 2


def test_a_drill_the_confirming_worlds_turn_round_is_re_answered(monkeypatch):
    record = _plain("declare")
    assert record.selection is not None and record.selection.accepted is not None
    selected = set(record.selection.accepted)
    other = ({"declare", "hidden"} - selected).pop()
    choices = ["declare", "hidden"]
    _with_results(monkeypatch, *([2.0, 1.0] * 20 if c == other else [0.0, -1.0] * 20 for c in choices))
    done = confirm(record, worlds=40)
    assert done.status == "re-answered" and done.record is not None and done.record.accepted == (other,)
    assert [o.right for o in done.record.options] == [True, False]


def test_a_re_answer_is_measured_against_the_answers_the_drill_had_before_not_its_selection(monkeypatch):
    record = _plain("declare")
    assert record.selection is not None and record.selection.accepted is not None
    first = {"declare", "hidden"} - set(record.selection.accepted)
    earlier = replace(record, accepted=tuple(sorted(first)))  # as if an earlier confirmation had turned it round
    choices = ["declare", "hidden"]
    _with_results(monkeypatch, *([2.0, 1.0] * 20 if c in first else [0.0, -1.0] * 20 for c in choices))
    done = confirm(earlier, worlds=40)
    assert done.before == first and done.status == "holds" and done.record is not None and done.record.selection == record.selection


def test_a_drill_is_kept_only_when_every_policy_of_the_chain_keeps_it_and_shows_the_last_ones_figures(monkeypatch):
    calls = []

    def confirm_by(record, policy, rule):
        calls.append(policy)
        kept = replace(record, margin=replace(record.margin, policy=policy)) if policy != "retire" else None
        return Confirmed(record.key, record.kind, kept, frozenset(), frozenset())

    record = _plain("pong")
    monkeypatch.setattr(confirming, "select", lambda kind, index, rule: record)
    monkeypatch.setattr(confirming, "confirm", confirm_by)
    built = confirming.build("pong", 0)
    assert built is not None and built.margin.policy == confirming.POLICY == confirming.CHAIN[-1]
    assert calls == list(confirming.CHAIN) == ["strong", "judge", "boosted"]
    calls.clear()
    monkeypatch.setattr(confirming, "CHAIN", ("retire", "judge"))
    assert confirming.build("pong", 0) is None and calls == ["retire"]


def test_a_drill_with_no_clear_answer_on_the_confirming_worlds_leaves_the_bank(monkeypatch):
    record = _plain("kong")
    _with_results(monkeypatch, [1.0, 0.0] * 20, [0.0, 1.0] * 20)
    done = confirm(record, worlds=40)
    assert done.status == "retired" and done.record is None and done.accepted == {"kong", "pass"}


def test_defence_keeps_a_drill_only_when_a_safe_tile_is_clearly_worse_and_never_accepts_dealing_in(monkeypatch):
    record = next(r for r in BANK if r.kind == "defence")
    _view, choices = confirming.choices_of(record)
    n = len(choices)  # the safe tiles, then the tempting dangerous one
    level = [[1.0, 2.0] * 20 for _ in range(n - 1)] + [[-5.0, -6.0] * 20]
    _with_results(monkeypatch, *level)
    assert confirm(record, worlds=40).status == "retired"  # every safe tile as good: nothing to learn beyond "not the dangerous one"
    level[1] = [-1.0, 0.0] * 20
    _with_results(monkeypatch, *level)
    done = confirm(record, worlds=40)
    assert done.record is not None
    rows = {o.answer: o for o in done.record.options}
    dangerous = [a for a, o in rows.items() if o.dangerous]
    assert dangerous and not any(rows[a].right for a in dangerous)
    assert len(done.record.accepted) == n - 2


def test_confirming_a_confirmed_drill_gives_it_back_unchanged():
    record = min((r for r in BANK if r.kind == "kong"), key=lambda r: (r.wall_left, r.key))  # the shortest rollouts
    once = confirm(record, worlds=12)
    if once.record is not None:
        assert confirm(once.record, worlds=12) == Confirmed(once.key, once.kind, once.record, once.accepted, once.accepted)


def test_every_shipped_drill_shows_the_figures_of_its_confirming_worlds():
    for r in BANK:
        assert r.margin.worlds == confirming.CONFIRM_WORLDS and r.margin.policy == confirming.POLICY, r.key
        assert r.margin.rollouts == confirming.CONFIRM_WORLDS * len(r.options), r.key
        assert r.selection is not None and set(r.selection.to_json()) == {"accepted", "diff", "se", "worlds", "rollouts"}, r.key


def test_a_sharp_defence_drill_stays_only_while_at_most_two_safe_tiles_are_right(monkeypatch):
    record = next(r for r in BANK if r.kind == "defence" and r.source.index >= 300 and len(r.options) == 5)
    worse, level, dangerous = [-1.0, 0.0] * 20, [1.0, 2.0] * 20, [-5.0, -6.0] * 20
    _with_results(monkeypatch, level, level, level, worse, dangerous)  # three safe tiles as good: no longer sharp
    assert confirm(record, worlds=40).status == "retired"
    _with_results(monkeypatch, level, level, worse, worse, dangerous)
    done = confirm(record, worlds=40)
    assert done.record is not None and len(done.record.accepted) == 2


def test_a_refusal_drill_whose_best_turns_out_to_be_the_kong_leaves_the_bank(monkeypatch):
    record = next(r for r in BANK if r.kind == "kong" and r.source.index >= 300 and len(r.options) == 2)
    _view, choices = confirming.choices_of(record)
    kong = [i for i, c in enumerate(choices) if c is not None and c.verb == "kong"]
    _with_results(monkeypatch, *([3.0, 2.0] * 20 if i in kong else [0.0, -1.0] * 20 for i in range(len(choices))))
    assert confirm(record, worlds=40).status == "retired"  # 杠不杠 refusals exist to teach not konging


# ---------------------------------------------------------------- a re-check: a confirmation that writes nothing

SAMPLE = [r for kind in ("pong", "kong", "declare", "defence") for r in [x for x in BANK if x.kind == kind][::50]]


@pytest.mark.parametrize("record", SAMPLE, ids=[r.key for r in SAMPLE])
def test_the_choices_made_again_from_the_stored_view_are_the_ones_the_drill_played(record):
    _view, choices = choices_of(record)
    assert sorted(answer_of(c, record.kind) for c in choices) == sorted(o.answer for o in record.options)


def test_a_recheck_plays_every_choice_on_its_own_fresh_worlds():
    record = next(r for r in BANK if r.kind == "pong")
    check = recheck(record, worlds=6, seed=3)
    assert [len(r) for r in check.results] == [6] * len(check.choices)
    assert check.shown == frozenset(record.accepted) and check.accepted <= frozenset(check.answers)
    assert world_seed(record.key, 3) not in (world_seed(record.key, 4), record.source.seed)
    assert recheck(record, worlds=6, seed=3) == check  # a seed fixes the worlds
    assert recheck(record, worlds=6, seed=4).results != check.results  # another seed, other worlds


def test_a_recheck_accepts_what_a_confirmation_on_the_same_results_accepts_and_writes_nothing(monkeypatch):
    record = next(r for r in BANK if r.kind == "defence" and r.dangerous())
    _view, choices = choices_of(record)
    series = [[1.0, 2.0] * 20, [-1.0, 0.0] * 20, *([[1.0, 2.0] * 20] * (len(choices) - 3)), [-5.0, -6.0] * 20]
    _with_results(monkeypatch, *series)
    check, done = recheck(record, worlds=40, seed=1), confirm(record, worlds=40)
    assert check.accepted == done.accepted and check.shown == done.before and check.dangerous == record.dangerous()
    assert check.holds == (done.status == "holds")

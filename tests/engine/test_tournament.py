"""The tournament loop and its figures: duplicate seating, dealer rotation, intervals, jobs."""

from __future__ import annotations

import math
import statistics
from collections import Counter

import pytest

from kwx.bots.tournament import endings, interval, paired_run, run, schedule, summarise
from kwx.table.record import replay


def test_each_entry_plays_each_wall_from_each_seat():
    games = list(schedule(18, seed=3))
    for group in range(6):
        mine = [g for g in games if g.group == group]
        assert len({g.seed for g in mine}) == 1 and len({g.dealer for g in mine}) == 1
        for entry in range(3):
            assert sorted(g.entries.index(entry) for g in mine) == [0, 1, 2]
    assert Counter(g.dealer for g in games) == {0: 6, 1: 6, 2: 6}
    assert len({g.seed for g in games}) == 6


def test_interval_is_the_normal_95_percent_interval():
    values = [1.0, -2.0, 4.0, 0.0, 3.0]
    got = interval(values)
    half = 1.959964 * statistics.stdev(values) / math.sqrt(5)
    assert math.isclose(got.mean, 1.2) and math.isclose(got.high - got.mean, half) and math.isclose(got.mean - got.low, half)
    assert interval([2.0]).low == interval([2.0]).high == 2.0


def test_figures_follow_the_outcomes():
    result = run(9, seed=5, lineup=["strong", "basic", "basic"])
    summary = summarise(result)
    strong, basic = summary.bots
    assert (strong.name, strong.seat_hands, basic.seat_hands) == ("strong", 9, 18)
    # the nets of every hand sum to zero, so the two bots' means balance
    assert math.isclose(strong.points.mean + 2 * basic.points.mean, 0.0, abs_tol=1e-9)
    won = sum(o.won[o.game.entries.index(0)] for o in result.outcomes)
    assert math.isclose(strong.win_rate, won / 9)
    assert basic.liang_dao_rate == 0.0
    name_a, name_b, margin = summary.margin
    assert (name_a, name_b) == ("strong", "basic") and math.isclose(margin.mean, strong.points.mean - basic.points.mean)
    assert math.isclose(sum(share for _, share in summary.results), 1.0)


def test_two_processes_play_the_same_hands():
    one = run(6, seed=2, lineup=["strong", "basic", "strong"], jobs=1, keep_records=True)
    two = run(6, seed=2, lineup=["strong", "basic", "strong"], jobs=2, keep_records=True)
    assert [o.record for o in one.outcomes] == [o.record for o in two.outcomes]
    assert [o.nets for o in one.outcomes] == [o.nets for o in two.outcomes]


def test_a_paired_run_differs_only_in_the_first_entry_and_is_paired_per_wall():
    same = paired_run(6, seed=8, lineup=["strong", "companion", "companion"], other="strong")
    assert [o.nets for o in same.first.outcomes] == [o.nets for o in same.second.outcomes]
    assert same.difference.mean == same.difference.low == same.difference.high == 0.0
    pair = paired_run(9, seed=8, lineup=["companion", "strong", "strong"], other="basic")
    assert [o.game for o in pair.first.outcomes] == [o.game for o in pair.second.outcomes]
    assert pair.second.lineup == ("basic", "strong", "strong")
    by_group = {}
    for a, b in zip(pair.first.outcomes, pair.second.outcomes):
        seat = a.game.entries.index(0)
        by_group.setdefault(a.game.group, []).append(a.nets[seat] - b.nets[seat])
    diffs = [sum(v) / 3 for _, v in sorted(by_group.items())]
    expected = interval(diffs)
    assert math.isclose(pair.difference.mean, expected.mean, abs_tol=1e-9) and math.isclose(pair.difference.low, expected.low, abs_tol=1e-9)


def test_shards_split_the_walls_and_merged_they_are_the_whole_tournament():
    from kwx.bots.tournament import decisions_json, merged, outcome_json, run_from_json

    lineup = ["strong", "companion", "companion"]
    whole = run(15, seed=6, lineup=lineup)
    parts = [run(15, seed=6, lineup=lineup, shard=(k, 3)) for k in range(3)]
    assert [{o.game.group % 3 for o in p.outcomes} for p in parts] == [{0}, {1}, {2}]  # whole walls, every seat of each
    stored = [run_from_json(lineup, 6, "standard", [outcome_json(o) for o in p.outcomes], p.cpu_seconds, p.wall_seconds, decisions_json(p)) for p in parts]
    together = merged(stored)
    assert [(o.game, o.nets, o.won, o.dealt_in, o.liang_dao, o.result) for o in together.outcomes] == [(o.game, o.nets, o.won, o.dealt_in, o.liang_dao, o.result) for o in whole.outcomes]
    assert summarise(together).bots == summarise(whole).bots
    with pytest.raises(ValueError, match="same hand"):
        merged([parts[0], parts[0]])


def test_endings_sort_each_seat_hand_by_how_it_ended_and_add_up_to_its_money():
    """Read again from each hand's record (who won, who fed the win, who had declared 亮倒 when it ended)."""
    result = run(30, seed=11, lineup=["judge", "companion", "companion"], keep_records=True)
    expected: Counter[str] = Counter()
    money: Counter[str] = Counter()
    for o in result.outcomes:
        done = replay(o.record)
        seat, final = o.game.entries.index(0), done.final
        own = "declared" if final.seats[seat].liang_dao else "hidden"
        winners = [w.seat for w in final.wins]
        if seat in winners:
            key = f"won by {done.result}, {own}"
        elif done.result in ("discard", "rob_kong") and final.turn == seat:
            key = f"dealt in while {own}, to a {'declared' if any(final.seats[w].liang_dao for w in winners) else 'hidden'} hand"
        else:
            key = f"another won by {done.result}, {own}" if winners else f"drawn hand, {own}"
        expected[key] += 1
        money[key] += done.settlement.nets[seat]
    got = endings(result)
    assert {e.ending: e.hands for e in got} == expected and {e.ending: e.money for e in got} == money
    assert [e.money for e in got] == sorted(e.money for e in got)  # the dearest first
    assert math.isclose(sum(e.money for e in got) / 30, summarise(result).bots[0].points.mean)

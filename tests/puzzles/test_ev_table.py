"""期望值 drills judged at the table (issue 36): each discard played out by the judge in every seat; a drill stays only when the table agrees."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from puzzles.generation import ev
from puzzles.generation.bank import read_bank, read_meta, write_bank
from puzzles.generation.ev import judge_at_table, table_seed


@pytest.fixture(scope="module")
def drills() -> list[dict]:
    """Three 期望值 drills as the generator makes them, before the table judges them (the shipped bank holds only those it kept)."""
    return ev.generate_ev(7, 3)[0]


@pytest.fixture
def record(drills) -> dict:
    """A drill (its EV answers: two discards tied)."""
    return drills[0]


def _scripted(monkeypatch, records: list[dict], means: dict[str, dict[str, float]]) -> None:
    """Make the table's worlds give each discard of each drill the mean ``means[key][tile]`` (0 where none is given; the same
    world noise for all); a drill is known by its worlds' seed, and is played out on its own discards only."""
    by_seed = {table_seed(r["key"]): r for r in records}

    def play_out(view, choices, worlds, seed, policy):
        record = by_seed[seed]
        assert [c.tile for c in choices] == [o["discard"] for o in record["ev"]["options"]]
        scripted = means.get(record["key"], {})
        return tuple(tuple(scripted.get(c.tile, 0.0) + (w % 5) * 0.7 + 0.01 * ((w * 7 + i) % 3) for w in range(worlds)) for i, c in enumerate(choices))

    monkeypatch.setattr(ev, "play_out", play_out)


def test_a_drill_the_table_bears_out_stays_with_the_tables_figures(monkeypatch, record):
    accepted = record["accepted"]
    _scripted(monkeypatch, [record], {record["key"]: dict.fromkeys(accepted, 2.0)})
    done = judge_at_table(record, worlds=32)
    assert done is not None and done["accepted"] == accepted and done["options"] == record["options"]
    table = done["ev"]["table"]
    assert table["policy"] == "judge" and table["worlds"] == 32 and {o["discard"] for o in table["options"][: len(accepted)]} == set(accepted)
    assert [o["right"] for o in table["options"]] == [True] * len(accepted) + [False] * (len(table["options"]) - len(accepted))
    assert table["margin"]["diff"] == pytest.approx(2.0, abs=0.05)


@pytest.mark.parametrize("where", ["plain best level", "another discard best"])
def test_a_drill_the_table_does_not_bear_out_leaves(monkeypatch, where, record):
    plain = record["ev"]["plain_best"][0]
    other = next(o["discard"] for o in record["ev"]["options"] if o["discard"] not in record["accepted"] and o["discard"] != plain)
    means = {**dict.fromkeys(record["accepted"], 2.0), plain: 2.0} if where == "plain best level" else {other: 2.0}
    _scripted(monkeypatch, [record], {record["key"]: means})
    assert judge_at_table(record, worlds=32) is None


def test_the_command_judges_a_slice_and_writes_only_with_write(monkeypatch, tmp_path, drills):
    """Two drills on a few real worlds (the judge in every seat), written nowhere; then, with --write, a drill the table bears
    out keeps the table's figures and one it does not leaves the bank, its key kept in the bank's meta."""
    bank = tmp_path / "ev_bank.json.gz"
    write_bank(drills, bank, {"seed": 7, "count": len(drills)})
    before = bank.read_bytes()
    monkeypatch.setattr("puzzles.management.commands.judge_ev_drills.EV_BANK_PATH", bank)
    out = io.StringIO()
    call_command("judge_ev_drills", "--limit", "2", "--worlds", "3", stdout=out)
    assert "2 judged (3 worlds each, judge in every seat)" in out.getvalue() and bank.read_bytes() == before
    stays, leaves = drills[0], drills[1]
    _scripted(monkeypatch, drills, {stays["key"]: dict.fromkeys(stays["accepted"], 2.0), leaves["key"]: {leaves["ev"]["plain_best"][0]: 2.0}})
    call_command("judge_ev_drills", "--keys", f"{stays['key']},{leaves['key']}", "--worlds", "32", "--write", stdout=io.StringIO())
    after = {r["key"]: r for r in read_bank(bank)}
    assert set(after) == {r["key"] for r in drills} - {leaves["key"]} and after[stays["key"]]["ev"]["table"]["worlds"] == 32
    assert read_meta(bank) == {"seed": 7, "count": len(drills), "table": {"policy": "judge", "worlds": 32, "left": [leaves["key"]]}}
    out = io.StringIO()
    call_command("judge_ev_drills", "--write", "--worlds", "32", stdout=out)  # the rest: the one not judged yet
    assert "1 judged" in out.getvalue() and read_meta(bank)["table"]["left"] == sorted([leaves["key"], drills[2]["key"]])  # the keys that left add up

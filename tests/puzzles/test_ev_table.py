"""期望值 drills judged at the table (issue 36): each discard played out by the judge in every seat; a drill stays only when the table agrees."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from puzzles.generation import ev
from puzzles.generation.bank import read_bank
from puzzles.generation.ev import EV_BANK_PATH, judge_at_table, table_seed

BANK = read_bank(EV_BANK_PATH)


def _scripted(monkeypatch, record, means: dict[str, float]) -> None:
    """Make the table's worlds give each discard of ``record`` the mean ``means[tile]`` (the same world noise for all)."""
    tiles = [o["discard"] for o in record["ev"]["options"]]

    def play_out(view, choices, worlds, seed, policy):
        assert [c.tile for c in choices] == tiles and seed == table_seed(record["key"])
        return tuple(tuple(means.get(c.tile, 0.0) + (w % 5) * 0.7 + 0.01 * ((w * 7 + i) % 3) for w in range(worlds)) for i, c in enumerate(choices))

    monkeypatch.setattr(ev, "play_out", play_out)


def test_a_drill_the_table_bears_out_stays_with_the_tables_figures(monkeypatch):
    record = next(r for r in BANK if len(r["accepted"]) == 1)
    _scripted(monkeypatch, record, {record["accepted"][0]: 2.0})
    done = judge_at_table(record, worlds=32)
    assert done is not None and done["accepted"] == record["accepted"] and done["options"] == record["options"]
    table = done["ev"]["table"]
    assert table["policy"] == "judge" and table["worlds"] == 32 and table["options"][0]["discard"] == record["accepted"][0]
    assert [o["right"] for o in table["options"]] == [True] + [False] * (len(table["options"]) - 1)
    assert table["margin"]["diff"] == pytest.approx(2.0, abs=0.05)


@pytest.mark.parametrize("where", ["plain best level", "another discard best"])
def test_a_drill_the_table_does_not_bear_out_leaves(monkeypatch, where):
    record = next(r for r in BANK if len(r["accepted"]) == 1)
    plain = record["ev"]["plain_best"][0]
    other = next(o["discard"] for o in record["ev"]["options"] if o["discard"] not in record["accepted"] and o["discard"] != plain)
    means = {record["accepted"][0]: 2.0, plain: 2.0} if where == "plain best level" else {other: 2.0}
    _scripted(monkeypatch, record, means)
    assert judge_at_table(record, worlds=32) is None


def test_the_command_judges_a_slice_and_writes_only_with_write(monkeypatch, tmp_path):
    """Two drills on a few real worlds (the judge in every seat): each is said to stay or leave; the bank file is rewritten only with --write."""
    copy = tmp_path / "ev_bank.json.gz"
    copy.write_bytes(EV_BANK_PATH.read_bytes())
    monkeypatch.setattr("puzzles.management.commands.judge_ev_drills.EV_BANK_PATH", copy)
    out = io.StringIO()
    call_command("judge_ev_drills", "--limit", "2", "--worlds", "3", stdout=out)
    text = out.getvalue()
    assert "2 judged (3 worlds each, judge in every seat)" in text and copy.read_bytes() == EV_BANK_PATH.read_bytes()
    call_command("judge_ev_drills", "--keys", BANK[0]["key"], "--worlds", "3", "--write", stdout=io.StringIO())
    after = {r["key"]: r for r in read_bank(copy)}
    assert len(after) >= len(BANK) - 1 and all(k in after for k in (r["key"] for r in BANK[1:]))
    if BANK[0]["key"] in after:
        assert after[BANK[0]["key"]]["ev"]["table"]["worlds"] == 3

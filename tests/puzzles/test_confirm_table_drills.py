"""``manage.py confirm_table_drills``: the whole bank confirmed drill by drill, in shards sharing a cache folder, and rewritten from what holds."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command

from kwx.drills.confirm import Confirmed
from kwx.drills.record import Figures
from puzzles.generation import table_bank
from puzzles.generation.bank import read_bank, read_meta, write_bank
from puzzles.generation.table_bank import TABLE_BANK_PATH

SHIPPED = read_bank(TABLE_BANK_PATH)


@pytest.fixture
def small_bank(tmp_path):
    """A bank of one drill of each kind, with the shipped bank's meta."""
    records = [next(r for r in SHIPPED if r["kind"] == kind) for kind in ("pong", "kong", "declare", "defence")]
    path = tmp_path / "table_bank.json.gz"
    write_bank(records, path, read_meta(TABLE_BANK_PATH))
    return path, records


def fake_confirm(calls: list[str]):
    """Stand-in for the rollouts: pong holds, kong is re-answered, declare leaves the bank, defence holds."""

    def confirm(record):
        calls.append(record.key)
        selected = frozenset(record.accepted)
        if record.kind == "declare":
            return Confirmed(record.key, record.kind, None, selected, frozenset({"declare", "hidden"}))
        accepted = selected if record.kind != "kong" else frozenset({"pass", "kong"} - selected)
        margin = record.margin
        new = replace(
            record,
            accepted=tuple(sorted(accepted)),
            margin=replace(margin, worlds=256, policy="strong"),
            selection=Figures(margin.diff, margin.se, margin.worlds, margin.rollouts, accepted=record.accepted),
        )
        return Confirmed(record.key, record.kind, new, selected, accepted)

    return confirm


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("confirm_table_drills", "--no-progress", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_shards_share_a_cache_and_the_bank_is_rewritten_from_the_drills_kept(small_bank, tmp_path, monkeypatch):
    path, records = small_bank
    calls: list[str] = []
    monkeypatch.setattr(table_bank, "confirm", fake_confirm(calls))
    cache = tmp_path / "cache"
    out = run("--bank", str(path), "--cache", str(cache), "--shard", "1/2")
    assert calls == [records[1]["key"], records[3]["key"]]  # positions 1 and 3 of the bank
    assert "kong: 1 drills — 0 hold, 1 re-answered, 0 leave the bank" in out and "defence: 1 drills — 1 hold" in out and "pong" not in out
    assert len((cache / "shard-1-of-2.jsonl").read_text().splitlines()) == 2
    out = run("--bank", str(path), "--cache", str(cache), "--write")
    assert calls[2:] == [records[0]["key"], records[2]["key"]]  # only the drills no shard has done
    assert "declare: 1 drills — 0 hold, 0 re-answered, 1 leave the bank" in out and "3 drills written" in out
    kept = read_bank(path)
    assert [r["key"] for r in kept] == [records[0]["key"], records[1]["key"], records[3]["key"]]
    assert kept[1]["accepted"] == sorted({"pass", "kong"} - set(records[1]["accepted"]))
    meta = read_meta(path)
    assert meta["counts"] == {"pong": 1, "kong": 1, "declare": 0, "defence": 1} and meta["confirm"] == {"worlds": 256, "policy": "boosted", "chain": ["strong", "judge", "boosted"]}
    rows = [json.loads(line) for f in sorted(cache.glob("*.jsonl")) for line in f.read_text().splitlines()]
    assert sorted(r["status"] for r in rows) == ["holds", "holds", "re-answered", "retired"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shard", "2/2"], "--shard takes k/n"),
        (["--shard", "one"], "--shard takes k/n"),
        (["--shard", "0/2", "--write"], "--write rewrites the whole bank"),
        (["--jobs", "0"], "--jobs must be from 1 to 64"),
    ],
)
def test_bad_options_say_which_and_why(small_bank, args, message):
    path, _records = small_bank
    with pytest.raises(CommandError, match=message):
        run("--bank", str(path), *args)

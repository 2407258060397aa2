"""Table-drill work as background tasks sharded like tournaments (puzzles/drill_shards.py): queued by the commands, stored per shard, assembled by --report."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command
from django_tasks_db.models import DBTaskResult

from kwx.drills.record import Source
from puzzles import drill_shards
from puzzles.generation.bank import read_bank, read_meta
from puzzles.generation.table_bank import TABLE_BANK_PATH
from puzzles.models import DrillShard

pytestmark = pytest.mark.django_db


def command(name: str, *args: str) -> str:
    out = io.StringIO()
    call_command(name, "--no-progress", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


SHIPPED = read_bank(TABLE_BANK_PATH)


def fake_index_rows(kinds, indices, shard):
    """Drill index 1 of each kind gives no drill; the others a record of their own index."""
    k, n = shard
    return [
        {"kind": kind, "index": i, "cpu": 6.0, "record": None if i == 1 else {**SHIPPED[0], "key": f"{kind[0]}{i + 1:05d}", "kind": kind, "source": {"index": i, "attempt": 0, "seed": 0}}}
        for kind in kinds
        for i in range(k, indices, n)
    ]


def run_queued() -> None:
    """What a worker does with each queued task (in this process, so the stand-ins apply)."""
    for result in DBTaskResult.objects.filter(status="READY").order_by("enqueued_at"):
        drill_shards.play_shard(**result.args_kwargs["kwargs"])


def test_a_bank_made_by_shards_is_the_lowest_indices_kept(monkeypatch, tmp_path):
    monkeypatch.setattr(drill_shards, "index_rows", fake_index_rows)
    out = tmp_path / "bank.json.gz"
    args = ("--kinds", "pong,defence", "--count", "2", "--tasks", "2", "--indices", "4", "--output", str(out))
    assert command("generate_table_drills", *args).startswith("queued 2 of 2 shards (0 already stored)")
    with pytest.raises(CommandError, match=r"shards \[0, 1\] of 2 are not stored yet"):
        command("generate_table_drills", *args, "--report")
    run_queued()
    assert sorted(DrillShard.objects.values_list("shard", flat=True)) == [0, 1]
    assert command("generate_table_drills", *args).startswith("queued 0 of 2 shards (2 already stored)")  # stored shards are not queued again
    printed = command("generate_table_drills", *args, "--report")
    assert "pong: 2 drills (1 indices gave none), 0.4 CPU-minutes" in printed and "4 drills played by the task workers" in printed
    assert [r["key"] for r in read_bank(out)] == ["p00001", "p00003", "d00001", "d00003"]
    assert read_meta(out)["counts"] == {"pong": 2, "defence": 2} and read_meta(out)["confirm"]["worlds"] == 256
    with pytest.raises(CommandError, match="pong: 3 of 4, defence: 3 of 4 drills in 4 indices: queue more --indices"):
        command("generate_table_drills", "--kinds", "pong,defence", "--count", "4", "--tasks", "2", "--indices", "4", "--output", str(out), "--report")


def test_the_shipped_bank_is_confirmed_by_shards_tied_to_its_digest(monkeypatch):
    records = read_bank(TABLE_BANK_PATH)

    def fake_confirm_bank(bank, shard):
        k, n = shard
        return [
            {"key": r.key, "kind": r.kind, "status": "holds", "selected": list(r.accepted), "accepted": list(r.accepted), "record": {**r.to_json(), "selection": r.margin.to_json()}}
            for r in bank[k::n]
        ], 1.0

    monkeypatch.setattr(drill_shards, "confirm_bank", fake_confirm_bank)
    assert command("confirm_table_drills", "--tasks", "3").startswith("queued 3 of 3 shards")
    run_queued()
    printed = command("confirm_table_drills", "--tasks", "3", "--report")
    counts = {kind: sum(r["kind"] == kind for r in records) for kind in ("pong", "kong", "declare", "defence")}
    for kind, n in counts.items():
        assert f"{kind}: {n} drills — {n} hold, 0 re-answered, 0 leave the bank" in printed
    assert f"{len(records)} drills confirmed" in printed
    with pytest.raises(ValueError, match="the table bank changed since this confirmation was queued"):
        drill_shards.play_shard(job="confirm", params="0" * 32, shard=0, shards=3)


@pytest.mark.parametrize(
    ("name", "args", "message"),
    [
        ("confirm_table_drills", ["--tasks", "2", "--write"], "--write with --tasks needs --report"),
        ("confirm_table_drills", ["--tasks", "2", "--shard", "0/2"], "no --bank, --shard or --cache with it"),
        ("confirm_table_drills", ["--tasks", "0"], "--tasks must be from 1 to"),
        ("confirm_table_drills", ["--report"], "give --tasks too"),
        ("generate_table_drills", ["--tasks", "2"], "--tasks needs --indices"),
        ("generate_table_drills", ["--tasks", "9", "--indices", "4"], "--tasks must be from 1 to 4"),
        ("generate_table_drills", ["--indices", "4"], "--report and --indices go with --tasks"),
    ],
)
def test_bad_task_options_say_which_and_why(name, args, message):
    with pytest.raises(CommandError, match=message):
        command(name, *args)


def test_a_review_queued_after_offline_shards_is_claimed_first():
    """The shards of tournaments and drill work wait behind the reviews a player is waiting for (docs/deploy.md)."""
    from play.tasks import review_hand
    from puzzles.tasks import play_drill_shard
    from tournaments.tasks import play_tournament_shard

    shard = play_drill_shard.enqueue(job="generate", params="kinds=pong;indices=1", shard=0, shards=1)
    play_tournament_shard.enqueue(lineup=["strong", "strong", "strong"], seed=1, hands=3, rules="standard", shard=0, shards=1)
    review = review_hand.enqueue(hand_id=1)
    queue = list(DBTaskResult.objects.filter(status="READY"))  # the worker claims in the model's order
    assert [str(r.id) for r in queue][0] == str(review.id)
    assert {r.priority for r in queue if str(r.id) != str(review.id)} == {-10}
    assert str(shard.id) in {str(r.id) for r in queue}


def test_a_straight_run_keeps_the_lowest_indices_and_goes_on_from_its_cache(monkeypatch, tmp_path):
    from puzzles.generation import table_bank

    drill = table_bank.read_table_bank()[0]
    made: list[tuple[str, int]] = []

    def fake_build(job):
        made.append(job)
        kind, index = job
        return kind, index, None if index % 3 == 1 else replace(drill, key=f"{kind[0]}{index + 1:05d}", kind=kind, source=Source(index, 0, 0)), 0.25

    monkeypatch.setattr(table_bank, "_build", fake_build)
    cache = tmp_path / "cache.jsonl"
    records, stats = table_bank.generate_table_drills({"pong": 3, "kong": 2}, ("pong", "kong"), cache=cache)
    assert [r.key for r in records] == ["p00001", "p00003", "p00004", "k00001", "k00003"]
    assert stats.kept == {"pong": 3, "kong": 2} and stats.empty == {"pong": 1, "kong": 1}
    first = len(made)
    again, _ = table_bank.generate_table_drills({"pong": 3, "kong": 2}, ("pong", "kong"), cache=cache)
    assert again == records and len(made) == first  # every index read from the cache, none made again

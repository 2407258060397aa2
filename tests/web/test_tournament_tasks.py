"""A tournament played as background tasks sharded by wall: queued by the command, run by a real worker process, reported from the stored shards."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError
from django_tasks_db.models import DBTaskResult

from tests.web.test_review_worker import DEADLINE, worker
from tests.web.test_tournament_command import tournament
from tournaments.models import TournamentShard

pytestmark = pytest.mark.django_db(transaction=True)
ARGS = ("--hands", "12", "--seed", "9", "--seats", "strong,companion,companion")


def test_shards_queued_run_by_a_worker_report_the_same_figures_as_one_run():
    queued = tournament(*ARGS, "--paired", "basic", "--tasks", "3")
    assert queued[0] == "seats strong,companion,companion: queued 3 of 3 shards (0 already stored)"
    assert queued[1] == "seats basic,companion,companion: queued 3 of 3 shards (0 already stored)"
    assert DBTaskResult.objects.filter(status="READY").count() == 6
    with pytest.raises(CommandError) as err:
        tournament(*ARGS, "--paired", "basic", "--tasks", "3", "--report")
    assert "shards [0, 1, 2] of 3 are not stored yet" in str(err.value)

    batch = worker("--batch")  # runs every queued task, then exits
    out, _ = batch.communicate(timeout=DEADLINE)
    assert batch.returncode == 0, out
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 6
    assert sorted(TournamentShard.objects.values_list("shard", flat=True)) == [0, 0, 1, 1, 2, 2]

    sharded = tournament(*ARGS, "--paired", "basic", "--tasks", "3", "--report")
    straight = tournament(*ARGS, "--paired", "basic")
    speed = [i for i, line in enumerate(straight) if line.startswith("speed:")]
    # every figure the same (hands, walls, points, intervals, rates, the paired gain); only the speed lines differ
    assert [line for i, line in enumerate(sharded) if i not in speed] == [line for i, line in enumerate(straight) if i not in speed]
    assert len(speed) == 2 and sharded[-1].startswith("paired: strong − basic")

    again = tournament(*ARGS, "--tasks", "3")  # stored shards are not queued again
    assert again[0] == "seats strong,companion,companion: queued 0 of 3 shards (3 already stored)"


def test_bad_task_counts_are_refused_with_the_limit():
    with pytest.raises(CommandError) as err:
        tournament(*ARGS, "--tasks", "5")
    assert "--tasks must be from 1 to 4 (the walls of 12 hands)" in str(err.value)
    with pytest.raises(CommandError) as err:
        tournament(*ARGS, "--report")
    assert "give --tasks too" in str(err.value)

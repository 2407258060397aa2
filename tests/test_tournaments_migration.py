"""Moving the tournament shards from the analysis app to the tournaments app moves no data: a database migrated before keeps its rows."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.migrating import migrate, migrated_back
from tournaments.models import TournamentShard

BEFORE = [("analysis", "0004_tournament_shards"), ("tournaments", None)]
TABLE = "analysis_tournamentshard"


@pytest.fixture
def old_state():
    """The apps as they were before the move (the model in ``analysis``)."""
    with migrated_back(BEFORE) as apps:
        yield apps


@pytest.mark.django_db(transaction=True)
def test_a_shard_stored_before_the_move_is_read_by_the_tournaments_app_from_the_same_table(old_state):
    assert "TournamentShard" in {m.__name__ for m in old_state.get_app_config("analysis").get_models()}
    key = {"lineup": "strong,basic,basic", "seed": 7, "hands": 3, "rules": "standard", "shards": 2, "shard": 1}
    old = old_state.get_model("analysis", "TournamentShard").objects.create(**key, outcomes=[{"net": [1, -1, 0]}], cpu_seconds=1.5, wall_seconds=2.0)
    with connection.cursor() as cursor:
        before = connection.introspection.get_constraints(cursor, TABLE)

    migrate()

    shard = TournamentShard.objects.get(pk=old.pk)
    assert (shard.lineup, shard.shard, shard.outcomes, shard.cpu_seconds) == ("strong,basic,basic", 1, [{"net": [1, -1, 0]}], 1.5)
    assert TournamentShard._meta.db_table == TABLE
    with connection.cursor() as cursor:
        assert connection.introspection.get_constraints(cursor, TABLE) == before
    assert "tournament_shard_once" in before
    assert set(ContentType.objects.filter(model="tournamentshard").values_list("app_label", flat=True)) <= {"tournaments"}

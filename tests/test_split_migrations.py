"""Splitting learn and settlement off the analysis app moves no data: a database migrated before keeps its rows.

The test rolls the three apps back to the state before the split (the models in ``analysis``),
writes a verse card, a score sheet and a hand with the old models, migrates forward and reads
them with the new apps' models, from the same tables.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from learn.models import VerseCard
from settlement.models import ScoreSheet, SheetHand
from tests.migrating import migrate, migrated_back

BEFORE = [("analysis", "0002_score_sheets"), ("learn", None), ("settlement", None)]
SPLIT = [("analysis", "0003_models_move_to_learn_and_settlement"), ("learn", "0001_initial"), ("settlement", "0001_initial")]
"""Just after the split (the owners changed later: tests/accounts/test_migrations.py)."""
TABLES = {"analysis_versecard", "analysis_scoresheet", "analysis_sheethand"}


@pytest.fixture
def old_state():
    """The apps as they were before the split."""
    with migrated_back(BEFORE) as apps:
        yield apps


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_split_are_read_by_the_new_apps(old_state):
    assert {"VerseCard", "ScoreSheet", "SheetHand"} <= {m.__name__ for m in old_state.get_app_config("analysis").get_models()}
    user = get_user_model().objects.create_user("before-the-split", password="a-long-passphrase-1")
    due = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)
    old_card = old_state.get_model("analysis", "VerseCard").objects.create(user_id=user.pk, couplet=4, due=due, reviews=2)
    old_sheet = old_state.get_model("analysis", "ScoreSheet").objects.create(user_id=user.pk, players=["甲", "乙", "丙"], base=2)
    old_hand = old_state.get_model("analysis", "SheetHand").objects.create(sheet=old_sheet, position=1, data={"result": "draw"}, token="t1")

    migrate()

    card = VerseCard.objects.get(pk=old_card.pk)
    assert (card.player.user_id, card.couplet, card.due, card.reviews) == (user.pk, 4, due, 2)  # owned by the account's player since
    sheet = ScoreSheet.objects.get(pk=old_sheet.pk)
    assert sheet.player.user_id == user.pk
    assert (sheet.players, sheet.base, list(sheet.hands.values_list("pk", flat=True))) == (["甲", "乙", "丙"], 2, [old_hand.pk])
    assert SheetHand.objects.get(pk=old_hand.pk).data == {"result": "draw"}
    assert {VerseCard._meta.db_table, ScoreSheet._meta.db_table, SheetHand._meta.db_table} == TABLES
    assert {ct.app_label for ct in ContentType.objects.filter(model__in=["versecard", "scoresheet", "sheethand"])} <= {"learn", "settlement"}


@pytest.mark.django_db(transaction=True)
def test_the_split_leaves_the_tables_and_their_constraints_as_they_were(old_state):
    with connection.cursor() as cursor:
        before = {t: connection.introspection.get_constraints(cursor, t) for t in TABLES}
    migrate(SPLIT)
    with connection.cursor() as cursor:
        after = {t: connection.introspection.get_constraints(cursor, t) for t in TABLES}
    assert after == before
    assert {"verse_card_once_per_couplet", "sheet_hand_token_once"} <= set(after["analysis_versecard"]) | set(after["analysis_sheethand"])

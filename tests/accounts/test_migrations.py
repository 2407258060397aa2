"""Moving ``Player`` to accounts and making it the one owner keeps every row and whose it is.

The test rolls the apps back to before the move (``puzzles.Player``, memorise cards owned by a
user, score sheets by a user or a visitor's session key), writes rows with the models of then,
migrates forward and reads them with today's models.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType

from accounts.models import Player
from learn.models import VerseCard
from play.models import Game, Hand
from puzzles.models import Attempt, ReviewCard
from settlement.models import ScoreSheet
from tests.migrating import migrate, migrated_back

BEFORE = [("puzzles", "0011_puzzle_retired"), ("play", "0003_review_task"), ("learn", "0001_initial"), ("settlement", "0001_initial"), ("accounts", None)]


@pytest.fixture
def old_state():
    """The apps as they were before the move."""
    with migrated_back(BEFORE) as apps:
        yield apps


@pytest.mark.django_db(transaction=True)
def test_every_row_keeps_its_owner_through_the_move(old_state):
    old = {name: old_state.get_model(app, name) for app, name in [("puzzles", "Player"), ("puzzles", "Attempt"), ("puzzles", "ReviewCard"), ("puzzles", "Puzzle")]}
    old.update({name: old_state.get_model(app, name) for app, name in [("play", "Game"), ("play", "Hand"), ("learn", "VerseCard"), ("settlement", "ScoreSheet")]})
    users = get_user_model().objects
    drilled, carded, visitor_user = (users.create_user(n, password="a-long-passphrase-1") for n in ("drilled", "carded", "sheeted"))
    due = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)
    puzzle = old["Puzzle"].objects.order_by("pk").first() or old["Puzzle"].objects.create(key="m1", hand="1p", accepted=["1p"], options=[])
    account = old["Player"].objects.create(user_id=drilled.pk, rating=1620.0)
    visitor = old["Player"].objects.create(rating=1410.0)
    attempt = old["Attempt"].objects.create(player=visitor, puzzle=puzzle, attempt_id="a1", answer="1p", correct=True)
    card = old["ReviewCard"].objects.create(player=account, puzzle=puzzle, card={"state": 1}, due=due)
    game = old["Game"].objects.create(player=visitor, level="basic")
    hand = old["Hand"].objects.create(player=visitor, game=game, record={"format": "kwx-hand/1", "actions": []})
    drilled_card = old["VerseCard"].objects.create(user_id=drilled.pk, couplet=3, due=due, reviews=2)
    new_card = old["VerseCard"].objects.create(user_id=carded.pk, couplet=5, due=due, reviews=1)
    users_sheet = old["ScoreSheet"].objects.create(user_id=visitor_user.pk, players=["甲", "乙", "丙"])
    session_sheets = [old["ScoreSheet"].objects.create(anon_key="visitor-key", players=["A", "B", n]) for n in ("C", "D")]
    other_sheet = old["ScoreSheet"].objects.create(anon_key="another-key", players=["X", "Y", "Z"])

    migrate()

    assert Player._meta.db_table == "puzzles_player" and ContentType.objects.filter(app_label="accounts", model="player").exists()
    assert not ContentType.objects.filter(app_label="puzzles", model="player").exists()
    assert (Player.objects.get(pk=account.pk).user_id, Player.objects.get(pk=account.pk).rating) == (drilled.pk, 1620.0)
    assert Player.objects.get(pk=visitor.pk).rating == 1410.0
    assert Attempt.objects.get(pk=attempt.pk).player_id == visitor.pk and ReviewCard.objects.get(pk=card.pk).player_id == account.pk
    assert Game.objects.get(pk=game.pk).player_id == visitor.pk and Hand.objects.get(pk=hand.pk).player_id == visitor.pk
    assert VerseCard.objects.get(pk=drilled_card.pk).player_id == account.pk  # the account's existing player
    made = VerseCard.objects.get(pk=new_card.pk)
    assert made.player.user_id == carded.pk and (made.couplet, made.due, made.reviews) == (5, due, 1)  # a player made for the account
    assert ScoreSheet.objects.get(pk=users_sheet.pk).player.user_id == visitor_user.pk
    keyed = {ScoreSheet.objects.get(pk=s.pk).player for s in session_sheets}
    assert len(keyed) == 1 and next(iter(keyed)).sheet_key == "visitor-key" and next(iter(keyed)).user_id is None
    assert ScoreSheet.objects.get(pk=other_sheet.pk).player.sheet_key == "another-key"
    assert ScoreSheet.objects.count() == 4 and VerseCard.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_move_back_returns_each_row_to_its_old_owner(old_state):
    users = get_user_model().objects
    user = users.create_user("back-and-forth", password="a-long-passphrase-1")
    due = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)
    old_state.get_model("learn", "VerseCard").objects.create(user_id=user.pk, couplet=4, due=due)
    old_state.get_model("settlement", "ScoreSheet").objects.create(anon_key="kept-key", players=["甲", "乙", "丙"])
    migrate()
    back = migrate(BEFORE)
    assert back.get_model("learn", "VerseCard").objects.get(couplet=4).user_id == user.pk
    assert back.get_model("settlement", "ScoreSheet").objects.get().anon_key == "kept-key"

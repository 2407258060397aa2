"""The one owner and the one merge: ``accounts.services.player_for`` and ``merge_players``.

A visitor's drills, games, memorise cards and score sheets all belong to the session's player
and follow them into their account on log-in or sign-up; merging again changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import Client, RequestFactory
from django.utils import timezone

from accounts.models import Player
from accounts.selectors import SESSION_KEY, SHEET_SESSION_KEY, request_player
from accounts.services import merge_players, merge_session_into_account, player_for
from learn.models import VerseCard
from play.models import Game, Hand
from puzzles.models import Attempt
from settlement.models import ScoreSheet
from settlement.services import create_sheet
from tests.puzzles.factories import aid, discard_puzzle

PASSWORD = "a-long-passphrase-1"


def visitor_request(session: dict, began: datetime | None = None):
    """A visitor's request holding ``session`` (and when it began, as the guard middleware notes it)."""
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    request.session = SessionStore()
    request.session.update(session)
    if began is not None:
        request.began = began
    return request


def _owned(player: Player) -> dict[str, int]:
    return {
        "attempts": Attempt.objects.filter(player=player).count(),
        "games": Game.objects.filter(player=player).count(),
        "hands": Hand.objects.filter(player=player).count(),
        "cards": VerseCard.objects.filter(player=player).count(),
        "sheets": ScoreSheet.objects.filter(player=player).count(),
    }


@pytest.mark.django_db
def test_a_visitors_drills_games_cards_and_sheets_follow_them_into_their_account_and_a_second_merge_changes_nothing():
    puzzle = discard_puzzle("34556p123789sZZZ")
    user = User.objects.create_user("owner", password=PASSWORD)
    client = Client()
    answered = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", {"discard": "3p", "attempt": aid("owner")}, content_type="application/json")
    assert answered.status_code == 200
    assert client.post("/play/", {"level": "basic", "rules": "standard", "base": "1", "piao": "0"}).status_code == 302
    assert client.post("/learn/koujue/memorise/", {"couplet": 2, "rating": "good", "reviews": 0}).status_code == 302
    sheet = {"name_0": "甲", "name_1": "乙", "name_2": "丙", "base": "1", "rules": "standard", "title": "", "first_dealer": "0"}
    assert client.post("/settle/sheets/", sheet).status_code == 302
    visitor = Player.objects.get(pk=client.session[SESSION_KEY])
    assert visitor.user_id is None
    assert _owned(visitor) == {"attempts": 1, "games": 1, "hands": 1, "cards": 1, "sheets": 1}

    assert client.post("/accounts/login/", {"username": "owner", "password": PASSWORD}).status_code == 302

    account = Player.objects.get(user=user)
    assert _owned(account) == {"attempts": 1, "games": 1, "hands": 1, "cards": 1, "sheets": 1}
    assert _owned(visitor) == dict.fromkeys(_owned(visitor), 0)
    assert Player.objects.get(pk=visitor.pk).merged_into_id == account.pk
    rating = Player.objects.get(pk=account.pk).rating
    assert rating != 1500.0  # the visitor's rated answer moved the account's rating

    again = merge_players(source=Player.objects.get(pk=visitor.pk), target=account)
    assert again.pk == account.pk and _owned(account) == {"attempts": 1, "games": 1, "hands": 1, "cards": 1, "sheets": 1}
    assert Player.objects.get(pk=account.pk).rating == rating
    assert merge_session_into_account(session={SESSION_KEY: visitor.pk}, user=user) is None  # a merged player is not merged twice
    assert Player.objects.get(pk=account.pk).rating == rating and _owned(account)["attempts"] == 1


@pytest.mark.django_db
def test_a_memorise_card_both_players_have_keeps_the_one_graded_more_often():
    user = User.objects.create_user("cards", password=PASSWORD)
    account, visitor = Player.objects.create(user=user), Player.objects.create()
    now = timezone.now()
    VerseCard.objects.create(player=account, couplet=1, due=now, reviews=1)
    VerseCard.objects.create(player=visitor, couplet=1, due=now + timedelta(days=3), reviews=3)
    VerseCard.objects.create(player=visitor, couplet=2, due=now, reviews=1)
    VerseCard.objects.create(player=account, couplet=3, due=now, reviews=2)
    VerseCard.objects.create(player=visitor, couplet=3, due=now, reviews=1)
    merge_players(source=visitor, target=account)
    cards = {c.couplet: c.reviews for c in VerseCard.objects.filter(player=account)}
    assert cards == {1: 3, 2: 1, 3: 2}
    assert not VerseCard.objects.filter(player=visitor).exists()


@pytest.mark.django_db
def test_a_merged_sessions_pointer_is_honoured_only_for_a_request_begun_before_the_merge():
    account = Player.objects.create(user=User.objects.create_user("fix", password=PASSWORD))
    anonymous = Player.objects.create()
    session = {SESSION_KEY: anonymous.pk}
    before = timezone.now() - timedelta(seconds=1)
    merge_players(source=anonymous, target=account)
    assert player_for(visitor_request(session, began=before)).pk == account.pk  # in flight in another tab during the log-in
    later = visitor_request(session, began=timezone.now())
    fresh = player_for(later)
    assert fresh.pk not in (account.pk, anonymous.pk) and later.session[SESSION_KEY] == fresh.pk
    assert player_for(visitor_request(session)).pk != account.pk  # no start time: never the account


@pytest.mark.django_db
def test_a_visitor_with_sheets_from_before_the_one_owner_finds_them_and_keeps_their_drills():
    """A session from before holds a score-sheet key (``settle_owner``); the migration made a player for that key."""
    old = Player.objects.create(sheet_key="old-visitor-key")
    create_sheet(player=old, players=["甲", "乙", "丙"])
    alone = visitor_request({SHEET_SESSION_KEY: "old-visitor-key"})
    assert request_player(alone).pk == old.pk and dict(alone.session) == {SHEET_SESSION_KEY: "old-visitor-key"}  # a read writes nothing
    assert player_for(alone).pk == old.pk and alone.session[SESSION_KEY] == old.pk  # the first write claims them
    assert SHEET_SESSION_KEY not in alone.session and request_player(alone).pk == old.pk

    drills = Player.objects.create()
    other = Player.objects.create(sheet_key="second-key")
    create_sheet(player=other, players=["A", "B", "C"])
    both = visitor_request({SESSION_KEY: drills.pk, SHEET_SESSION_KEY: "second-key"})
    assert request_player(both).pk == drills.pk and not ScoreSheet.objects.filter(player=drills).exists()  # shown once a write claims them
    assert player_for(both).pk == drills.pk
    assert list(ScoreSheet.objects.filter(player=drills).values_list("players", flat=True)) == [["A", "B", "C"]]
    assert request_player(visitor_request({SHEET_SESSION_KEY: "second-key"})) is None  # the key is spent


@pytest.mark.django_db
def test_logging_in_takes_a_session_sheet_key_from_before_into_the_account():
    user = User.objects.create_user("sheets", password=PASSWORD)
    old = Player.objects.create(sheet_key="k-before")
    create_sheet(player=old, players=["甲", "乙", "丙"])
    account = merge_session_into_account(session={SHEET_SESSION_KEY: "k-before"}, user=user)
    assert account is not None and account.user_id == user.pk
    assert ScoreSheet.objects.filter(player=account).count() == 1


@pytest.mark.django_db
def test_every_owner_foreign_key_is_moved_by_the_merge():
    """Whatever points at a player (a new area's model too) follows the merge: nothing is left on the visitor."""
    from accounts.services import _owned_relations

    names = {f"{rel.related_model._meta.label}.{rel.field.name}" for rel in _owned_relations()}
    assert names >= {"puzzles.Attempt.player", "puzzles.ReviewCard.player", "play.Game.player", "play.Hand.player", "play.ReviewItem.player", "learn.VerseCard.player", "settlement.ScoreSheet.player"}

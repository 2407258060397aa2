"""Memorise mode: fsrs scheduling per player (a visitor's session or an account), most overdue first, repeats counted once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Player
from learn.content import couplets
from learn.models import VerseCard

URL = "/learn/koujue/memorise/"


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("mahjong", password="a-long-passphrase-1")


@pytest.fixture
def player(user):
    client = Client()
    client.force_login(user)
    return client


def _card(user, number, due):
    return VerseCard.objects.create(player=Player.objects.get_or_create(user=user)[0], couplet=number, due=due, state=2, stability=3.0, difficulty=5.0, last_review=due - timedelta(days=3), reviews=1)


def test_player_grades_through_the_page_and_the_next_couplet_is_shown(player, user):
    page = player.get(URL)
    assert "低翻莫胡牌" in page.content.decode() and "只求碰碰胡" not in page.content.decode()
    revealed = player.get(URL + "?n=1&reveal=1").content.decode()
    assert "只求碰碰胡" in revealed and 'name="rating"' in revealed and "csrfmiddlewaretoken" in revealed
    response = player.post(URL, {"couplet": 1, "rating": "good", "reviews": 0})
    assert response.status_code == 302 and response["Location"] == URL
    card = VerseCard.objects.get(player__user=user, couplet=1)
    assert card.reviews == 1 and card.due > timezone.now()
    assert couplets()[1].first in player.get(URL).content.decode()
    player.post(URL, {"couplet": 1, "rating": "again", "reviews": 0})
    assert VerseCard.objects.get(player__user=user, couplet=1).reviews == 1


def test_htmx_grade_returns_the_next_card_fragment(player):
    response = player.post(URL, {"couplet": 1, "rating": "easy", "reviews": 0}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and response["HX-Push-Url"] == URL
    assert body.lstrip().startswith('<div id="memorise-card"') and "<html" not in body
    assert couplets()[1].first in body


def test_bad_grades_are_refused_with_a_message_and_change_nothing(player):
    response = player.post(URL, {"couplet": 1, "rating": "perfect", "reviews": 0})
    assert response.status_code == 400 and "忘了" in response.content.decode()
    response = player.post(URL, {"couplet": "x", "rating": "good"})
    assert response.status_code == 400
    assert player.get(URL + "?n=400").status_code == 404
    assert not VerseCard.objects.exists()


def test_a_visitors_grades_are_kept_under_their_session_and_a_page_view_writes_nothing(db):
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(URL).content.decode()
    assert 'href="/accounts/signup/?next=/learn/koujue/memorise/"' in page and couplets()[0].first in page
    assert [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")] == []
    assert not Player.objects.exists()
    response = client.post(URL, {"couplet": 1, "rating": "good", "reviews": 0})
    assert response.status_code == 302 and response["Location"] == URL
    card = VerseCard.objects.get(couplet=1)
    assert card.player.user_id is None and card.player.pk == client.session["kwx_player"] and card.due > timezone.now()
    assert couplets()[1].first in client.get(URL).content.decode()
    client.post(URL, {"couplet": 1, "rating": "again", "reviews": 0})  # the same showing graded again
    assert VerseCard.objects.get(couplet=1).reviews == 1


def test_a_history_restore_gets_the_whole_page_and_answers_vary(client):
    fragment = client.get(URL + "?n=2", HTTP_HX_REQUEST="true")
    restore = client.get(URL + "?n=2", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    page = client.get(URL + "?n=2")
    assert "<html" not in fragment.content.decode()
    assert "<html" in restore.content.decode() and "<html" in page.content.decode()
    for response in (fragment, restore, page):
        assert "HX-Request" in response["Vary"]

"""Today's set through the client: on the home page and /progress/, the daily drill answered, the hand against the judge started and
played by the card's own form (no JavaScript), the streak, both languages."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Player
from play.models import Game
from puzzles import selectors, services
from puzzles.models import Attempt, DailyDrill, Puzzle, ReviewCard
from tests.puzzles.factories import aid, ensure_bank
from tests.web.test_play import play_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def today() -> Puzzle:
    ensure_bank()
    return services.daily_drill(day=selectors.site_day())


def daily_card(html: str) -> str:
    found = re.search(r'<section id="daily".*?</section>', html, re.S)
    assert found, "no daily set on the page"
    return found.group(0)


def page_url(puzzle: Puzzle) -> str:
    return f"/{'learn/quiz' if puzzle.kind == Puzzle.QUIZ else 'drills'}/{puzzle.pk}/"


def answer(client: Client, puzzle: Puzzle, right: bool = True, label: str = "a", htmx: bool = False):
    """Answer the drill on its page in the daily mode, as its form posts."""
    field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
    wrong = [c for c in (puzzle.choices or [str(c) for c in puzzle.options["choices"]] if puzzle.kind != Puzzle.DISCARD else puzzle.hand_tiles) if c not in puzzle.accepted]
    value = puzzle.accepted[0] if right else wrong[0]
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(page_url(puzzle), {field: value, "attempt": aid(label), "mode": "daily"}, **headers)


def test_the_home_page_shows_todays_set_and_the_analyzer_page_does_not(today):
    card = daily_card(Client().get("/").content.decode())
    assert f'href="{page_url(today)}?mode=daily"' in card
    assert 'action="/play/"' in card and 'name="level" value="judge"' in card and 'name="rules" value="standard"' in card and "csrfmiddlewaretoken" in card
    assert "Asia/Shanghai" in card and "0 人今日答对" in card
    assert 'id="daily"' not in Client().get("/analyze/").content.decode()
    assert 'id="daily"' not in Client().get("/?hand=4556p123s789sZZZ").content.decode()  # a link to an analysis shows the analysis first
    assert 'id="daily"' not in Client().get("/", HTTP_HX_REQUEST="true").content.decode()  # an htmx swap of the analyzer leaves it alone
    assert DailyDrill.objects.get(day=selectors.site_day()).puzzle == today


def test_the_daily_drill_answered_shows_on_the_card_with_the_count_of_solvers(today):
    client = Client()
    response = answer(client, today)
    body = response.content.decode()
    assert response.status_code == 200 and "is-right" in body and 'href="/#daily"' in body  # the next step leads back to the set
    assert Attempt.objects.get().mode == "daily"
    answer(client, today, label="a")  # the same answer sent twice
    answer(Client(), today, right=False, label="b")
    for url in ("/", "/progress/"):
        card = daily_card(client.get(url).content.decode())
        assert 'data-testid="daily-drill"' in card and re.search(r'class="daily-item is-done" data-testid="daily-drill"', card)
        assert "1 人今日答对" in card and "2 人作答" in card


def test_a_daily_quiz_item_leads_back_to_the_set(today):
    quiz = Puzzle.objects.filter(kind=Puzzle.QUIZ, retired=False).order_by("key").first()
    html = Client().get(f"/learn/quiz/{quiz.pk}/?mode=daily").content.decode()
    assert 'name="mode" value="daily"' in html and "每日一题" in html
    body = answer(Client(), quiz).content.decode()
    assert 'href="/#daily"' in body


def test_the_cards_form_starts_a_game_against_the_judge_at_the_players_town(today):
    client = Client()
    client.post("/town/", {"rules": "shiyan"})
    card = daily_card(client.get("/").content.decode())
    fields = dict(re.findall(r'<input type="hidden" name="(level|rules|base|piao)" value="([^"]*)"', card))
    assert fields == {"level": "judge", "rules": "shiyan", "base": "1", "piao": "0"}
    response = client.post("/play/", fields)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/play/{game.pk}/" and (game.level, game.rules) == ("judge", "shiyan")
    assert f'href="/play/{game.pk}/"' in daily_card(client.get("/").content.decode())  # the hand still at the table: continue it


def test_a_played_hand_and_the_answered_drill_make_the_day_done_and_the_streak_one(today, django_capture_on_commit_callbacks):
    client = Client()
    answer(client, today)
    card = daily_card(client.get("/").content.decode())
    fields = dict(re.findall(r'<input type="hidden" name="(level|rules|base|piao)" value="([^"]*)"', card))
    client.post("/play/", fields)
    play_hand(client, Game.objects.get(), capture=django_capture_on_commit_callbacks)
    card = daily_card(client.get("/progress/").content.decode())
    assert 'class="card daily is-done"' in card and 'data-testid="day-streak">连续 1 天' in card and "最佳 1" in card
    assert 'id="daily-play"' not in card  # played: no button


def test_a_streak_of_earlier_days_is_shown_with_the_best(today):
    client = Client()
    answer(client, today)  # makes the player; today: the drill only
    player = Player.objects.get()
    now = timezone.now()
    for n in (1, 2):
        day = selectors.site_day(now - timedelta(days=n))
        puzzle = services.daily_drill(day=day)
        attempt = Attempt.objects.create(player=player, puzzle=puzzle, attempt_id=aid(f"d{n}"), answer=puzzle.accepted[0], correct=True)
        game = Game.objects.create(player=player, level="judge")
        hand = game.hands.create(player=player, record={}, over=True)
        Attempt.objects.filter(pk=attempt.pk).update(created=now - timedelta(days=n))
        hand.__class__.objects.filter(pk=hand.pk).update(created=now - timedelta(days=n))
    card = daily_card(client.get("/progress/").content.decode())
    assert 'data-testid="day-streak">连续 2 天' in card and "最佳 2" in card and "is-done" not in card.split(">", 1)[0]


def test_reviews_due_are_on_the_card_with_their_link(today):
    client = Client()
    other = Puzzle.objects.filter(kind=Puzzle.DISCARD, retired=False).exclude(pk=today.pk).first()
    answer(client, other, right=False)
    ReviewCard.objects.update(due=timezone.now() - timedelta(minutes=1))
    card = daily_card(client.get("/").content.decode())
    assert 'href="/drills/?mode=review"' in card and "1 题到期" in card


def test_the_card_in_english(today):
    card = daily_card(Client(HTTP_ACCEPT_LANGUAGE="en").get("/progress/").content.decode())
    assert "Today’s set" in card or "Today's set" in card
    assert "0 days in a row" in card and "One hand against the judge" in card and "China time (Asia/Shanghai)" in card


def test_the_cards_hand_carries_the_towns_switches(today):
    client = Client()
    client.post("/town/", {"rules": "xiaogan", "shown": "xiaogan", "cap": "8"})
    card = daily_card(client.get("/").content.decode())
    assert 'name="rules" value="xiaogan"' in card and 'name="cap" value="8"' in card and "孝感（改）" in card

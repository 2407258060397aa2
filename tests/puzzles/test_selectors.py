"""Next puzzle per mode, progress figures and the rating chart."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from puzzles import selectors
from puzzles.models import Player, ReviewCard
from puzzles.services import answer_puzzle
from tests.puzzles.factories import discard_puzzle, ensure_bank, quiz_puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def bank():
    ensure_bank()


def test_rated_puzzle_is_near_the_rating_and_unseen(bank):
    player = Player.objects.create(rating=1800)
    seen = set()
    for i in range(5):
        p = selectors.next_puzzle(player, "rated", rng=random.Random(i))
        assert p.kind == "discard" and abs(p.rating - 1800) <= 400 and p.pk not in seen
        answer_puzzle(player, p, p.accepted[0], f"a{i}")
        seen.add(p.pk)
        player.refresh_from_db()


def test_theme_mode_gives_that_theme(bank):
    for key in ("dragons", "value", "ka_wu_xing"):
        assert key in selectors.next_puzzle(None, "theme", key).theme_list


def test_streak_gets_harder(bank):
    player = Player.objects.create()
    ratings = []
    for i in range(4):
        p = selectors.next_puzzle(player, "streak", rng=random.Random(i))
        ratings.append(p.rating)
        answer_puzzle(player, p, p.accepted[0], f"s{i}", mode="streak")
        player.refresh_from_db()
    assert all(r >= selectors.STREAK_START + selectors.STREAK_STEP * i for i, r in enumerate(ratings))
    assert ratings[-1] > ratings[0]


def test_review_gives_due_cards_only():
    player = Player.objects.create()
    puzzle = discard_puzzle("34556p123789sZZZ")
    assert selectors.next_puzzle(player, "review") is None
    answer_puzzle(player, puzzle, "Z", "a1")
    assert selectors.next_puzzle(player, "review") is None  # due in a minute, not yet
    ReviewCard.objects.update(due=timezone.now() - timedelta(seconds=1))
    assert selectors.next_puzzle(player, "review") == puzzle


def test_quiz_mode_gives_quiz_items():
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    assert selectors.next_puzzle(None, "quiz") == quiz


def test_progress_counts_everything():
    player = Player.objects.create()
    a, b = discard_puzzle("34556p123789sZZZ"), discard_puzzle("34556p123789sZZZ")
    answer_puzzle(player, a, "3p", "1")
    answer_puzzle(player, b, "Z", "2")
    answer_puzzle(player, quiz_puzzle("4556p123789sZZZ", "5p"), "2", "3", mode="quiz")
    player.refresh_from_db()
    figures = selectors.progress(player)
    assert (figures.total.attempts, figures.total.correct, figures.total.accuracy) == (3, 2, 67)
    assert (figures.drills.attempts, figures.quiz.attempts) == (2, 1)
    assert figures.themes["ka_wu_xing"].attempts == 2 and figures.themes["ka_wu_xing"].accuracy == 50
    assert [round(r) for _, r in figures.history][-1] == round(player.rating)
    assert figures.scheduled == 1
    body = figures.as_json()
    assert body["attempts"] == 3 and body["rating"]["value"] == round(player.rating)


def test_progress_of_nobody_is_empty():
    assert selectors.progress(None).total.attempts == 0


def test_chart_points_follow_the_history():
    now = timezone.now()
    chart = selectors.rating_chart([(now, 1550.0), (now, 1520.0)])
    points = [tuple(map(float, p.split(","))) for p in chart.points.split()]
    assert len(points) == 3 and points[0][0] < points[1][0] < points[2][0]
    assert points[1][1] < points[0][1]  # higher rating is higher up (smaller y)
    assert chart.low < 1500 < 1550 < chart.high

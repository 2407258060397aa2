"""Next puzzle per mode, progress figures and the rating chart."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Player
from puzzles import selectors
from puzzles.models import Puzzle, ReviewCard
from puzzles.services import answer_puzzle
from tests.puzzles.factories import aid, discard_puzzle, ensure_bank, quiz_puzzle

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
        answer_puzzle(player=player, puzzle=p, answer=p.accepted[0], attempt_id=aid(f"a{i}"))
        seen.add(p.pk)
        player.refresh_from_db()


def test_theme_mode_gives_that_theme(bank):
    for key in ("dragons", "value", "ka_wu_xing"):
        assert key in selectors.next_puzzle(None, "theme", key).theme_list


def test_a_theme_is_served_while_a_served_puzzle_carries_it():
    assert "ka_wu_xing" in selectors.served_themes()  # the shipped banks
    Puzzle.objects.update(retired=True)
    assert selectors.served_themes() == frozenset()
    puzzle = discard_puzzle("34556p123789sZZZ")
    assert selectors.served_themes() == frozenset(puzzle.theme_list) and "ka_wu_xing" in puzzle.theme_list
    Puzzle.objects.filter(pk=puzzle.pk).update(retired=True)
    assert selectors.served_themes() == frozenset()


def test_theme_mode_never_falls_back_to_a_puzzle_without_the_theme():
    Puzzle.objects.update(retired=True)
    player = Player.objects.create()
    wait = discard_puzzle("34556p123789sZZZ")  # 卡五星 wait choice
    assert "dragons" not in wait.theme_list
    assert selectors.next_puzzle(player, "theme", "dragons") is None
    answer_puzzle(player=player, puzzle=wait, answer=wait.accepted[0], attempt_id=aid("seen"))
    assert selectors.next_puzzle(player, "theme", "ka_wu_xing") == wait  # seen, still of the theme: asked again


def test_streak_gets_harder(bank):
    player = Player.objects.create()
    ratings = []
    for i in range(4):
        p = selectors.next_puzzle(player, "streak", rng=random.Random(i))
        ratings.append(p.rating)
        answer_puzzle(player=player, puzzle=p, answer=p.accepted[0], attempt_id=aid(f"s{i}"), mode="streak")
        player.refresh_from_db()
    assert all(r >= selectors.STREAK_START + selectors.STREAK_STEP * i for i, r in enumerate(ratings))
    assert ratings[-1] > ratings[0]


@pytest.mark.parametrize("seed", range(4))
def test_each_streak_step_is_rated_above_the_last(bank, seed):
    player = Player.objects.create()
    rng = random.Random(seed)
    ratings = []
    for i in range(15):
        p = selectors.next_puzzle(player, "streak", rng=rng)
        ratings.append(p.rating)
        answer_puzzle(player=player, puzzle=p, answer=p.accepted[0], attempt_id=aid(f"s{i}"), mode="streak")
        player.refresh_from_db()
    assert all(later > earlier for earlier, later in zip(ratings, ratings[1:])), ratings


def test_a_streak_ends_when_no_puzzle_is_harder():
    Puzzle.objects.filter(kind="discard").delete()
    easier = discard_puzzle("34556p123789sZZZ", rating=2000)
    player = Player.objects.create(streak=3, best_streak=3, streak_floor=2900)
    assert selectors.next_puzzle(player, "streak") is None  # never an easier one
    player.streak = 0
    assert selectors.next_puzzle(player, "streak") == easier  # a new run starts from the bottom


def test_the_review_queue_holds_both_kinds():
    player = Player.objects.create()
    drill, quiz = discard_puzzle("34556p123789sZZZ"), quiz_puzzle("4556p123789sZZZ", "5p")
    answer_puzzle(player=player, puzzle=quiz, answer="4", attempt_id=aid("q1"), mode="quiz")
    answer_puzzle(player=player, puzzle=drill, answer="Z", attempt_id=aid("d1"))
    ReviewCard.objects.filter(puzzle=quiz).update(due=timezone.now() - timedelta(minutes=2))
    ReviewCard.objects.filter(puzzle=drill).update(due=timezone.now() - timedelta(minutes=1))
    assert selectors.due_reviews(player).count() == 2
    assert selectors.next_puzzle(player, "review") == quiz
    answer_puzzle(player=player, puzzle=quiz, answer="2", attempt_id=aid("q2"), mode="review")
    assert selectors.next_puzzle(player, "review") == drill


def test_review_gives_due_cards_only():
    player = Player.objects.create()
    puzzle = discard_puzzle("34556p123789sZZZ")
    assert selectors.next_puzzle(player, "review") is None
    answer_puzzle(player=player, puzzle=puzzle, answer="Z", attempt_id=aid("a1"))
    assert selectors.next_puzzle(player, "review") is None  # due in a minute, not yet
    ReviewCard.objects.update(due=timezone.now() - timedelta(seconds=1))
    assert selectors.next_puzzle(player, "review") == puzzle


def test_quiz_mode_gives_quiz_items():
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    Puzzle.objects.filter(kind=Puzzle.QUIZ).exclude(pk=quiz.pk).update(retired=True)
    assert selectors.next_puzzle(None, "quiz") == quiz


def test_a_retired_puzzle_is_never_served_and_its_review_card_is_not_due():
    player = Player.objects.create()
    old = discard_puzzle("34556p123789sZZZ")
    ReviewCard.objects.create(player=player, puzzle=old, card={}, due=timezone.now() - timedelta(days=1))
    assert selectors.due_reviews(player).count() == 1
    Puzzle.objects.filter(kind=Puzzle.DISCARD).exclude(pk=old.pk).update(retired=True)
    assert selectors.next_puzzle(player, "rated") == old
    old.retired = True
    old.save(update_fields=["retired"])
    assert selectors.next_puzzle(player, "rated") is None and selectors.next_puzzle(player, "streak") is None
    assert selectors.due_reviews(player).count() == 0 and selectors.progress(player).scheduled == 0


def test_progress_counts_everything():
    player = Player.objects.create()
    a, b = discard_puzzle("34556p123789sZZZ"), discard_puzzle("34556p123789sZZZ")
    answer_puzzle(player=player, puzzle=a, answer="3p", attempt_id=aid("1"))
    answer_puzzle(player=player, puzzle=b, answer="Z", attempt_id=aid("2"))
    answer_puzzle(player=player, puzzle=quiz_puzzle("4556p123789sZZZ", "5p"), answer="2", attempt_id=aid("3"), mode="quiz")
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


def test_chart_labels_sit_left_of_the_plot_and_the_x_axis_counts_answers():
    now = timezone.now()
    history = [(now, 1500.0 + 10 * i) for i in range(1, 24)]
    chart = selectors.rating_chart(history)
    assert all(d.x >= chart.left for d in chart.dots) and chart.left > 0
    assert [n for _, n in chart.x_ticks][:2] == [0, 5] and chart.x_ticks[-1][1] <= 23
    assert [(d.number, d.rating) for d in chart.dots] == [(i, 1500 + 10 * i) for i in range(1, 24)]


def test_a_long_history_shows_the_latest_answers():
    now = timezone.now()
    history = [(now, 1500.0 + i) for i in range(1, selectors.CHART_LAST + 31)]
    chart = selectors.rating_chart(history)
    assert len(chart.dots) == selectors.CHART_LAST
    assert chart.dots[0].number == 31 and chart.dots[-1].number == selectors.CHART_LAST + 30
    assert chart.x_ticks[0][1] == 30


def test_the_review_queue_gives_whichever_is_due_sooner_a_missed_puzzle_or_a_played_decision():
    from play.models import Hand, ReviewItem

    player = Player.objects.create()
    puzzle = discard_puzzle("34556p123789sZZZ")
    assert selectors.next_in_review(player) is None and selectors.next_in_review(None) is None and selectors.due_count(None) == 0
    answer_puzzle(player=player, puzzle=puzzle, answer="Z", attempt_id=aid("queue"))
    card = ReviewCard.objects.get(player=player)
    now = timezone.now()
    hand = Hand.objects.create(player=player, source=Hand.UPLOAD, record={"actions": []})
    item = ReviewItem.objects.create(player=player, hand=hand, step=3, cost=2.0, card={}, due=now - timedelta(minutes=5))
    ReviewCard.objects.filter(pk=card.pk).update(due=now - timedelta(minutes=1))
    assert selectors.next_in_review(player) == item and selectors.due_count(player) == 2
    ReviewCard.objects.filter(pk=card.pk).update(due=now - timedelta(minutes=9))
    assert selectors.next_in_review(player) == card
    ReviewItem.objects.filter(pk=item.pk).update(due=now + timedelta(days=1))
    ReviewCard.objects.filter(pk=card.pk).update(due=now + timedelta(days=1))
    assert selectors.next_in_review(player) is None and selectors.due_count(player) == 0

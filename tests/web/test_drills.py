"""Drill, quiz and progress pages: plain POST and htmx, feedback contents, one's own progress only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils.html import escape

from analysis.board import analyzer_url
from kwx.hand.fans import fan
from puzzles.models import Attempt, Puzzle
from tests.puzzles.factories import aid, discard_puzzle, ensure_bank, quiz_puzzle

pytestmark = pytest.mark.django_db


def _form_value(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]+)"', html).group(1)


@pytest.fixture
def puzzle():
    return discard_puzzle("34556p123789sZZZ", visible="55s")


def test_drills_redirects_to_a_shareable_puzzle_page():
    ensure_bank()
    r = Client().get("/drills/", {"mode": "theme", "theme": "value"})
    assert r.status_code == 302 and re.match(r"^/drills/\d+/\?mode=theme&theme=value$", r["Location"])
    page = Client().get(r["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    puzzle = Puzzle.objects.get(pk=r["Location"].split("/")[2])
    assert html.count('name="discard"') == len(puzzle.hand_tiles) and 'hx-post="/drills/' in html and "csrfmiddlewaretoken" in html


def test_drill_page_shows_the_context(puzzle):
    html = Client().get(f"/drills/{puzzle.pk}/").content.decode()
    assert "tiles/5s.svg" in html  # the visible tiles
    assert html.count('class="tile-button') == 14


def test_plain_post_without_javascript_gives_the_whole_page_with_feedback(puzzle):
    client = Client()
    html = client.get(f"/drills/{puzzle.pk}/").content.decode()
    r = client.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": _form_value(html, "attempt"), "mode": "rated"})
    body = r.content.decode()
    assert r.status_code == 200 and "<html" in body and "is-right" in body
    assert escape(analyzer_url("34556p123789sZZZ", visible="55s")) in body
    assert "五星卡的好" in body and "/learn/fans/#ka_wu_xing" in body  # the theme's rule and 口诀
    assert body.count('<tr class="best') == 1  # one accepted row in the option table


def test_htmx_post_gives_the_board_fragment_and_the_rating_card(puzzle):
    client = Client()
    r = client.post(f"/drills/{puzzle.pk}/", {"discard": "Z", "attempt": aid("a1"), "mode": "rated"}, HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert "<html" not in body and 'id="board"' in body and "is-wrong" in body
    assert 'hx-swap-oob="true"' in body and "tiles/3p.svg" in body


def test_posting_twice_counts_once(puzzle):
    client = Client()
    for _ in range(2):
        client.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid("same"), "mode": "rated"})
    assert Attempt.objects.count() == 1


def test_a_tile_not_in_the_hand_is_a_clear_400(puzzle):
    r = Client().post(f"/drills/{puzzle.pk}/", {"discard": "9p", "attempt": aid("a")})
    assert r.status_code == 400 and "9p" in r.content.decode() and not Attempt.objects.exists()


def test_drill_needs_csrf():
    client = Client(enforce_csrf_checks=True)
    r = client.post(f"/drills/{discard_puzzle('34556p123789sZZZ').pk}/", {"discard": "3p", "attempt": aid("a")})
    assert r.status_code == 403


def test_review_mode_with_nothing_due_says_so():
    r = Client().get("/drills/", {"mode": "review"})
    assert r.status_code == 200 and 'name="discard"' not in r.content.decode()


def test_quiz_page_and_answer():
    quiz = quiz_puzzle("4556p123789sZZZ", "5p", side="discard", situation=("liang_dao",))
    Puzzle.objects.filter(kind=Puzzle.QUIZ).exclude(pk=quiz.pk).update(retired=True)
    client = Client()
    assert client.get("/learn/quiz/")["Location"] == f"/learn/quiz/{quiz.pk}/"
    html = client.get(f"/learn/quiz/{quiz.pk}/").content.decode()
    total = quiz.options["total"]  # the engine's total (the factory scores the win)
    assert total == fan("ka_wu_xing").multiplier("standard") * fan("liang_dao").multiplier("standard")
    assert f'name="choice" value="{total}"' in html
    r = client.post(f"/learn/quiz/{quiz.pk}/", {"choice": str(total), "attempt": aid("q1")}, HTTP_HX_REQUEST="true")
    body = r.content.decode()
    assert "is-right" in body and f"×{total}" in body and "breakdown" in body


def test_progress_page_counts_only_this_visitors_attempts(puzzle):
    ann, bob = Client(), Client()
    ann.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid("a"), "mode": "rated"})
    ann_page = ann.get("/progress/").content.decode()
    bob_page = bob.get("/progress/").content.decode()
    assert re.search(r'data-testid="attempts">1<', ann_page) and "<polyline" in ann_page
    assert re.search(r'data-testid="attempts">0<', bob_page) and "<polyline" not in bob_page


def test_progress_page_in_english():
    from django.utils import translation

    html = Client().get("/progress/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    headings = ["Your progress", "Hands against the bots", "Rating over time", "Accuracy by theme"]
    assert '<html lang="en">' in html and all(f">{h}</h" in html for h in headings)
    with translation.override("zh-hans"):
        chinese = [translation.gettext(h) for h in headings]
    assert all(c != h and c not in html for c, h in zip(chinese, headings))  # none left in Chinese


def test_quiz_with_no_items_says_so():
    Puzzle.objects.filter(kind="quiz").delete()
    r = Client().get("/learn/quiz/")
    assert r.status_code == 200 and 'name="choice"' not in r.content.decode()


def test_streak_feedback_counts_and_ends():
    client = Client()
    right = client.post(f"/drills/{discard_puzzle('34556p123789sZZZ').pk}/", {"discard": "3p", "attempt": aid("s1"), "mode": "streak"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Streak: 1 in a row" in right.content.decode()
    wrong = client.post(f"/drills/{discard_puzzle('34556p123789sZZZ').pk}/", {"discard": "Z", "attempt": aid("s2"), "mode": "streak"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Streak over. Your best: 1." in wrong.content.decode() and "?mode=streak" in wrong.content.decode()


def test_review_sends_a_quiz_card_to_the_quiz_page_and_a_drill_card_to_the_drill_page():
    from datetime import timedelta

    from django.utils import timezone

    from puzzles.models import ReviewCard

    client = Client()
    drill, quiz = discard_puzzle("34556p123789sZZZ"), quiz_puzzle("4556p123789sZZZ", "5p")
    client.post(f"/learn/quiz/{quiz.pk}/", {"choice": "4", "attempt": aid("q1")})  # a miss: ×2 is right
    client.post(f"/drills/{drill.pk}/", {"discard": "Z", "attempt": aid("d1"), "mode": "rated"})
    ReviewCard.objects.filter(puzzle=quiz).update(due=timezone.now() - timedelta(minutes=2))
    ReviewCard.objects.filter(puzzle=drill).update(due=timezone.now() - timedelta(minutes=1))
    sidebar = client.get(f"/drills/{drill.pk}/").content.decode()
    assert re.search(r'class="badge bad">2<', sidebar)
    first = client.get("/drills/", {"mode": "review"})
    assert first.status_code == 302 and first["Location"] == f"/learn/quiz/{quiz.pk}/?mode=review"
    page = client.get(first["Location"])
    assert page.status_code == 200 and 'name="mode" value="review"' in page.content.decode()
    answered = client.post(f"/learn/quiz/{quiz.pk}/", {"choice": "2", "attempt": aid("q2"), "mode": "review"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "is-right" in answered.content.decode() and 'href="/drills/?mode=review"' in answered.content.decode()
    assert Attempt.objects.get(attempt_id=aid("q2")).mode == "review" and not Attempt.objects.get(attempt_id=aid("q2")).rated
    htmx = client.post(f"/drills/{drill.pk}/?mode=review", {"discard": "3p", "attempt": aid("d2"), "mode": "review"}, HTTP_HX_REQUEST="true")
    assert '<span id="due-count" hx-swap-oob="true"></span>' in htmx.content.decode()  # the sidebar count follows the answer
    quiz_card = ReviewCard.objects.get(puzzle=quiz)
    ReviewCard.objects.filter(puzzle=drill).update(due=timezone.now() - timedelta(minutes=1))
    assert quiz_card.due > timezone.now()
    second = client.get("/drills/", {"mode": "review"})
    assert second["Location"] == f"/drills/{drill.pk}/?mode=review" and client.get(second["Location"]).status_code == 200


def test_progress_shows_the_quiz_rating_apart():
    client = Client()
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    client.post(f"/learn/quiz/{quiz.pk}/", {"choice": "2", "attempt": aid("q1")})
    html = client.get("/progress/").content.decode()
    assert re.search(r'data-testid="rating">1500\?<', html)
    rating = int(re.search(r'data-testid="quiz-rating">(\d+)\?<', html).group(1))
    assert rating > 1500


def test_english_counts_take_the_singular_for_one(puzzle):
    client = Client()
    client.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid("a"), "mode": "rated"})
    html = client.get("/progress/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "1 drill · 0 fan quizzes" in html and "1 drills" not in html
    Puzzle.objects.filter(pk=puzzle.pk).update(wall_left=1)
    assert "1 tile left in the wall" in client.get(f"/drills/{puzzle.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    chinese = client.get("/progress/").content.decode()
    assert "何切 1 · 算番 0" in chinese

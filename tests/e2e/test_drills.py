"""In Chromium: solve a puzzle by tapping a tile, see the feedback, and find it counted on the progress page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.puzzles.factories import discard_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db(transaction=True)


def test_tap_a_tile_then_progress_counts_it(page):
    puzzle = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
    tile = page.locator('button.tile-button[value="3p"]')
    assert tile.bounding_box()["width"] >= 40  # big enough to tap on a phone
    tile.click()
    page.wait_for_selector(".feedback")
    expect(page.locator("#board.is-right")).to_have_count(1)  # its class comes at htmx's settle, after the feedback is in
    assert page.url.endswith(f"/drills/{puzzle.pk}/?mode=rated")  # htmx swapped the board in place
    assert page.locator("#rating-card .big-rating").inner_text() != "1500?"  # the sidebar rating was refreshed too
    page.locator("a.next").wait_for()
    page.goto(f"{page.base}/progress/")
    assert page.get_by_test_id("attempts").inner_text() == "1"
    assert page.locator("svg.chart polyline").count() == 1


def test_quiz_pick_a_multiplier_on_desktop(desktop_page):
    page = desktop_page
    quiz = quiz_puzzle("4556p123789sZZZ", "5p", side="discard", situation=("liang_dao",))
    page.goto(f"{page.base}/learn/quiz/{quiz.pk}/")
    total = quiz.options["total"]  # the engine's total (the factory scores the win)
    wrong = next(c for c in quiz.options["choices"] if c != total)
    page.locator(f'button.choice[value="{wrong}"]').click()
    page.wait_for_selector(".feedback")
    expect(page.locator("#board.is-wrong")).to_have_count(1)  # its class comes at htmx's settle, after the feedback is in
    assert page.locator("table.breakdown tr.total").inner_text().replace("\t", " ").strip().endswith(f"×{total}")
    page.goto(f"{page.base}/progress/")
    assert page.get_by_test_id("attempts").inner_text() == "1"


def _make_due(*puzzles):
    from datetime import timedelta

    from django.utils import timezone

    from puzzles.models import ReviewCard

    for minutes, puzzle in enumerate(reversed(puzzles), start=1):
        ReviewCard.objects.filter(puzzle=puzzle).update(due=timezone.now() - timedelta(minutes=minutes))


def test_review_takes_a_missed_quiz_item_then_a_missed_puzzle(page):
    drill, quiz = discard_puzzle("34556p123789sZZZ"), quiz_puzzle("4556p123789sZZZ", "5p")
    page.goto(f"{page.base}/learn/quiz/{quiz.pk}/")
    total = quiz.options["total"]  # the engine's total
    page.locator(f'button.choice[value="{next(c for c in quiz.options["choices"] if c != total)}"]').click()
    page.wait_for_selector("#board.is-wrong")
    page.goto(f"{page.base}/drills/{drill.pk}/?mode=rated")
    page.locator('button.tile-button[value="Z"]').first.click()
    page.wait_for_selector("#board.is-wrong")
    _make_due(quiz, drill)
    page.goto(f"{page.base}/progress/")
    page.get_by_role("link", name="现在复习").click()
    page.wait_for_selector(f'button.choice[value="{total}"]')
    assert f"/learn/quiz/{quiz.pk}/?mode=review" in page.url and page.locator("#board .badge").first.inner_text().startswith("复习")
    page.locator(f'button.choice[value="{total}"]').click()
    page.wait_for_selector("#board.is-right")
    page.locator("a.next").click()
    page.wait_for_selector("button.tile-button")
    assert f"/drills/{drill.pk}/?mode=review" in page.url
    assert page.locator("#rating-card .big-rating").inner_text() != "1500?"  # the 何切 card: moved by the rated miss


def test_signing_up_keeps_the_streak_and_the_quiz_rating_is_shown_apart(page):
    first, second = discard_puzzle("34556p123789sZZZ"), discard_puzzle("34556p123789sZZZ")
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    for puzzle in (first, second):
        page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=streak")
        page.locator('button.tile-button[value="3p"]').click()
        page.wait_for_selector("#board.is-right")
    page.goto(f"{page.base}/learn/quiz/{quiz.pk}/")
    page.locator(f'button.choice[value="{quiz.options["total"]}"]').click()
    page.wait_for_selector("#board.is-right")
    page.goto(f"{page.base}/accounts/signup/")
    page.fill("#id_username", "streaker")
    page.fill("#id_password1", "a-long-pass-phrase-9")
    page.fill("#id_password2", "a-long-pass-phrase-9")
    page.locator("form button.primary").click()
    page.wait_for_url("**/progress/")
    assert page.locator(".stat", has_text="最长连对").locator(".small").inner_text() == "当前 2"
    assert page.get_by_test_id("rating").inner_text() == "1500?"  # the 算番 answer left the 何切 rating alone
    assert int(page.get_by_test_id("quiz-rating").inner_text().rstrip("?")) > 1500


def test_each_streak_puzzle_is_rated_above_the_last(page):
    import re

    from puzzles.models import Puzzle
    from tests.puzzles.factories import ensure_bank

    ensure_bank("bank")
    page.goto(f"{page.base}/drills/?mode=streak")
    ratings = []
    for step in range(4):
        page.wait_for_selector("button.tile-button")
        pk = int(re.search(r"/drills/(\d+)/", page.url).group(1))
        puzzle = Puzzle.objects.get(pk=pk)
        ratings.append(puzzle.rating)
        assert page.locator(".board-head .muted", has_text="难度").is_visible()  # the page says how hard it is
        page.locator(f'button.tile-button[value="{puzzle.accepted[0]}"]').first.click()
        page.wait_for_selector("#board.is-right")
        assert f"连对 {step + 1}" in page.locator(".streak-line").inner_text()
        page.locator("a.next").click()
    assert all(later > earlier for earlier, later in zip(ratings, ratings[1:])), ratings


def test_an_answer_that_meets_a_restarting_server_is_sent_again_and_counts_once(page):
    from puzzles.models import Attempt

    puzzle = discard_puzzle("34556p123789sZZZ")
    sent = []

    def restarting(route):
        sent.append(route.request.post_data)
        if len(sent) == 1:
            route.fulfill(status=502, body="Bad Gateway")  # the proxy, while this app server restarts
        else:
            route.continue_()

    page.route(f"**/drills/{puzzle.pk}/", lambda route: restarting(route) if route.request.method == "POST" else route.continue_())
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
    page.locator('button.tile-button[value="3p"]').click()
    page.wait_for_selector(".feedback")
    assert len(sent) == 2 and sent[0] == sent[1]  # the same answer and attempt id, sent again
    assert "discard=3p" in sent[1]
    expect(page.locator("#board.is-right")).to_have_count(1)
    assert Attempt.objects.count() == 1


def test_an_answer_after_logging_in_in_another_tab_is_kept(page, django_user_model):
    django_user_model.objects.create_user("tabby", password="tiles-and-dragons-42")
    puzzle = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
    other = page.context.new_page()
    other.goto(f"{page.base}/accounts/login/")
    other.fill('input[name="username"]', "tabby")
    other.fill('input[name="password"]', "tiles-and-dragons-42")
    other.locator('form[action="/accounts/login/"] button.primary').click()
    other.wait_for_url("**/")  # logged in: the session and the CSRF token changed
    page.locator('button.tile-button[value="3p"]').click()  # this tab's page still has the old CSRF token
    page.wait_for_selector(".feedback")
    from accounts.models import Player

    assert Player.objects.get(user__username="tabby").attempts.count() == 1


@pytest.mark.presentation
def test_no_page_breaks_the_content_security_policy(page):
    """Chromium reports every blocked inline script or style; the pages must cause none."""
    from tests.puzzles.factories import ensure_bank

    ensure_bank("bank")
    puzzle = discard_puzzle("34556p123789sZZZ")
    blocked = []
    page.on("console", lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None)
    for url in ("/", "/analyze/?hand=4556p123789sZZZ&ev=1&draws=3", "/learn/", f"/drills/{puzzle.pk}/", "/settle/", "/progress/", "/api/docs/"):
        page.goto(f"{page.base}{url}")
        expect(page.locator(".az-ev-status")).to_have_count(0)  # the EV figures the page fetched itself are in
    page.goto(f"{page.base}/drills/{puzzle.pk}/")
    page.locator('button.tile-button[value="3p"]').click()
    page.wait_for_selector(".feedback")
    page.goto(f"{page.base}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock")  # the docs page's own script ran
    assert blocked == []


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_kong_replacement_quiz_item_shows_the_winners_kong_at_390(browser, live_server, language):
    """Issue 38 item 3: every 杠上开花 item of the bank had no kong (s00021 seven pairs). Now each shows the kong its replacement tile came from."""
    from puzzles.models import Puzzle
    from tests.e2e.conftest import open_page, shot
    from tests.puzzles.factories import ensure_bank

    ensure_bank("bank")
    quiz = Puzzle.objects.filter(kind=Puzzle.QUIZ, retired=False).order_by("key")
    items = [p for p in quiz if "gang_shang_kai_hua" in p.situation]
    assert items and not quiz.filter(key__in=["s00021", "s00117"]).exists()
    with open_page(browser, live_server, 390, 844, language=language) as page:
        for item in items[:3]:
            page.goto(f"{page.base}/learn/quiz/{item.pk}/")
            kongs = page.locator(".context .melds .meld").filter(has=page.locator("img.tile:nth-child(4)"))
            assert kongs.count() >= 1, item.key  # a kong (four tiles) among the winner's melds
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, f"quiz-kong-{language}-390")

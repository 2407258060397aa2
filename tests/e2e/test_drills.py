"""In Chromium: solve a puzzle by tapping a tile, see the feedback, and find it counted on the progress page."""
from __future__ import annotations

import pytest

from tests.puzzles.factories import discard_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db(transaction=True)


def test_tap_a_tile_then_progress_counts_it(page):
    puzzle = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
    tile = page.locator('button.tile-button[value="3p"]')
    assert tile.bounding_box()["width"] >= 40  # big enough to tap on a phone
    tile.click()
    page.wait_for_selector(".feedback")
    assert page.locator("#board.is-right").count() == 1
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
    page.locator('button.choice[value="8"]').click()
    page.wait_for_selector(".feedback")
    assert page.locator("#board.is-wrong").count() == 1
    assert page.locator("table.breakdown tr.total").inner_text().replace("\t", " ").strip().endswith("×4")
    page.goto(f"{page.base}/progress/")
    assert page.get_by_test_id("attempts").inner_text() == "1"

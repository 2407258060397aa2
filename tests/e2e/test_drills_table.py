"""In Chromium at phone width: one drill of each table kind answered by a tap, the table in view, nothing scrolls sideways."""

from __future__ import annotations

import os

import pytest

from puzzles.models import Puzzle
from tests.puzzles.factories import ensure_bank, table_drill

pytestmark = pytest.mark.django_db(transaction=True)
SHOTS = os.environ.get("KWX_SHOTS")
"""A folder to save screenshots in (unset: none are taken)."""


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("kind", Puzzle.TABLE_KINDS)
def test_answer_one_table_drill_of_each_kind_at_390_px(page, kind):
    puzzle = table_drill(kind)
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated&kind={kind}")
    table = page.locator(".dr-table")
    assert table.is_visible() and page.locator(".pl-opponents .pl-seat").count() == 2
    assert str(puzzle.view.wall_left) in page.locator(".pl-wall").inner_text()
    if puzzle.view.phase == "act":  # the whole 14-tile position, the drawn tile apart
        assert page.locator(".dr-hand .dr-tile").count() + 3 * len(puzzle.view.me.melds) == 14 and page.locator(".dr-hand .dr-tile.drawn").count() == 1
    _no_sideways_scroll(page)
    button = page.locator(f'button.choice[value="{puzzle.accepted[0]}"]')
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= 390  # a thumb-sized target, on the screen
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{kind}-390.png", full_page=True)
    button.click()
    page.wait_for_selector(".feedback")
    assert page.locator("#board.is-right").count() == 1 and page.locator(".why").is_visible()
    assert page.locator(".dr-table").is_visible()  # the table stays in view with the answer
    _no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{kind}-390-answered.png", full_page=True)


def test_an_old_puzzle_shows_its_rivers_and_drawn_tile_on_desktop(desktop_page):
    page = desktop_page
    ensure_bank("bank")  # the 何切 puzzles and their tables (a live server flushed them)
    puzzle = Puzzle.objects.filter(kind=Puzzle.DISCARD).exclude(table={}).filter(table__phase="act").order_by("key").first()
    page.goto(f"{page.base}/drills/{puzzle.pk}/")
    assert page.locator(".pl-opponents .pl-seat").count() == 2 and page.locator("button.tile-button.drawn").count() == 1
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/discard-1280.png", full_page=True)
    page.locator("button.tile-button.drawn").click()
    page.wait_for_selector(".feedback")
    assert page.locator(".why").is_visible()

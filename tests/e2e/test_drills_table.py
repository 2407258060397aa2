"""In Chromium at phone width: one drill of each table kind answered by a tap, the table in view, nothing scrolls sideways."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from puzzles.models import Puzzle
from tests.e2e.conftest import shot
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
    if kind == "defence":  # the revealed hand's waits, each with its live copies (issue 38 item 6)
        waits = page.locator(".pl-opponents .pl-waits .pl-wait")
        assert waits.count() >= 1 and all(re.search(r"\d", text) for text in waits.all_inner_texts())
    _no_sideways_scroll(page)
    button = page.locator(f'button.choice[value="{puzzle.accepted[0]}"]')
    box = button.bounding_box()
    assert box["height"] >= 44 and box["x"] + box["width"] <= 390  # a thumb-sized target, on the screen
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{kind}-390.png", full_page=True)
    button.click()
    page.wait_for_selector(".feedback")
    expect(page.locator("#board.is-right")).to_have_count(1)  # its class comes at htmx's settle, after the feedback is in
    assert page.locator(".why").is_visible()
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


def test_explanations_speak_about_the_pick_and_give_reasons_at_390(page):
    """A tied best 何切 pick is told it is one of the best; a kong drill names its kong money; the figures of the
    text are the table's (issue 25 items 7, 8, 16)."""
    ensure_bank("bank", "table_bank")
    tied = next(p for p in Puzzle.objects.filter(kind=Puzzle.DISCARD, key__startswith="h").order_by("key") if len(p.accepted) > 1)
    page.goto(f"{page.base}/drills/{tied.pk}/?mode=rated")
    page.locator(f'button.tile-button[value="{tied.accepted[1]}"]').first.click()
    expect(page.locator(".why")).to_contain_text("最佳之一")
    shot(page, "drill-tied-390-zh")
    kong = table_drill("kong", 0)
    page.goto(f"{page.base}/drills/{kong.pk}/?mode=rated")
    page.locator('button[name=choice][value="pass"]').click()
    expect(page.locator(".why")).to_contain_text("暗杠每家付 2")
    why, table = page.locator(".why").inner_text(), page.locator("table.table-choices").inner_text()
    for mean, se in re.findall(r"([+−]\d+\.\d\d) ± (\d+\.\d\d)", why):
        assert mean in table and se in table
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "drill-kong-390-zh")


def test_a_pick_at_the_best_shanten_is_told_what_it_lacks_at_390(page):
    """Issue 38 item 8: "打八筒只有一向听" when both choices were 1-shanten; now it names the effective tiles each keeps."""
    ensure_bank("bank")
    drills = Puzzle.objects.filter(kind=Puzzle.DISCARD, key__startswith="h").order_by("key")
    level = next(p for p in drills if p.options[0]["shanten"] == 1 and any(r["discard"] not in p.accepted and r["shanten"] == 1 for r in p.options))
    mine = next(r for r in level.options if r["discard"] not in level.accepted and r["shanten"] == 1)
    page.goto(f"{page.base}/drills/{level.pk}/?mode=rated")
    page.locator(f'button.tile-button[value="{mine["discard"]}"]').first.click()
    expect(page.locator(".why")).to_contain_text(f"但有效牌更少：{mine['ukeire']}张，不如{level.options[0]['ukeire']}张")
    assert "只有一向听" not in page.locator(".why").inner_text() and "只剩一向听" not in page.locator(".why").inner_text()
    _no_sideways_scroll(page)
    shot(page, "drill-same-shanten-390-zh")


def test_progress_shows_each_kind_in_its_own_row_at_390(page):
    ensure_bank("table_bank")
    pong = table_drill("pong", 0)
    page.goto(f"{page.base}/drills/{pong.pk}/?mode=rated&kind=pong")
    page.locator("button[name=choice]").first.click()
    page.wait_for_selector(".feedback")
    page.goto(f"{page.base}/progress/")
    rows = page.get_by_test_id("kinds").locator("tbody tr")
    expect(rows).to_have_count(2 + len(Puzzle.TABLE_KINDS))
    expect(page.locator('tr[data-kind="pong"] td').first).to_have_text("1")
    expect(page.locator('tr[data-kind="discard"] td').first).to_have_text("0")
    nav = page.locator('.site-header a[href="/drills/"]')
    expect(nav).to_contain_text("练习")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "progress-390-zh")

"""In Chromium: sit down at /play/, play a whole hand to its settlement at phone width, open its review (with and without JavaScript).

The person's policy is the simplest a tapping thumb has: win when offered, pass on claims,
otherwise discard the tile just drawn (or the first tile that can go).
"""

from __future__ import annotations

import pytest

from play.models import Hand
from tests.e2e.axe import assert_no_violations
from tests.e2e.conftest import open_page, shot
from tests.play.helpers import run_queued_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reviews_worked_out_once"), pytest.mark.deals(43)]
"""Every hand here is dealt from seed 43 with seat 0 dealing: the thumb's 5 decisions against two strong bots, the same in every
test (with JavaScript, without it, with axe-core), so their review is worked out once a run."""


def tap_next_move(page) -> None:
    """Press one of the table's buttons, as a person would."""
    for selector in ("button.pl-win", "button.pl-pass", "button.pl-drawn", ".pl-hand button.tile-button"):
        button = page.locator(selector).first
        if button.count():
            button.click()
            return
    raise AssertionError("no button to press on the table")


def play_to_settlement(page, js: bool, name: str, axe: bool = False) -> None:
    page.goto(f"{page.base}/play/")
    if axe:
        assert_no_violations(page)
    page.locator('input[name="level"][value="strong"]').check()
    page.locator("#start-game").click()
    page.wait_for_selector("#table")
    tiles = page.locator(".pl-hand .pl-tile")
    assert tiles.count() >= 13
    box = tiles.first.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44  # big enough to tap
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # no sideways scroll
    shot(page, f"{name}-table")
    if axe:
        assert_no_violations(page)
    for _ in range(60):
        if page.locator("#next-hand").count():
            break
        seen = page.locator('input[name="seen"]').get_attribute("value")
        tap_next_move(page)
        if js:  # htmx swaps the table: wait for the new one
            page.wait_for_function("seen => { const s = document.querySelector('input[name=seen]'); return !s || s.value !== seen }", arg=seen)
        else:
            page.wait_for_load_state()
    page.locator(".pl-settlement").wait_for()
    shot(page, f"{name}-settlement")
    if axe:
        assert_no_violations(page)
    hand = Hand.objects.order_by("-id").first()
    assert hand.over and sum(hand.nets) == 0
    run_queued_tasks()  # the worker reviews the hand (tests/e2e/test_review_page.py follows the page while it does)
    page.locator("#review-link").click()
    page.locator(".pl-declist").wait_for()
    page.locator("#step-first").click()
    page.wait_for_function("() => location.search.includes('step=0')")
    page.locator("#step-next-decision").click()
    page.wait_for_selector(".pl-decision")
    shot(page, f"{name}-review")
    if axe:
        assert_no_violations(page)
    assert "step=" in page.url


def test_a_whole_hand_at_phone_width_with_htmx_then_its_review(page):
    """Under the site's Content-Security-Policy, as a visitor's browser runs it."""
    play_to_settlement(page, js=True, name="phone")


def test_axe_finds_nothing_on_the_table_the_settlement_and_the_review(browser, live_server):
    with open_page(browser, live_server, 390, 844, bypass_csp=True) as page:  # axe-core is injected by the test
        play_to_settlement(page, js=True, name="axe", axe=True)


def test_a_whole_hand_without_javascript(browser, live_server):
    with open_page(browser, live_server, 390, 844, javascript=False) as page:
        play_to_settlement(page, js=False, name="nojs")


def test_the_table_at_desktop_width_with_hints(browser, live_server):
    with open_page(browser, live_server, 1280, 900, bypass_csp=True) as page:
        page.goto(f"{page.base}/play/")
        page.locator("#start-game").click()
        page.wait_for_selector("#table")
        page.locator("#hint-switch").click()
        page.wait_for_load_state()
        shot(page, "desktop-table")
        assert page.locator(".pl-opponents .pl-seat").count() == 2
        if page.locator(".pl-hint").count():  # the person's turn: the analyzer's discard table
            assert page.locator(".pl-hint table.discards tbody tr").count() >= 1
        assert_no_violations(page)

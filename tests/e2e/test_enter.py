"""Entering a real hand from your seat at 390 px, by keyboard and by tap, then opening its review; and the page at 1280 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from play.models import Hand
from tests.e2e.conftest import htmx_settled, open_page, shot
from tests.play.helpers import run_queued_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reviews_worked_out_once")]
HAND = "1123p456p789p55pZ"
MOVES = "+5p -Z R-F L-9p +3s -3s R-B L-B +2s -2s R-F L-9s +8p -8p"
SHORT = "+5p -Z R-F L-1p p -2p R-B L-B +3s -3s"
"""The short hand both the keyboard and the tap enter (a 碰 of 上家's 1p among them): one record, so its review is worked out once."""


def open_review(page) -> None:
    """Save the entry, let the worker review it, and see the review's decisions."""
    page.locator("#save").click()
    expect(page).to_have_url(re.compile(r"/play/\d+/review/$"))
    assert page.url == page.base + f"/play/{Hand.objects.get().pk}/review/"
    run_queued_tasks()
    page.reload()
    expect(page.locator("#sum-h")).to_be_visible()
    expect(page.locator(".pl-summary")).to_contain_text("4")  # decisions counted (one a turn of yours, 4 turns)


def test_a_short_hand_entered_by_keyboard_at_390_px(page):
    page.goto(page.base + "/play/enter/")
    page.locator("#hand").fill(HAND)
    moves = page.locator("#moves")
    moves.click()
    page.keyboard.type("+5p -Z R-F R-9p")  # 下家 twice: checked as typed
    expect(page.locator("#entry-fault")).to_contain_text("R-9p")
    for _ in range(4):
        page.keyboard.press("Backspace")
    page.keyboard.type("L-1p p -2p R-B L-B\n+3s -3s")
    assert " ".join(moves.input_value().split()) == SHORT
    expect(page.locator("#entry-next")).to_contain_text("你")
    expect(page.locator("#entry-fault")).to_be_empty()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "enter-keys-390-zh")
    open_review(page)
    shot(page, "enter-review-390-zh")


def test_a_short_hand_entered_by_tap_at_390_px(page):
    page.goto(page.base + "/play/enter/")
    for tile in ("1p", "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "5p", "5p", "Z"):
        count = page.locator("#hand").input_value()
        page.locator(f"#tap-{tile}").click()
        expect(page.locator("#hand")).not_to_have_value(count)
    for tile in ("5p", "Z", "F", "1p"):  # your draw, your discard, 下家's discard, 上家's discard
        before = page.locator("#moves").input_value()
        page.locator(f"#tap-{tile}").click()
        expect(page.locator("#moves")).not_to_have_value(before)
    page.locator("#claim-ipong").click()  # you pong 上家's 1p
    expect(page.locator("#moves")).to_have_value("+5p -Z R-F L-1p p")
    page.locator("#tap-2p").click()
    expect(page.locator("#moves")).to_have_value("+5p -Z R-F L-1p p -2p")
    for tile in ("B", "B", "3s", "3s"):
        before = page.locator("#moves").input_value()
        page.locator(f"#tap-{tile}").click()
        expect(page.locator("#moves")).not_to_have_value(before)
    expect(page.locator("#entry-fault")).to_be_empty()
    expect(page.locator("#moves")).to_have_value(SHORT)
    shot(page, "enter-tap-390-zh")
    open_review(page)


def test_without_javascript_the_whole_entry_posts_and_shows_the_first_illegal_move(browser, live_server):
    with open_page(browser, live_server, 390, 844, javascript=False, language="en") as page:
        page.goto(page.base + "/play/enter/")
        page.locator("#hand").fill(HAND)
        page.locator("#moves").fill("+5p -Z R-1p L-1p +1p -1p")
        page.locator("#check").click()
        expect(page.locator("#entry-fault")).to_have_text("Move 5 (+1p): A fifth 1p: there are only four of each kind.")
        expect(page.locator("#save")).to_be_disabled()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_fits_its_width(browser, live_server, width, language):
    with open_page(browser, live_server, width, 900, language=language) as page:
        page.goto(page.base + "/play/enter/")
        page.locator("#hand").fill(HAND)
        page.locator("#moves").fill(MOVES + " R-4s!234s567s789s99pFF")
        htmx_settled(page)  # the check the hand's change sent is swapped in: a click during that swap lands on the old button
        page.locator("#check").click()
        expect(page.locator(".pl-opponents .badge").first).to_be_visible()  # 下家's 亮倒 drawn with its tiles
        shot(page, f"enter-{width}-{language}")
        wide = page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id)")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, wide

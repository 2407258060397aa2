"""Phone first, in Chromium at 360 and 390 px (every page's tap targets, header and width are
tests/e2e/test_pages.py): the analyzer's answer is in the first screen, the palette stays under
the hand, the phone menu, and the settlement bar leaves the footer visible."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_analyzer_answer_is_in_the_first_screen(page):
    page.goto(page.base + "/?hand=4556p123s789sZZZ")
    verdict = page.locator("#results .az-verdict").bounding_box()
    wait = page.locator(".az-wait").first.bounding_box()
    palette = page.locator("#palette").bounding_box()
    assert verdict["y"] + verdict["height"] < 844 and wait["y"] < 844  # 390 × 844: no scrolling for the answer
    assert verdict["y"] < palette["y"]  # the answer above the palette
    expect(page.locator(".az-money").first).to_be_in_viewport()


def test_while_building_the_palette_stays_under_the_hand(page):
    page.goto(page.base + "/?hand=4556p")
    assert page.locator("#palette").bounding_box()["y"] < page.locator("#results").bounding_box()["y"]


def test_the_phone_menu_holds_progress_account_and_language(page):
    page.goto(page.base + "/")
    expect(page.locator(".account.wide-only")).to_be_hidden()
    page.locator(".menu summary").click()
    page.locator(".menu-panel").get_by_role("link", name="进度").click()
    expect(page).to_have_url(page.base + "/progress/")
    page.locator(".menu summary").click()
    page.locator(".menu-panel").get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_the_settlement_bar_does_not_cover_the_footer(page):
    page.goto(page.base + "/settle/")
    page.check("#id_result_1")
    page.select_option("#id_winner", "0")
    page.fill("#id_hand", "4556p123s789sZZZ")
    page.fill("#id_tile", "5p")
    bar = page.locator(".st-netbar")
    expect(bar).to_be_visible()
    link = page.locator(".site-footer a").last
    link.focus()
    # The focused link is scrolled into view above the bar, not under it. Both are looked up afresh on every check: a late
    # answer to an earlier input swaps the result, bar included, and a handle to the old bar would measure a detached element.
    page.wait_for_function(
        "() => { const link = [...document.querySelectorAll('.site-footer a')].pop(), bar = document.querySelector('.st-netbar');"
        " return link === document.activeElement && bar !== null && link.getBoundingClientRect().bottom <= bar.getBoundingClientRect().top; }"
    )
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    # Footer and bar measured in one step, for the same reason: between two lookups a late swap can detach the bar.
    footer_bottom, bar_top = page.evaluate("() => [document.querySelector('.site-footer').getBoundingClientRect().bottom, document.querySelector('.st-netbar').getBoundingClientRect().top]")
    assert footer_bottom <= bar_top + 1


def test_the_learn_links_are_one_row_showing_the_current_page(browser, live_server):
    with open_page(browser, live_server, 360, 800) as page:
        page.goto(page.base + "/learn/glossary/")
        nav = page.locator(".learn-nav").bounding_box()
        assert nav["height"] < 60  # one row that scrolls sideways, not four rows before the page
        current = page.locator(".learn-nav [aria-current]").bounding_box()
        assert nav["x"] <= current["x"] and current["x"] + current["width"] <= nav["x"] + nav["width"] + 1

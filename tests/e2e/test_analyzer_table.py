"""The analyzer with a table in Chromium: a position entered by tapping at 390 px, the estimate
fetched by htmx, nothing scrolling sideways; the same link without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page, tap_at_once

pytestmark = pytest.mark.django_db(transaction=True)
HAND = "5566p123456789s"
LINK = f"/analyze/?hand={HAND}&r0=ZB&r1=F9p1s5p&r2=BF&offer=5p&advice=1"


def tap(page, target: str, tile: str) -> None:
    page.locator(f"label:has(#tto-{target})").click()
    page.locator(f"#tadd-{tile}").click()


def test_enter_a_position_by_tapping_and_see_the_estimate(page):
    page.goto(page.base + f"/analyze/?hand={HAND}")
    page.locator("#table-input summary").click()
    for target, tiles in (("r1", ["F", "9p", "1s"]), ("r2", ["B", "F"]), ("r0", ["Z", "B"]), ("offer", ["5p"])):
        for tile in tiles:
            with page.expect_response(lambda r: "tadd=" in r.url):
                tap(page, target, tile)
    expect(page.locator("#table-input .az-river").first.locator(".tile-button")).to_have_count(4)  # 下家: F 9p 1s 5p
    assert re.search(r"r1=F9p1s5p", page.url) and "offer=5p" in page.url
    for button in page.locator("#table-palette .tile-button").all()[:3]:
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44  # tap targets on a phone
    with page.expect_response(lambda r: r.request.headers.get("hx-trigger") == "advice-load") as estimate:
        page.locator("#advice-button").click()
    assert estimate.value.ok
    rows = page.locator(".az-advice-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first.locator(".az-best-badge, .az-unclear-badge")).to_be_visible()  # best only when clearly ahead
    expect(rows.first).to_contain_text("±")
    expect(page.locator("#advice-clear")).to_be_visible()
    assert page.url.endswith(LINK.replace("&advice=1", "&tto=offer&advice=1")), page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone
    page.locator("#advice").screenshot(path="/tmp/tablepos-390-advice.png")
    page.locator("#table-input").screenshot(path="/tmp/tablepos-390-table.png")


def test_the_same_link_works_without_javascript(browser, live_server):
    with open_page(browser, live_server, 390, 844, javascript=False) as page:  # the suite's patience, as every page
        page.goto(page.base + LINK)
        rows = page.locator(".az-advice-table tbody tr")
        expect(rows).to_have_count(2)
        expect(page.locator(".az-advice-table")).to_contain_text("碰")
        expect(page.locator("#table-input")).to_have_attribute("open", "")  # a link with a table opens it
        page.locator("label:has(#tto-r2)").click()
        page.locator("#tadd-9s").click()  # a tap is the form's GET: the server redirects to the new link
        expect(page).to_have_url(re.compile(r"r2=BF9s"))
        expect(page.locator(".az-advice-table tbody tr")).to_have_count(2)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_estimate_at_desktop_width(desktop_page):
    desktop_page.goto(desktop_page.base + LINK)
    expect(desktop_page.locator(".az-advice-table tbody tr")).to_have_count(2)
    assert desktop_page.evaluate("document.documentElement.scrollWidth") <= 1280
    desktop_page.screenshot(path="/tmp/tablepos-1280.png", full_page=True)
    desktop_page.locator("#advice").screenshot(path="/tmp/tablepos-1280-advice.png")


def test_a_table_tapped_in_at_once_keeps_every_river_in_order(page):
    page.goto(page.base + f"/analyze/?hand={HAND}")
    page.locator("#table-input summary").click()
    taps = [id for target, tiles in (("r1", ["F", "9p", "1s", "5p"]), ("r2", ["B", "F"]), ("r0", ["Z", "B", "9p"])) for id in [f"tto-{target}", *(f"tadd-{t}" for t in tiles)]]
    assert tap_at_once(page, taps)["shown"]  # all 12 before the first answer: the page says it is working
    expect(page).to_have_url(re.compile(r"r0=ZB9p&r1=F9p1s5p&r2=BF"))
    expect(page.locator("#az-busy")).to_be_hidden()
    expect(page.locator("#table-input .az-river").first.locator(".tile-button")).to_have_count(4)  # 下家: F 9p 1s 5p


def test_too_few_worlds_rank_nothing_and_compute_longer_plays_more(page, monkeypatch):
    from analysis import table_advice
    from tests.web.test_analyzer_table import DEFEND

    monkeypatch.setattr(table_advice, "WORK_BUDGET", 800)  # fewer worlds than a clear call needs: too close, no row ranked
    page.goto(page.base + DEFEND + "&advice=1")
    top = page.locator(".az-advice-table tbody tr").first
    expect(page.locator(".az-advice-table .az-best-badge, .az-advice-table .az-unclear-badge, .az-advice-table .az-level-badge")).to_have_count(0)
    expect(page.locator("#advice-clear")).to_contain_text("太接近")
    rollouts = int(top.locator("td").last.inner_text())
    page.locator("#advice-longer").click()
    expect(page).to_have_url(re.compile(r"longer=1"))  # four times the work: enough worlds to rank, still too few to tell the top rows apart
    expect(page.locator(".az-advice-table tbody tr").first.locator(".az-unclear-badge, .az-best-badge")).to_be_visible()
    expect(page.locator("#advice-longer-done, .az-advice-table .az-best-badge").first).to_be_visible()
    assert int(page.locator(".az-advice-table tbody tr").first.locator("td").last.inner_text()) > rollouts
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

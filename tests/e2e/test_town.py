"""The town picker in Chromium: a town chosen in one tap (htmx, no reload), the header and a fresh analyzer follow it, a
switch shows（改）; the same without JavaScript as a plain form; the analyzer's own picker changes only its link."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled, open_page

pytestmark = pytest.mark.django_db(transaction=True)


def test_pick_a_town_in_one_tap_and_the_analyzer_follows(page):
    page.goto(page.base + "/town/")
    with page.expect_response(lambda r: r.url.endswith("/town/") and r.request.method == "POST"):
        page.select_option("#rules", "xiaogan")
    expect(page.locator(".town-status")).to_contain_text("孝感")
    expect(page.locator("#option-shu_kan")).to_be_checked()  # 孝感's room switches came with it
    htmx_settled(page)  # the swapped-in form listens for changes once it has settled (a change before that sent nothing)
    with page.expect_response(lambda r: r.url.endswith("/town/") and r.request.method == "POST"):
        page.select_option("#option-cap", "8")
    expect(page.locator("#town-label")).to_have_text("孝感（改）")
    page.goto(page.base + "/")
    expect(page.locator(".account .town-link")).to_have_text("孝感（改）")
    expect(page.locator("#rules")).to_have_value("xiaogan")
    page.fill("#hand-text", "4556p123789sZZZ")
    expect(page).to_have_url(re.compile(r"hand=4556p123789sZZZ&rules=xiaogan&cap=8$"))  # the link keeps the town and its switch
    wait = page.locator('.az-wait[data-tile="5p"]')
    expect(wait.locator(".az-extras")).to_contain_text("坎 2")
    page.select_option("#rules", "shiyan_town")  # the analyzer's own picker: this link only
    expect(page).to_have_url(re.compile(r"rules=shiyan_town$"))
    expect(page.locator("#town-save-button")).to_contain_text("十堰")
    expect(page.locator(".account .town-link")).to_have_text("孝感（改）")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_picker_works_without_javascript(browser, live_server):
    with open_page(browser, live_server, 390, 844, javascript=False) as page:
        page.goto(page.base + "/town/?next=/learn/")
        page.select_option("#rules", "yicheng")
        page.locator("#town-use").click()
        expect(page).to_have_url(re.compile(r"/learn/$"))
        expect(page.locator(".menu-panel .town-link")).to_have_text("宜城")
        page.goto(page.base + "/?hand=111p234p567p9p888s")  # a link to a hand without rules: the standard rules
        expect(page.locator("#rules")).to_have_value("standard")
        page.locator("#town-save-button").click()
        expect(page).to_have_url(re.compile(r"hand=1112345679p888s$"))
        expect(page.locator(".menu-panel .town-link")).to_have_text("通用")

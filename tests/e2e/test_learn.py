"""Learn pages in Chromium: a fan example opens in the analyzer; one round of the memorise mode; the towns' table scrolls inside itself; a town example opens in the calculator."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from learn.content import couplets
from learn.towns import compared_presets, worked_examples
from settlement.forms import calculator_fields
from tests.e2e.conftest import open_page, shot


def test_fans_page_fits_a_phone_and_an_example_opens_in_the_analyzer(page):
    page.goto(page.base + "/learn/fans/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    link = page.locator("#ka_wu_xing a.analyze").first
    link.click()
    page.wait_for_url("**/analyze/?hand=4556p123789sZZZ*")
    assert page.locator("h1").count() == 1
    assert "5p.svg" in page.content()


def test_memorise_one_round_with_htmx(page):
    first, second = couplets()[0], couplets()[1]
    page.goto(page.base + "/learn/koujue/memorise/")
    card = page.locator("#memorise-card")
    assert first.first in card.inner_text() and first.second not in card.inner_text()
    card.get_by_role("button", name="显示下句").click()
    page.wait_for_selector(f"text={first.second}")
    assert "reveal=1" in page.url
    page.locator("button.grade-good").click()
    page.wait_for_selector(f"text={second.first}")
    assert page.url.endswith("/learn/koujue/memorise/")  # the next due or new couplet, scheduled for this visitor
    assert first.second not in page.locator("#memorise-card").inner_text()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 900)])
def test_towns_table_scrolls_inside_itself_under_the_option_names(browser, live_server, language, width, height):
    with open_page(browser, live_server, width, height, language=language) as page:
        page.goto(page.base + "/learn/towns/")
        shot(page, f"towns-{width}-{language}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page itself never scrolls sideways
        region = page.locator(".towns-scroll")
        columns = page.locator("table.towns thead th.town")
        expect(columns).to_have_count(len(compared_presets()))
        name = page.locator("#opt-cap th.opt")
        before = name.bounding_box()
        region.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
        after = name.bounding_box()
        assert after["x"] == pytest.approx(before["x"], abs=1)  # the option column stays where it was
        last = columns.last.bounding_box()
        assert last["x"] + last["width"] <= width + 1  # scrolled to the end: the last town is in view
        page.goto(page.base + "/learn/towns/xiaogan/")
        shot(page, f"town-xiaogan-{width}-{language}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_town_example_opens_in_the_calculator_and_settles_to_its_nets(page):
    example = next(e for e in worked_examples() if e.id == "W5")
    page.goto(page.base + f"/learn/towns/{example.rules}/#W5")
    page.locator("#W5").get_by_role("link", name=re.compile("计算器|结算器")).click()
    page.wait_for_url(re.compile(r"/settle/\?.*rules=xiaogan"))
    expect(page.locator("#id_hand")).to_have_value(calculator_fields(example.request)["hand"])
    nets = page.locator(".st-nets .st-net strong")  # the link opens the hand settled
    expect(nets).to_have_count(3)
    assert [int(n) for n in nets.all_inner_texts()] == list(example.nets)

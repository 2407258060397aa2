"""The analyzer's EV columns and danger marks in Chromium: the EV button loads the figures in a
second htmx request behind a progress line; a revealed 亮倒 hand marks the tile that deals in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page, shot

HAND = "34556p123789sZZZ"
REVEALED = "46p456s789sFFF11s"  # waits on 5p


def test_ev_button_then_revealed_hand(page):
    page.goto(page.base + f"/analyze/?hand={HAND}")
    expect(page.locator(".discards tbody tr")).to_have_count(11)
    page.locator("#draws").fill("3")

    def ev_request(response):
        return response.request.headers.get("hx-trigger") == "ev-load"

    with page.expect_response(lambda r: "ev=1" in r.url and r.request.headers.get("hx-trigger") == "app") as first, page.expect_response(ev_request) as second:
        page.locator("#ev-button").click()
    placeholder = first.value.text()
    assert 'id="ev-load"' in placeholder and "计算中" in placeholder and "az-spinner" in placeholder
    assert second.value.ok
    win = page.locator(".discards tbody tr").first.locator(".win-p")
    expect(win).to_have_text(re.compile(r"^\d{1,3}\.\d%$"))
    assert 0 < float(win.inner_text().rstrip("%")) <= 100
    expect(page.locator("#ev-load")).to_have_count(0)
    assert "ev=1" in page.url and "draws=3" in page.url
    expect(page.locator(".az-method")).to_contain_text("精确")

    page.locator("#revealed-picker summary").click()
    page.locator("#rev1-text").fill(REVEALED)
    page.locator("#rev1-text").press("Enter")
    expect(page.locator("#hand-view .tile-button.az-danger")).to_have_count(2)
    expect(page.locator("#hand-view .az-danger .az-danger-mark").first).to_have_text("危险")
    last = page.locator(".discards tbody tr").last
    expect(last).to_have_attribute("data-discard", "5p")
    expect(last).to_have_class(re.compile("deals-in"))
    expect(last.locator(".deals-in-badge")).to_be_visible()
    expect(page.locator(".discards tbody tr").first.locator(".win-p")).to_be_visible()  # EV still shown
    assert "rev1=46p11456789sFFF" in page.url and "ev=1" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling on a phone


def test_typing_0_or_99_draws_says_what_is_wrong(page):
    page.goto(page.base + f"/analyze/?hand={HAND}")
    expect(page.locator(".discards tbody tr")).to_have_count(11)
    for draws in ("0", "99"):
        page.locator("#draws").fill(draws)
        page.locator("#ev-button").click()
        expect(page.locator("#draws-error")).to_have_text(re.compile(r"^剩余摸牌须是 1 到 30 的整数"))
        expect(page.locator(".discards tbody tr")).to_have_count(11)  # the plain table stays
        expect(page.locator("#draws")).to_have_value(draws)


CLIPPED = """() => [...document.querySelectorAll('#results .table-scroll')].flatMap(box => {
  const edge = box.getBoundingClientRect().right + 0.5;
  const out = box.scrollWidth > box.clientWidth ? [`box ${box.scrollWidth} > ${box.clientWidth}`] : [];
  return out.concat([...box.querySelectorAll('th, td')].filter(c => c.getBoundingClientRect().right > edge).map(c => c.innerText));
})"""


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_ev_table_is_whole_in_its_column(browser, live_server, width, language):
    """Issue 38 item 4: at 1280 px the EV table (573 px) was clipped inside its 544 px box ("Expected sco", values "1.")."""
    with open_page(browser, live_server, width, 900, language=language) as page:
        page.goto(page.base + f"/?hand={HAND}&ev=1&draws=3")
        expect(page.locator(".discards-ev tbody tr .score strong").first).to_have_text(re.compile(r"^\d+\.\d\d$"))
        expect(page.locator("#ev-load")).to_have_count(0)
        assert page.evaluate(CLIPPED) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"analyzer-ev-{language}-{width}")

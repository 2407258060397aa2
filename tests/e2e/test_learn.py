"""Learn pages in Chromium: a fan example opens in the analyzer; one round of the memorise mode."""

from __future__ import annotations

from learn.content import couplets


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

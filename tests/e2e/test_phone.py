"""Phone first, in Chromium at 360 and 390 px: the header is one row, nothing scrolls sideways,
every control is a 44 px tap target, the analyzer's answer is in the first screen, and the
settlement bar leaves the footer visible."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import open_page
from tests.e2e.pages import all_pages, switch_to_english

pytestmark = pytest.mark.django_db(transaction=True)

SMALL_TARGETS = """() => {
  const out = [];
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  for (const el of document.querySelectorAll(controls)) {
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;          // not shown (closed <details>, other width)
    if (getComputedStyle(el).visibility === "hidden" || el.classList.contains("skip")) continue;
    const label = el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`));
    if ((el.type === "checkbox" || el.type === "radio") && label) box = label.getBoundingClientRect();
    if (box.width >= 43.5 && box.height >= 43.5) continue;
    // WCAG 2.5.8's inline exception: a link inside a sentence of other text
    if (el.tagName === "A" && getComputedStyle(el).display === "inline") {
      const around = Array.from(el.parentElement.childNodes).filter(n => n !== el).map(n => n.textContent).join("").trim();
      if (around) continue;
    }
    out.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${(el.innerText || el.value || "").trim().slice(0, 24)}" ${Math.round(box.width)}×${Math.round(box.height)}`);
  }
  return out;
}"""


def check_page(page, url: str, width: int) -> list[str]:
    page.goto(page.base + url)
    problems = [f"{url}: {target}" for target in page.evaluate(SMALL_TARGETS)]
    header = page.locator(".site-header").bounding_box()
    if header["height"] > 56:
        problems.append(f"{url}: header {header['height']:.0f} px high (more than one row)")
    if page.evaluate("(n => n.scrollWidth > n.clientWidth + 1)(document.querySelector('.nav'))"):
        problems.append(f"{url}: the main links do not all fit the header")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"{url}: {scroll} px wide, scrolls sideways")
    return problems


@pytest.mark.presentation
@pytest.mark.parametrize("width", [360, 390])
def test_every_page_fits_a_phone_in_both_languages(browser, live_server, width):
    with open_page(browser, live_server, width, 800) as page:
        urls = all_pages(page)
        problems = [p for url in urls for p in check_page(page, url, width)]
        switch_to_english(page)
        problems += [f"en {p}" for url in urls for p in check_page(page, url, width)]
    assert not problems, "\n".join(problems)


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
    page.wait_for_timeout(200)
    assert link.bounding_box()["y"] + link.bounding_box()["height"] <= bar.bounding_box()["y"]
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    footer = page.locator(".site-footer").bounding_box()
    assert footer["y"] + footer["height"] <= bar.bounding_box()["y"] + 1


def test_the_learn_links_are_one_row_showing_the_current_page(browser, live_server):
    with open_page(browser, live_server, 360, 800) as page:
        page.goto(page.base + "/learn/glossary/")
        nav = page.locator(".learn-nav").bounding_box()
        assert nav["height"] < 60  # one row that scrolls sideways, not four rows before the page
        current = page.locator(".learn-nav [aria-current]").bounding_box()
        assert nav["x"] <= current["x"] and current["x"] + current["width"] <= nav["x"] + nav["width"] + 1

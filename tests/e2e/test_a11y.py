"""Accessibility in Chromium (axe-core over every page in both languages is tests/e2e/test_pages.py): axe
after answers, and the things axe cannot see: the focus ring's contrast, the memorise page's hidden line, sign-up's
help texts linked to their fields, the drill verdict announced, the EV table at 320 px."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.axe import assert_no_violations, violations
from tests.e2e.conftest import open_page
from tests.e2e.pages import switch_to_english
from tests.puzzles.factories import discard_puzzle, ev_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db(transaction=True)

CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let node = el.parentElement, bg = [255, 255, 255];
  while (node) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) { bg = c.slice(0, 3); break; }
    node = node.parentElement;
  }
  const style = getComputedStyle(el);
  const target = el.matches("input[type=radio], input[type=checkbox]") ? el.nextElementSibling || el : el;
  const ring = getComputedStyle(target).outlineStyle === "none" ? null : rgb(getComputedStyle(target).outlineColor);
  if (!ring || getComputedStyle(target).outlineWidth === "0px") return 0;
  const [a, b] = [lum(ring.slice(0, 3)), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.fixture
def axe_page(browser, live_server):
    """A phone-sized page that takes the test's axe-core script despite the site's CSP."""
    with open_page(browser, live_server, 390, 844, bypass_csp=True) as page:
        yield page


def test_axe_after_answering_a_drill_and_a_quiz(axe_page):
    page = axe_page
    puzzle = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
    page.locator('button.tile-button[value="3p"]').click()
    page.wait_for_selector(".feedback")
    assert_no_violations(page)
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    page.goto(f"{page.base}/learn/quiz/{quiz.pk}/")
    page.locator("button.choice").first.click()
    page.wait_for_selector(".feedback")
    assert_no_violations(page)


def test_the_drill_verdict_is_announced(page):
    puzzle = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
    live = page.locator("#verdict-live")
    expect(live).to_have_attribute("role", "status")
    expect(live).to_have_text("")
    page.locator('button.tile-button[value="3p"]').click()
    expect(live).to_contain_text("✓")  # the same node, now holding the verdict: screen readers read it out
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    page.goto(f"{page.base}/learn/quiz/{quiz.pk}/")
    wrong = [b for b in page.locator("button.choice").all() if b.get_attribute("value") not in ("2",)][0]
    wrong.click()
    expect(page.locator("#verdict-live")).to_contain_text("✗")


@pytest.mark.parametrize(
    "url, selector",
    [
        ("/", "#add-1p"),
        ("/", "#to-hand"),
        ("/", ".nav a"),
        ("/?hand=4556p123s789sZZZ", "#situation-liang_dao"),
        ("/learn/", ".learn-nav a"),
        ("/settle/", "#id_name_0"),
        ("/learn/koujue/", "main a"),
        ("/learn/towns/", ".towns-scroll"),
    ],
)
def test_the_focus_ring_has_3_to_1_contrast(page, url, selector):
    page.goto(page.base + url)
    page.locator(selector).first.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # a keyboard focus, so :focus-visible applies
    ratio = page.locator(selector).first.evaluate(CONTRAST)
    assert ratio >= 3, ratio


def test_the_focus_ring_on_the_drill_felt(page):
    puzzle = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{puzzle.pk}/")
    tile = page.locator("fieldset.hand button.tile-button").nth(1)
    page.locator("fieldset.hand button.tile-button").first.focus()
    page.keyboard.press("Tab")
    assert tile.evaluate(CONTRAST) >= 3


def test_the_hidden_line_is_readable_and_not_read_out(axe_page):
    page = axe_page
    page.goto(page.base + "/learn/koujue/memorise/")
    snapshot = page.locator(".verse").aria_snapshot()
    assert "□" not in snapshot
    hidden = page.locator(".hidden-line")
    assert hidden.evaluate("el => getComputedStyle(el).color") != "rgb(185, 195, 189)"
    assert_no_violations(page)


def test_sign_up_help_texts_belong_to_their_fields(page):
    page.goto(page.base + "/accounts/signup/")
    password = page.locator("#id_password1")
    ids = password.get_attribute("aria-describedby").split()
    assert ids and all(page.locator(f"#{i}").count() == 1 for i in ids)
    assert "8" in page.locator(f"#{ids[0]}").inner_text()  # Django's minimum length, now announced with the field


def test_the_ev_table_does_not_scroll_sideways_at_320_px_in_english(browser, live_server):
    with open_page(browser, live_server, 320, 700) as page:
        switch_to_english(page)
        page.goto(page.base + "/?hand=4556p123s789sZZZ8p&ev=1&draws=3")
        expect(page.locator(".win-p").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_an_ev_drills_two_tables_fit_a_small_phone_and_pass_axe(browser, live_server):
    puzzle = ev_puzzle("34556p123789sZZZ", 3)  # EV best Z, plain best 3p
    with open_page(browser, live_server, 360, 800, bypass_csp=True) as page:
        page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=theme&theme=ev")
        page.locator('button.tile-button[value="3p"]').click()
        page.wait_for_selector(".feedback")
        ev_rows = page.locator("table.ev-ranking tbody tr")
        expect(ev_rows).to_have_count(len(puzzle.ev["options"]))
        expect(ev_rows.first.locator(".best-badge")).to_be_visible()
        expect(page.locator('table.ev-ranking tr[data-discard="3p"] .mine-badge')).to_be_visible()
        expect(page.locator('table.plain-ranking tr[data-discard="3p"] .plain-best-badge')).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360  # nothing scrolls sideways
        assert_no_violations(page)


def test_axe_names_each_violation_its_rule_and_where(browser, live_server):
    """The helper every page check goes through reports what axe-core finds: a planted image without a text alternative and an
    unnamed button are each named by rule, impact and selector (and a clean page reports nothing)."""
    with open_page(browser, live_server, 390, 844) as page:
        page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>t</h1><p>clean</p></main></body></html>')
        assert violations(page) == []
        page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>t</h1><img id="no-alt" src="data:,"><button id="no-name"></button></main></body></html>')
        found = {v["id"]: v for v in violations(page)}
        assert found["image-alt"]["nodes"] == ["#no-alt"] and found["image-alt"]["impact"] == "critical"
        assert found["button-name"]["nodes"] == ["#no-name"] and found["button-name"]["help"]

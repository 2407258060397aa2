"""In Chromium: an analyzer session and a drill session at 390 px log no console error at all (issue 25 item 19)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_analyzer_table import LINK, tap
from tests.puzzles.factories import discard_puzzle, ensure_bank, table_drill

pytestmark = pytest.mark.django_db(transaction=True)


def _collect(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda message: errors.append(f"{message.type}: {message.text}") if message.type in ("error", "warning") else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    return errors


def test_an_analyzer_session_logs_no_console_error(page):
    errors = _collect(page)
    page.goto(page.base + "/")
    for tile in ("1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "1s", "2s", "3s", "4s", "5s"):
        with page.expect_response(lambda r: "add=" in r.url):
            page.locator(f"#add-{tile}").click()
    expect(page.locator(".az-count strong")).to_have_text("14")
    with page.expect_response(lambda r: "ev=1" in r.url):
        page.locator("#ev-button").click()
    expect(page.locator(".az-ev-status")).to_have_count(0)  # the EV figures are in
    page.goto(page.base + LINK.replace("&advice=1", ""))
    with page.expect_response(lambda r: "tadd=" in r.url):
        tap(page, "r2", "9s")
    with page.expect_response(lambda r: r.request.headers.get("hx-trigger") == "advice-load"):
        page.locator("#advice-button").click()
    expect(page.locator(".az-advice-table tbody tr")).to_have_count(2)
    assert errors == []


def test_a_drill_session_logs_no_console_error(page):
    errors = _collect(page)
    first, second = discard_puzzle("34556p123789sZZZ"), discard_puzzle("11234p456s789sFFB")
    for puzzle in (first, second):
        page.goto(f"{page.base}/drills/{puzzle.pk}/?mode=rated")
        page.locator("#board button.tile-button").first.click()
        page.wait_for_selector(".feedback")
    ensure_bank("table_bank")
    page.goto(f"{page.base}/drills/{table_drill('pong').pk}/?mode=rated")
    page.locator("button[name=choice]").first.click()
    page.wait_for_selector(".feedback")
    page.locator("a.next").click()
    page.wait_for_load_state()
    page.goto(f"{page.base}/progress/")
    assert errors == []


@pytest.mark.deals(43)
def test_a_hand_at_the_play_table_logs_no_console_error(page):
    """Issue 38 item 8 reported "Applying inline style violates … style-src 'self'" on every htmx swap of the play table; a whole
    hand by keyboard with the hint on and a switch saved (each an htmx swap of #table) logs no console error or warning."""
    from tests.e2e.test_play_table import play_by_keyboard, sit_down

    errors = _collect(page)
    sit_down(page)
    page.wait_for_load_state("networkidle")  # the bots' first turns are in: the switch is not swapped away under the click
    with page.expect_response(lambda r: "/auto/" in r.url):
        page.locator("#auto-pass").check()
    page.locator("#hint-switch").click()  # a page load: focus back on the hand
    page.locator('#hint-switch[aria-checked="true"]').wait_for()
    page.locator(".pl-hint, .pl-actions .pl-pass").first.wait_for()  # the hint on the seat's own turn; none on a claim
    play_by_keyboard(page)
    page.locator("#next-hand").click()
    page.locator(".pl-hand-form").wait_for()
    assert errors == []


def test_an_htmx_swap_never_writes_an_inline_style(page):
    """Issue 38 item 8: htmx's settle step copies a swapped element's old ``style`` attribute onto the new one with setAttribute,
    which the CSP (style-src 'self') refuses — whenever anything (a browser's translation, an extension) styled the element
    through the CSSOM. The site settles no ``style`` (htmx-config in base.html), so such a swap logs nothing."""
    from tests.e2e.test_play_table import sit_down

    errors = _collect(page)
    sit_down(page)
    page.wait_for_load_state("networkidle")  # the bots' first turns are in: the switch is not swapped away under the click
    page.evaluate("document.getElementById('table').style.outline = '1px solid transparent'")  # what a browser's own script may do
    with page.expect_response(lambda r: "/auto/" in r.url):
        page.locator("#auto-pass").check()
    page.wait_for_selector("#table")
    assert not [e for e in errors if "style" in e], errors

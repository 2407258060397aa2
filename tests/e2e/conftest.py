"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
PATIENCE_MS = 120_000
"""How long a browser test waits for the state it expects (an element, a value, an answer) before it fails.
Tests wait on what the page shows, never for a fixed time; this bound only ends a wait that would never
end, so it is generous enough for a machine under four times its cores' load (issue 27)."""
expect.set_options(timeout=PATIENCE_MS)

SHOTS = os.environ.get("KWX_SHOTS")
"""A folder to save the tests' screenshots in (unset: none are saved)."""
# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests
# make there (fixtures, assertions on saved rows) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run."""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


def speaking(context, live_server, language: str) -> None:
    """The context starts with the cookie the site's language switch sets (none for Chinese, the default)."""
    if language != "zh-hans":
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])


@contextmanager
def open_page(browser, live_server, width: int, height: int, bypass_csp: bool = False, language: str = "zh-hans", javascript: bool = True, touch: bool = False, zone: str | None = None):
    """A fresh browser context (own cookies) of that window size; ``page.base`` is the server.

    ``bypass_csp`` lets a test add its own script to pages whose Content-Security-Policy allows only
    the site's files (axe-core needs no such help: it is evaluated through DevTools); every other
    test runs under the policy. ``language="en"`` starts with the cookie the site's language switch sets.
    ``javascript=False``: a browser with JavaScript off. ``touch=True``: a touch-only phone (its media answer ``hover: none``, ``pointer: coarse``).
    ``zone``: the browser's time zone (an IANA name; the machine's by default).
    """
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN", bypass_csp=bypass_csp, java_script_enabled=javascript, has_touch=touch, timezone_id=zone)
    speaking(context, live_server, language)
    page = context.new_page()
    page.set_default_timeout(PATIENCE_MS)
    page.base = live_server.url
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser, live_server):
    """A phone-sized page (390 × 844)."""
    with open_page(browser, live_server, 390, 844) as page:
        yield page


@pytest.fixture
def desktop_page(browser, live_server):
    """A desktop-sized page (1280 × 900)."""
    with open_page(browser, live_server, 1280, 900) as page:
        yield page


TAP_AT_ONCE = """(ids) => {
  for (const id of ids) document.getElementById(id).click();
  const busy = document.getElementById("az-busy");
  return {shown: !busy.hidden, text: busy.textContent, aria: document.getElementById("app").getAttribute("aria-busy")};
}"""


def tap_at_once(page, ids: list[str]) -> dict:
    """Click the analyzer's controls of these ids one after another in one go, before any answer can come
    (faster than any player); what its busy notice (#az-busy) and the form's aria-busy said right after."""
    return page.evaluate(TAP_AT_ONCE, ids)


def htmx_settled(page) -> None:
    """Wait until no htmx request, swap or settle is under way: content swapped in gets its triggers only when it settles
    (htmx's 20 ms settle step), so a change made on it before then sends nothing."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")


def shot(page, name: str) -> None:
    """Save a full-page screenshot as ``KWX_SHOTS/name.png`` when KWX_SHOTS is set."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)

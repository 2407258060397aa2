"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
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


@contextmanager
def open_page(browser, live_server, width: int, height: int, bypass_csp: bool = False, javascript: bool = True):
    """A fresh browser context (own cookies) of that window size; ``page.base`` is the server.

    ``bypass_csp`` lets a test add its own script (axe-core) to pages whose Content-Security-Policy
    allows only the site's files; every other test runs under the policy. ``javascript=False``:
    a browser with JavaScript off.
    """
    context = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN", bypass_csp=bypass_csp, java_script_enabled=javascript)
    page = context.new_page()
    page.set_default_timeout(10_000)
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


def shot(page, name: str) -> None:
    """Save a full-page screenshot as ``KWX_SHOTS/name.png`` when KWX_SHOTS is set."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)

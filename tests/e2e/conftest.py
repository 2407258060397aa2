"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's live server."""
from __future__ import annotations

import os

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
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
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    """A fresh browser context (own cookies) on a phone-sized window; ``page.base`` is the server."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()


@pytest.fixture
def desktop_page(browser, live_server):
    """Like ``page`` but 1280 px wide."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base = live_server.url
    yield page
    context.close()

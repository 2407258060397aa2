"""One walk of every page (tests/e2e/pages.py) in both languages, in Chromium under the site's own
Content-Security-Policy. At 390 px each page is loaded once and that load is checked by axe-core (in Chinese),
for ARIA references to missing ids and for fitting the phone (44 px tap targets, a one-row header
whose links fit, nothing that scrolls sideways); then laid out again at 360 px for the fit alone.
One test per page and language, so a failure names its page and workers share the walk; each worker walks in one browser
context a language, every page as a new visitor (``visitor``)."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from tests.e2e.axe import violations
from tests.e2e.conftest import open_page, speaking
from tests.e2e.pages import PAGES, dangling_references, fit_problems, page_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.presentation]
LANGUAGES = {"zh-hans": "zh-Hans", "en": "en"}
"""The site's languages and the ``lang`` of their pages."""
AXE_LANGUAGE = "zh-hans"
"""The language whose walk axe-core checks: a page's elements, roles, names and colours are the same in both (one template,
its words translated); what the words change (widths, the header's fit, sideways scroll) is checked in both."""


def load(page, name: str, language: str) -> str:
    """Open the page (made first when it must be), checking that it is in the language asked for; its URL."""
    url = page_url(page, name)
    page.goto(page.base + url)
    assert page.evaluate("document.documentElement.lang") == LANGUAGES[language], url
    return url


@pytest.fixture(scope="module")
def visitor(browser, live_server):
    """A phone's page for each language, one browser context each for the walk (a fresh context costs Chromium about
    0.3 CPU s, the walk makes 90): before each page its cookies are cleared, so every page meets a new visitor, and
    every load starts with empty storage, as in a fresh context."""
    with ExitStack() as stack:
        pages = {}

        def page_for(language: str):
            if language not in pages:
                pages[language] = stack.enter_context(open_page(browser, live_server, 390, 844, language=language))
                pages[language].context.add_init_script("try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}")
            page = pages[language]
            page.context.clear_cookies()
            speaking(page.context, live_server, language)
            page.set_viewport_size({"width": 390, "height": 844})
            return page

        yield page_for


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", PAGES)
def test_the_page_passes_axe_and_fits_390_and_360_px(visitor, name, language):
    page = visitor(language)
    url = load(page, name, language)
    found = [f"{v['id']} ({v['impact']}) {v['help']} at {v['nodes']}" for v in violations(page)] if language == AXE_LANGUAGE else []
    found += dangling_references(page) + fit_problems(page, 390)
    page.set_viewport_size({"width": 360, "height": 800})  # the narrowest phone: the same load, laid out again
    found += [f"at 360 px: {problem}" for problem in fit_problems(page, 360)]
    assert not found, f"{language} {url}:\n" + "\n".join(found)

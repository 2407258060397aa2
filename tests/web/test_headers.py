"""Response headers: a strict Content-Security-Policy that every page keeps to, and TRACE refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from kwx_site.csp import CSP
from tests.puzzles.factories import aid, discard_puzzle, ensure_bank

pytestmark = pytest.mark.django_db
PAGES = [
    "/",
    "/analyze/?hand=4556p123789sZZZ",
    "/drills/",
    "/learn/",
    "/learn/quiz/",
    "/settle/",
    "/settle/sheets/",
    "/progress/",
    "/accounts/login/",
    "/accounts/signup/",
    "/api/docs/",
    "/no-such-page/",
]
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline script"),
    (re.compile(r"<style\b", re.I), "style element"),
    (re.compile(r"\sstyle=", re.I), "style attribute"),
    (re.compile(r"\son[a-z]+=", re.I), "event-handler attribute"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
]


def test_every_page_has_a_strict_policy_and_keeps_to_it():
    ensure_bank()
    client = Client()
    puzzle = discard_puzzle("34556p123789sZZZ")
    client.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid("csp"), "mode": "rated"})  # progress shows accuracy bars
    for url in PAGES + [f"/drills/{puzzle.pk}/"]:
        r = client.get(url, follow=True)
        policy = r["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy and "style-src 'self'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "frame-ancestors 'none'" in policy
        html = r.content.decode()
        for pattern, what in INLINE:
            assert not pattern.search(html), (url, what, pattern.search(html) and html[pattern.search(html).start() - 80 :][:200])


def test_the_api_docs_start_up_script_is_a_file():
    r = Client().get("/api/docs/?script=")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/javascript") and b"SwaggerUIBundle" in r.content


def test_api_answers_carry_the_policy_too():
    assert "default-src 'self'" in Client().get("/api/v1/analyze/", {"hand": "4556p123789sZZZ"})["Content-Security-Policy"]


@pytest.mark.parametrize("path", ["/static/js/site.js", "/static/css/site.css", "/static/tiles/5p.svg"])
def test_static_files_carry_the_policy_too(path):
    response = Client().get(path)
    assert response.status_code == 200 and response["Content-Security-Policy"] == CSP

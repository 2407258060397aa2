"""HTML (and JSON) responses are gzip-compressed for clients that ask; static files stay with whitenoise."""

from __future__ import annotations

import gzip

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def test_pages_are_compressed_when_the_client_accepts_gzip(client):
    plain = client.get("/learn/")
    packed = client.get("/learn/", HTTP_ACCEPT_ENCODING="gzip")
    assert packed.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content)
    assert body.decode().count("<html") == 1
    assert len(packed.content) < len(plain.content) / 2


def test_a_page_is_not_compressed_for_a_client_that_does_not_ask(client):
    response = client.get("/learn/")
    assert "Content-Encoding" not in response
    assert b"<html" in response.content


def test_htmx_fragments_are_compressed_too(client):
    response = client.get("/?hand=4556p123s789sZZZ", HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    assert b"az-wait" in gzip.decompress(response.content)


def test_gzip_runs_after_whitenoise_and_before_everything_that_writes_the_body():
    middleware = settings.MIDDLEWARE
    gzip_at = middleware.index("django.middleware.gzip.GZipMiddleware")
    # whitenoise answers static files (already compressed by collectstatic) before gzip sees them;
    # every other middleware's response passes through gzip last.
    assert middleware[:gzip_at] == ["django.middleware.security.SecurityMiddleware", "whitenoise.middleware.WhiteNoiseMiddleware"]


def test_each_compressed_response_differs_so_breach_cannot_compare_lengths(client):
    # Django masks the CSRF token per response and pads gzip output with random bytes.
    sizes = {len(client.get("/accounts/login/", HTTP_ACCEPT_ENCODING="gzip").content) for _ in range(6)}
    assert len(sizes) > 1

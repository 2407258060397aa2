"""The site's Content-Security-Policy: pages and API answers (``ContentSecurityPolicyMiddleware``) and static files (whitenoise)."""

from __future__ import annotations

from typing import Any

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The Content-Security-Policy of every answer: only this site's own files, no inline script or style."""


def static_headers(headers: Any, path: str, url: str) -> None:
    """whitenoise's ``WHITENOISE_ADD_HEADERS_FUNCTION``: every static file carries the policy too (an SVG or HTML file opened on its own runs nothing)."""
    headers["Content-Security-Policy"] = CSP

"""Refuse an expected-value API request before the view when its refusal is already known (issue 15).

Under a flood of expected-value requests nearly every one is refused: its client or the
site was refused earlier in the same window, or every EV slot of the host is busy. Such a
request needs no URL routing, no DRF and no body parsing to be refused, so this
middleware answers it with the API's 429 at once (a busy host's refusal is counted against
its client, so a client looping on it is soon refused from memory, without a query; the view's own ``ev_slot`` stays the
authority for every request it lets through). Only requests whose EV nature shows without
reading a body are looked at: ``GET /api/v1/analyze/?depth=ev…`` and every
``POST /api/v1/advice/``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from kwx_site.middleware import api_error

from .ev_limits import early_refusal


class EarlyEVRefusalMiddleware:
    """Answer 429 to an EV request that ``ev_limits.early_refusal`` already refuses."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.paths: tuple[str, str] | None = None

    def is_ev(self, request: HttpRequest) -> bool:
        """Whether the request asks for expected-value work, told from its method, path and query alone."""
        if self.paths is None:
            self.paths = (reverse("api-analyze"), reverse("api-advice"))
        analyze, advice = self.paths
        if request.method == "GET" and request.path_info == analyze:
            return request.GET.get("depth") == "ev"
        return request.method == "POST" and request.path_info == advice

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self.is_ev(request):
            refused = early_refusal(request)
            if refused is not None:
                return api_error(request, 429, None, lambda: refused.message, Retry_After=str(refused.wait))
        return self.get_response(request)

"""Request guards and the API's error shape, before and around everything else.

``RequestGuardMiddleware`` notes when the request arrived (``began``) and refuses what no view should see: ``TRACE`` (405),
a NUL in the path or query (400: PostgreSQL cannot even compare it), chunked
request bodies (411: gunicorn would hand the view an empty body), a form (multipart or
urlencoded) whose ``Content-Length`` is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a 413 page,
before any of it is read), and under ``/api/`` a body over ``API_MAX_BODY_BYTES`` (413) or a
query of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` parameters (400). ``ApiErrorMiddleware`` makes every
answer under ``/api/`` that is not JSON (Django's 404 for an unknown path, 400 for a body
too big, 500, a database outage) the API's one error shape, in the request's language;
a database that cannot be reached is a 503 with ``Retry-After``. ``ContentSecurityPolicyMiddleware``
sends a strict policy: the site loads nothing from elsewhere and runs no inline script.
``OutageTolerantAuthenticationMiddleware`` lets pages that need no database render during an outage.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import TooManyFieldsSent
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from .csp import CSP

API_PREFIX = "/api/"
RETRY_AFTER = 5
"""Seconds a client is asked to wait before trying again after a database outage."""
REFUSED_METHODS = frozenset({"TRACE", "TRACK", "CONNECT"})


logger = logging.getLogger("kwx.errors")


def is_api(request: HttpRequest) -> bool:
    """Whether the request is for the JSON API."""
    return request.path_info.startswith(API_PREFIX)


def api_error(request: HttpRequest, status: int, field: str | None, message: Callable[[], str], **headers: str) -> JsonResponse:
    """The API's error body, its message in the request's language (also before LocaleMiddleware ran)."""
    with translation.override(translation.get_language_from_request(request)):
        text = str(message())
    response = JsonResponse({"error": {"field": field, "message": text}}, status=status, json_dumps_params={"ensure_ascii": False})
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def began(request: HttpRequest) -> datetime | None:
    """When the request reached the site (set first thing by ``RequestGuardMiddleware``; None without it)."""
    return getattr(request, "began", None)


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class RequestGuardMiddleware:
    """Refuse TRACE, chunked bodies, and (under /api/) oversized bodies and queries, before any view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.began = timezone.now()  # type: ignore[attr-defined]  # read by began()
        refused = self.refusal(request)
        return refused if refused is not None else self.get_response(request)

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        """The answer to a request no view should see, or None."""
        api = is_api(request)
        if request.method in REFUSED_METHODS:
            message = lambda: _("The method %(method)s is not allowed.") % {"method": request.method}  # noqa: E731
            response = api_error(request, 405, None, message) if api else HttpResponse(message(), status=405, content_type="text/plain; charset=utf-8")
            response["Allow"] = "GET, HEAD, POST, OPTIONS"
            return response
        if "%00" in request.META.get("QUERY_STRING", "") or "\x00" in request.path_info:
            message = lambda: _("The address contains a NUL character (U+0000), which no page or API takes.")  # noqa: E731
            return api_error(request, 400, "query", message) if api else HttpResponse(message(), status=400, content_type="text/plain; charset=utf-8")
        if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            message = lambda: _("Send the request body with a Content-Length, not in chunks.")  # noqa: E731
            return api_error(request, 411, "body", message) if api else HttpResponse(message(), status=411, content_type="text/plain; charset=utf-8")
        if not api:
            return self.form_refusal(request)
        limit = settings.API_MAX_BODY_BYTES
        if _declared_length(request) > limit:
            return api_error(request, 413, "body", lambda: _("The request body is too large (at most %(limit)d bytes).") % {"limit": limit})
        try:
            request.GET  # noqa: B018  (parses the query, counting its parameters)
        except TooManyFieldsSent:
            most = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
            return api_error(request, 400, "query", lambda: _("Too many query parameters (at most %(limit)d).") % {"limit": most})
        return None

    def form_refusal(self, request: HttpRequest) -> HttpResponse | None:
        """A 413 page for a form (multipart or urlencoded) whose ``Content-Length`` is over ``DATA_UPLOAD_MAX_MEMORY_SIZE``,
        before anything reads it: Django's own limit leaves out the files of a multipart body, which it would receive
        and parse in full first."""
        kind = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if kind not in FORM_TYPES or limit is None or _declared_length(request) <= limit:
            return None
        with translation.override(translation.get_language_from_request(request)):
            body = loader.get_template("413.html").render({"limit_kb": limit // 1024})
        return HttpResponse(body, status=413)


FORM_TYPES = frozenset({"multipart/form-data", "application/x-www-form-urlencoded"})


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


GENERIC = {
    400: lambda: _("The request is malformed."),
    403: lambda: _("You may not do this."),
    404: lambda: _("There is nothing at this address of the API."),
    405: lambda: _("This method is not allowed here."),
    413: lambda: _("The request body is too large."),
}


class ApiErrorMiddleware:
    """Everything under /api/ answers JSON: non-JSON errors get the API's shape, outages a 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not is_api(request) or response.status_code < 400 or _is_json(response):
            return response
        status = response.status_code
        if status >= 500:
            return api_error(request, status, None, lambda: _("The server failed to answer; try again later."))
        shaped = api_error(request, status, None, GENERIC.get(status, GENERIC[400]))
        for header in ("Allow", "Retry-After"):
            if header in response:
                shaped[header] = response[header]
        return shaped

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        """A database outage under /api/ is a 503 with Retry-After; any other failure a JSON 500."""
        if not is_api(request):
            return None
        if isinstance(exc, (OperationalError, InterfaceError)) or type(exc) is DatabaseError:
            logger.error("database unavailable: %s %s", request.method, request.path, exc_info=exc)
            return api_error(request, 503, None, lambda: _("The database is not answering; try again in a few seconds."), Retry_After=str(RETRY_AFTER))
        logger.error("server error: %s %s", request.method, request.path, exc_info=exc)
        return api_error(request, 500, None, lambda: _("The server failed to answer; try again later."))


class ContentSecurityPolicyMiddleware:
    """Send ``CSP`` with every answer that has none (the API docs page included: its script is a file too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        return response


def _user_or_anonymous(request: HttpRequest) -> object:
    """The logged-in user, or an anonymous one when the database cannot say who it is."""
    try:
        return auth.get_user(request)
    except DatabaseError:
        logger.warning("database unavailable: %s %s shown as to an anonymous visitor", request.method, request.path)
        return AnonymousUser()


class OutageTolerantAuthenticationMiddleware(AuthenticationMiddleware):
    """Django's authentication, except that a page read (GET, HEAD; not the API) during a database outage sees an anonymous visitor instead of a 500.

    Only reads: a POST must never be recorded for an anonymous player because the
    account could not be loaded for a moment.
    """

    def process_request(self, request: HttpRequest) -> None:
        """Set ``request.user`` lazily, as Django does; reads tolerate a failing user lookup."""
        super().process_request(request)
        if request.method in ("GET", "HEAD") and not is_api(request):  # the API says 503 instead of guessing
            request.user = SimpleLazyObject(lambda: _user_or_anonymous(request))

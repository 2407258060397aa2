"""One error shape for the whole API: ``{"error": {"field": ..., "message": ...}}``.

Engine errors become 400s with the engine's translated message; bodies too large,
malformed or nested too deep are refused before they reach a view; anything DRF
raises (404, 405, 429, …) keeps its status and gets the same shape.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import BaseParser
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from kwx import EngineError
from kwx.errors import printable
from kwx_site.json_text import JSONTextError, load_json


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The request body is too large (at most %(limit)d bytes).")
    default_code = "too_large"


class FieldParseError(exceptions.ParseError):
    """A body that is JSON but not text this API takes, with the top-level field at fault."""

    def __init__(self, field: str, detail: Any) -> None:
        super().__init__(detail)
        self.field = field


def _has_null(value: Any) -> bool:
    if value is None:
        return True
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return any(_has_null(item) for item in items)


def check_body(data: Any) -> Any:
    """Refuse a null top-level field (leave it out instead), naming it."""
    if isinstance(data, dict):
        for key, value in data.items():
            if value is None:
                raise FieldParseError(printable(key), _("This field may not be null: leave it out instead."))
    return data


def refuse_nulls(data: Any) -> None:
    """Refuse a null nested anywhere in a request body, naming the top-level field; ``options`` is the engine's to check (``cap`` may be null: no cap)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if value is None if key == "options" else _has_null(value):
                raise FieldParseError(key, _("This field may not be null: leave it out instead."))


class RawJSONParser(BaseParser):
    """A JSON body of at most ``API_MAX_BODY_BYTES``, as bytes (a view that reads it with ``kwx_site.json_text`` itself)."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(PayloadTooLarge.default_detail % {"limit": limit})
        return raw


class LimitedJSONParser(RawJSONParser):
    """JSON bodies of at most ``API_MAX_BODY_BYTES``, read by ``kwx_site.json_text.load_json``: malformed JSON, text too
    deep, a lone surrogate or NUL anywhere, and a null top-level field are 400s naming the field."""

    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        raw = super().parse(stream, media_type, parser_context)
        try:
            data = load_json(raw, limit=None, field="body")
        except JSONTextError as exc:
            raise FieldParseError(exc.field, exc.message) from exc
        return check_body(data)


def error_response(field: str | None, message: str, code: int = status.HTTP_400_BAD_REQUEST) -> Response:
    """The API's error body."""
    return Response({"error": {"field": field, "message": message}}, status=code)


def _first_detail(detail: Any) -> tuple[str | None, str]:
    """The first (field, message) of a DRF error detail, however nested."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            field, message = _first_detail(value)
            return (key if key != "non_field_errors" else field), message
    if isinstance(detail, list) and detail:
        return _first_detail(detail[0])
    return None, str(detail)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler producing the API's error shape."""
    if isinstance(exc, EngineError):
        return error_response(exc.field, exc.translated(gettext))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    field, message = _first_detail(getattr(exc, "detail", response.data))
    if isinstance(exc, FieldParseError):
        field = exc.field
    elif isinstance(exc, exceptions.ParseError):
        field = "body"
    response.data = {"error": {"field": field, "message": message}}
    return response


class ErrorDetailSerializer(serializers.Serializer):
    """The API's error: the field at fault (None for the body as a whole) and the message in the request's language."""

    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    """The one error shape of every API endpoint: ``{"error": {"field": …, "message": …}}``."""

    error = ErrorDetailSerializer()

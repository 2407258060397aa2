"""A kwx-hand/1 record from outside, read once for both doors: ``POST /api/v1/hands/replay/`` and ``/play/upload/``.

``read_record`` takes the record's JSON text, checks the text (``kwx_site.json_text``: size,
UTF-8, depth, lone surrogates and NUL in any string) and the record (``kwx.table.record.replay``:
every header field's type and value, the players' names, each action), and gives the data with
its replay, or a ``RecordRefused`` naming the field (and the action) at fault. Nothing is stored
before it has answered.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from kwx.errors import RecordError
from kwx.table.record import Replay, replay
from kwx_site.json_text import JSONTextError, load_json

MAX_RECORD = 60_000
"""Bytes (or characters) of a record's text: a whole hand is about 3,000, the longest legal one under 50,000."""


class RecordRefused(ValueError):
    """A record refused: ``field`` names the field at fault, ``action`` the 0-based index of the action, ``status`` 400 or 413."""

    def __init__(self, field: str, message: str, action: int | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.action = action
        self.status = status

    def as_json(self) -> dict[str, Any]:
        """The API's error body: the field, the action's index when an action is at fault, the reason."""
        detail: dict[str, Any] = {"field": self.field}
        if self.action is not None:
            detail["action"] = self.action
        detail["message"] = self.message
        return {"error": detail}


def read_record(raw: bytes | str, *, whole: str) -> tuple[dict[str, Any], Replay]:
    """The record in ``raw`` (JSON text) and its replay; ``whole`` names the text itself in errors (raises RecordRefused)."""
    try:
        data = load_json(raw, limit=MAX_RECORD, field=whole)
    except JSONTextError as exc:
        at = exc.path[1] if exc.path[:1] == ("actions",) and len(exc.path) > 1 and isinstance(exc.path[1], int) else None
        raise RecordRefused(exc.field, exc.message, at, exc.status) from exc
    try:
        done = replay(data)
    except RecordError as exc:
        raise RecordRefused(exc.field, exc.translated(gettext), exc.action) from exc
    return data, done

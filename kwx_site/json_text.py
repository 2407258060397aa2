"""JSON text from outside (an API body, an uploaded record), read in one place.

``load_json`` refuses, naming the field at fault: text over its size limit, bytes that are
not UTF-8, text that is not JSON, values nested deeper than ``MAX_DEPTH`` (deeper still,
Python's parser gives up with a ``RecursionError``: refused the same way), and any string,
keys included, that holds a lone surrogate (not a character: it cannot be encoded, stored or
shown) or a NUL (PostgreSQL cannot store it). NaN and Infinity are not JSON and are refused; an
integer too long for Python to read comes back as a float, so the field that wants a whole
number names itself. What comes back is plain JSON data that every later step can store, echo
and answer.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from django.utils.translation import gettext as _

from kwx.errors import printable

MAX_DEPTH = 20
"""Levels of objects and lists a body may nest (the deepest the API and records use is 4)."""
_FORBIDDEN = re.compile("[\x00\ud800-\udfff]")
Path = tuple[str | int, ...]


class JSONTextError(ValueError):
    """Refused JSON text: ``field`` names the top-level field at fault (or the whole text), ``path`` the place within it, ``status`` is 400 or 413."""

    def __init__(self, field: str, message: str, status: int = 400, path: Path = ()) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status
        self.path = path


def place(path: Path) -> str:
    """A path into JSON data as text: ``actions[3].draw``."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (("." if text else "") + printable(step))
    return text


def _character_fault(text: str) -> str | None:
    """What is wrong with a string: its first lone surrogate or NUL, in words; None when it has neither."""
    found = _FORBIDDEN.search(text)
    if found is None:
        return None
    code = f"U+{ord(found.group()):04X}"
    if code == "U+0000":
        return _("The text contains a NUL character (U+0000), which is not allowed.")
    return _("The text contains a lone surrogate (%(code)s), which is not a character.") % {"code": code}


def fault(data: Any) -> tuple[Path, str] | None:
    """The first string (in document order, keys included) with a lone surrogate or NUL, or the first value nested too deep: its path and what is wrong."""
    stack: list[tuple[Path, Any, int]] = [((), data, 1)]
    while stack:
        path, value, depth = stack.pop()
        if isinstance(value, str):
            problem = _character_fault(value)
            if problem:
                return path, problem
            continue
        if isinstance(value, dict):
            items: list[tuple[str | int, Any]] = list(value.items())
        elif isinstance(value, list):
            items = list(enumerate(value))
        else:
            continue
        if depth > MAX_DEPTH and items:
            return path, _("The data is nested more than %(limit)d levels deep.") % {"limit": MAX_DEPTH}
        for key, item in reversed(items):
            if isinstance(key, str):
                problem = _character_fault(key)
                if problem:
                    return (*path, printable(key)), problem
            stack.append(((*path, key), item, depth + 1))
    return None


def load_json(raw: bytes | str, *, limit: int | None, field: str) -> Any:
    """JSON text (UTF-8 bytes or text) read and checked as the module says; ``field`` names the whole text in errors (raises JSONTextError)."""
    if isinstance(raw, bytes):
        if limit is not None and len(raw) > limit:
            raise JSONTextError(field, _("The text is too long: at most %(limit)d bytes.") % {"limit": limit}, 413)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONTextError(field, _("The text is not UTF-8: byte %(position)d cannot be read.") % {"position": exc.start + 1}) from exc
    else:
        text = raw
        if limit is not None and len(text) > limit:
            raise JSONTextError(field, _("The text is too long: at most %(limit)d characters.") % {"limit": limit}, 413)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return {}
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_integer)
    except RecursionError as exc:
        raise JSONTextError(field, _("The data is nested more than %(limit)d levels deep.") % {"limit": MAX_DEPTH}) from exc
    except ValueError as exc:
        raise JSONTextError(field, _("Not valid JSON: %(problem)s.") % {"problem": printable(str(exc))[:120]}) from exc
    found = fault(data)
    if found is not None:
        path, problem = found
        if not path:
            raise JSONTextError(field, problem)
        raise JSONTextError(printable(str(path[0])), f"{place(path)}: {problem}", path=path)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _integer(text: str) -> int | float:
    """A JSON integer; one too long for Python to read as an int (over 4,300 digits) is read as a float,
    which every whole-number field then refuses by name (instead of a ``ValueError`` for the whole body)."""
    limit = sys.get_int_max_str_digits()
    return int(text) if not limit or len(text.lstrip("-")) <= limit else float(text)

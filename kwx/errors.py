"""The engine's one error type, with messages that the web layer can translate."""

from __future__ import annotations

import unicodedata
from typing import Any

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"})
"""Unicode categories a message never shows raw: controls, format marks (U+202E, U+200B, BOM), surrogates, unassigned, separators."""


def printable(text: str) -> str:
    """The text with every invisible or direction-changing character written as its code point (U+202E); a plain space stays."""
    if text.isprintable() and not any(unicodedata.category(c) in HIDDEN_CATEGORIES for c in text if c != " "):
        return text
    return "".join(f"U+{ord(c):04X}" if c != " " and unicodedata.category(c) in HIDDEN_CATEGORIES else c for c in text)


def gettext_noop(message: str) -> str:
    """Mark a message for translation without translating it (read by makemessages)."""
    return message


class EngineError(ValueError):
    """Any input the engine refuses: bad notation, impossible hands, unknown rules.

    ``template`` is an English message with ``%(name)s`` placeholders; it is also the
    msgid the site translates. ``field`` names the input at fault (``hand``, ``melds``,
    ``visible``, ``rules``, ``situation``, ``options``), ``params`` fills the template.
    """

    def __init__(self, template: str, field: str = "hand", **params: Any) -> None:
        self.template = template
        self.field = printable(field) if isinstance(field, str) else field
        params = {key: printable(value) if isinstance(value, str) else value for key, value in params.items()}
        self.params = params
        super().__init__(template % params if params else template)

    def translated(self, gettext: Any) -> str:
        """The message through a gettext function, placeholders filled."""
        text = str(gettext(self.template))
        return text % self.params if self.params else text


class NotationError(EngineError):
    """Text that is not valid tile notation; ``params`` name the character and position."""


class RecordError(EngineError):
    """A record that is not legal: ``field`` names the header key, ``action`` the 0-based index of the first illegal action."""

    def __init__(self, template: str, field: str, action: int | None = None, **params: Any) -> None:
        self.action = action
        super().__init__(template, field, **params)

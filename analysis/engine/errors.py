"""The engine's one error type, with messages that the web layer can translate."""
from __future__ import annotations

from typing import Any


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
        self.field = field
        self.params = params
        super().__init__(template % params if params else template)

    def translated(self, gettext: Any) -> str:
        """The message through a gettext function, placeholders filled."""
        text = gettext(self.template)
        return text % self.params if self.params else text


class NotationError(EngineError):
    """Text that is not valid tile notation; ``params`` name the character and position."""

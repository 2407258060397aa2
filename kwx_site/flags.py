"""Yes-or-no words typed as text (an environment setting, a query parameter): the one reader of them."""

from __future__ import annotations

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


def read_flag(text: str) -> bool | None:
    """True for 1/true/yes/on, False for 0/false/no/off (any case, spaces around), None for any other text."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None

"""What pages read of a player: their town (the rules the site applies for them, town-rules.md §3).

``player_town`` is the one reader of ``Player.rules`` / ``Player.rule_options``; ``request_town``
finds the request's player first (never creating one) and reads it. Every page that applies the
player's rules (the analyzer, the settlement calculator, play, drills) asks these, and draws the
choice with ``{% town_picker %}`` (``accounts/templatetags/town.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from django.db import DatabaseError
from django.http import HttpRequest

from kwx import EngineError
from kwx.rules import OPTION_KEYS, PRESETS, OptionValue, RuleSet, label

from .models import Player
from .services import player_for

DEFAULT_RULES = "standard"
"""The rules of a player who never chose a town."""
logger = logging.getLogger("kwx.errors")


@dataclass(frozen=True)
class Town:
    """A town as a player chose it: a preset key and the room switches they changed (town-rules.md §3.3)."""

    rules: str = DEFAULT_RULES
    switches: Mapping[str, OptionValue] = field(default_factory=dict)
    chosen: bool = False
    """Whether the player picked it (False: the standard rules of a player who never chose)."""

    @cached_property
    def values(self) -> RuleSet:
        """Every option's value: the preset's, with the switches turned (and what each is coupled to)."""
        return PRESETS[self.rules].switched(self.switches)

    @property
    def options(self) -> dict[str, OptionValue]:
        """The options that differ from the preset's (coupled ones included): what a request (``kwx.rules.resolve``) or a link adds to ``rules``."""
        base = PRESETS[self.rules].values
        return {key: self.values.value(key) for key in OPTION_KEYS if self.values.value(key) != base.value(key)}

    def label(self, english: bool = False) -> str:
        """The town's name, "孝感（改）" / "Xiaogan (changed)" when a switch differs."""
        return label(self.rules, self.values, english)


def town_of(rules: object, switches: object, *, chosen: bool = True) -> Town:
    """A town from stored or posted data, checked: an unknown preset is the standard rules, a switch the preset no longer has is dropped."""
    if not isinstance(rules, str) or rules not in PRESETS:
        return Town()
    room = PRESETS[rules].room
    kept = {key: value for key, value in switches.items() if key in room} if isinstance(switches, Mapping) else {}
    try:
        PRESETS[rules].switched(kept)
    except EngineError:
        kept = {}
    base = PRESETS[rules].values
    return Town(rules, {key: value for key, value in kept.items() if value != base.value(key)}, chosen)


def player_town(*, player: Player | None) -> Town:
    """The player's town: the preset and switches they chose, or the standard rules (never chosen, or no player)."""
    if player is None or not player.rules:
        return Town()
    return town_of(player.rules, player.rule_options)


def request_town(*, request: HttpRequest) -> Town:
    """The town of the request's player (the account's, or the visitor's session's), never making a player; the standard rules when none, or while the database cannot be read."""
    try:
        return player_town(player=player_for(request, create=False))
    except DatabaseError:
        logger.warning("database unavailable: %s %s shown under the standard rules", request.method, request.path)
        return Town()

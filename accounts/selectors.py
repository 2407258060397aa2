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
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.request import Request

from kwx import EngineError
from kwx.rules import OPTION_KEYS, PRESETS, OptionValue, RuleSet, label
from kwx_site.middleware import began

from .models import Player

SESSION_KEY = "kwx_player"
"""Session entry holding a visitor's player pk."""
SHEET_SESSION_KEY = "settle_owner"
"""Session entry of a visitor's score sheets from before sheets had a player (``Player.sheet_key``): claimed once, then dropped."""
MERGE_GRACE = 600
"""Seconds after a merge during which a request begun before it, with the session's old cookie, still reaches the account."""
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
        return player_town(player=request_player(request))
    except DatabaseError:
        logger.warning("database unavailable: %s %s shown under the standard rules", request.method, request.path)
        return Town()


def request_player(request: HttpRequest | Request) -> Player | None:
    """The request's player as it stands, writing nothing (None: none yet); a write asks ``services.player_for``.

    The account's; else the session's (the account's for a request in flight across a merge only
    when it writes); else the player a score-sheet key from before names. A session holding both a
    player and such a key shows the sheets once its first write claims them (``claim_legacy_sheets``).
    """
    user: AbstractBaseUser | AnonymousUser | None = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Player.objects.filter(user=user).first()
    session = request.session
    return session_player(session, began(request), follow_merge=False) or legacy_sheet_player(session.get(SHEET_SESSION_KEY))


def session_player(session: Mapping[str, Any], started: datetime | None, *, follow_merge: bool) -> Player | None:
    """The visitor's player the session holds, or None; with ``follow_merge`` the account's for a request begun before its merge."""
    pk = session.get(SESSION_KEY)
    player = Player.objects.filter(pk=pk, user__isnull=True).first() if isinstance(pk, int) else None
    if player is None or player.merged_into_id is None:
        return player
    # The session was folded into an account (a log-in or sign-up in another tab) while this
    # request was on its way with the old cookie: its answer goes to the account, and the
    # session is left alone, so this answer's cookie cannot replace the logged-in one.
    merged_at = player.merged_at
    recent = merged_at is not None and merged_at > timezone.now() - timedelta(seconds=MERGE_GRACE)
    if follow_merge and recent and started is not None and started < merged_at:
        return Player.objects.get(pk=player.merged_into_id)
    return None


def legacy_sheet_player(key: object) -> Player | None:
    """The visitor's player a score-sheet key from before sheets had a player names (``Player.sheet_key``), or None."""
    if not isinstance(key, str) or not key:
        return None
    return Player.objects.filter(user__isnull=True, merged_into__isnull=True, sheet_key=key).first()

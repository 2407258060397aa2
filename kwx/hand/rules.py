"""The rules a hand is scored under and the checks a hand must pass.

The rules are a preset's :class:`kwx.rules.RuleSet` and how the hand was won.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kwx.errors import EngineError, gettext_noop
from kwx.hand.fans import SITUATION_KEYS, fan
from kwx.hand.tiles import COPIES, TILE_IDS, TILE_NAMES_ZH, Counts, Hand, add
from kwx.rules import OPTION_KEYS, PRESETS, Preset, RuleSet, preset, record_options, resolve, stored

HAND_SIZES: tuple[int, ...] = (13, 14)
"""A hand to analyse holds 13 tiles (its waits) or 14 (what to discard), each meld counting 3."""
MAX_TILES = HAND_SIZES[-1]
MAX_MELDS = 4
"""A hand declares at most four melds (碰 and 杠)."""
CONFLICTING_SITUATIONS: tuple[frozenset[str], ...] = (frozenset({"gang_shang_pao", "qiang_gang_hu"}), frozenset({"hai_di_pao", "qiang_gang_hu"}))
__all__ = ["OPTION_KEYS", "PRESETS", "Preset", "RuleSet"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides what a win is worth: the preset, its resolved options and how it was won."""

    preset: Preset
    options: RuleSet
    situation: frozenset[str]

    def multiplier(self, fan_key: str) -> int:
        """What a fan is worth under these options."""
        return fan(fan_key).multiplier(self.options)

    def record_options(self) -> dict[str, Any]:
        """The options a record or drill stores for these rules (``kwx.rules.record_options``)."""
        return record_options(self.preset.key, self.options)


def check_situation(situation: Any) -> frozenset[str]:
    """Situational fan keys, checked: known keys that can happen together (raises EngineError naming ``situation``)."""
    if isinstance(situation, str) or not isinstance(situation, (list, tuple, set, frozenset)):
        raise EngineError(gettext_noop("The situation must be a list of situational fan keys."), "situation")
    for key in situation:
        if not isinstance(key, str) or key not in SITUATION_KEYS:
            raise EngineError(
                gettext_noop('Unknown situation "%(value)s": use %(keys)s.'),
                "situation",
                value=str(key)[:40],
                keys=", ".join(sorted(SITUATION_KEYS)),
            )
    chosen = frozenset(situation)
    for conflict in CONFLICTING_SITUATIONS:
        if conflict <= chosen:
            raise EngineError(
                gettext_noop("%(keys)s cannot happen on the same win."),
                "situation",
                keys=" + ".join(sorted(conflict)),
            )
    return chosen


def make_rules(rules: Any = "standard", situation: Any = (), options: Any = None) -> Rules:
    """The rules of a request (town-rules.md §3.1): a preset key, situational fan keys and rule options, checked."""
    chosen = check_situation(situation)
    return Rules(preset(rules), resolve(rules, options), chosen)


def stored_rules(rules: Any = "standard", options: Any = None) -> Rules:
    """The rules of a stored record or drill (§3.1: an absent option takes the legacy preset's value or the legacy default)."""
    return Rules(preset(rules), stored(rules, options), frozenset())


def with_options(rules: Rules, options: RuleSet) -> Rules:
    """``rules`` under other option values (same preset and situation)."""
    return Rules(rules.preset, options, rules.situation)


def validate_hand(hand: Hand, visible: Counts, check_size: bool = True) -> None:
    """Refuse a hand of the wrong size (unless the caller checks it) or with a fifth copy of any kind."""
    count = hand.tile_count
    if check_size and count not in HAND_SIZES:
        raise EngineError(
            gettext_noop("The hand has %(count)d tiles (each meld counts 3): it needs 13 to see its waits or 14 to choose a discard."),
            "hand",
            count=count,
        )
    held = hand.held
    if max(held) <= COPIES and (not any(visible) or max(add(held, visible)) <= COPIES):
        return
    for kind, n in enumerate(held):
        if n > COPIES:
            raise EngineError(
                gettext_noop("%(tile)s (%(name)s) appears %(count)d times in the hand and melds; there are only 4."),
                "melds" if hand.melds and hand.concealed[kind] <= COPIES else "hand",
                tile=TILE_IDS[kind],
                name=TILE_NAMES_ZH[kind],
                count=n,
            )
    for kind, n in enumerate(add(held, visible)):
        if n > COPIES:
            raise EngineError(
                gettext_noop("%(tile)s (%(name)s): %(count)d copies between the hand, the melds and the visible tiles; there are only 4."),
                "visible",
                tile=TILE_IDS[kind],
                name=TILE_NAMES_ZH[kind],
                count=n,
            )

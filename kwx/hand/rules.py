"""Rule presets (通用, 襄阳, 十堰), rule options and the checks a hand must pass."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from kwx.errors import EngineError, gettext_noop
from kwx.hand.fans import SITUATION_KEYS, fan
from kwx.hand.tiles import COPIES, TILE_IDS, TILE_NAMES_ZH, Counts, Hand, add


@dataclass(frozen=True, slots=True)
class Preset:
    """A town's rules: the cap on the multiplier (None: no cap) and its exceptions."""

    key: str
    name: str
    name_en: str
    cap: int | None
    shuang_long_cap: int | None
    note: str
    note_en: str

    def cap_for(self, fan_keys: Iterable[str]) -> int | None:
        """The cap that applies to a reading with these fans."""
        if self.shuang_long_cap is not None and "shuang_long_qi_dui" in fan_keys:
            return self.shuang_long_cap
        return self.cap


PRESETS: Mapping[str, Preset] = MappingProxyType(
    {
        "standard": Preset("standard", "通用", "Standard", None, None, "不封顶。", "No cap."),
        "xiangyang": Preset(
            "xiangyang",
            "襄阳/随州/枣阳",
            "Xiangyang / Suizhou / Zaoyang",
            8,
            16,
            "封顶 ×8；含双龙七对的和牌封顶 ×16。",
            "Capped at ×8; a win with 双龙七对 is capped at ×16 instead.",
        ),
        "shiyan": Preset(
            "shiyan",
            "十堰",
            "Shiyan",
            8,
            None,
            "卡五星 ×4；×8 为满和，不再往上算。",
            "卡五星 is ×4; ×8 is the limit (满和), nothing above it.",
        ),
    }
)


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Switches of kwx-rules §3 (every preset starts from these defaults)."""

    pinghu_selfdraw_only: bool = True
    rob_kong: bool = True
    si_gui_yi_big_hand: bool = False

    def items(self) -> tuple[tuple[str, bool], ...]:
        """The switches as (name, value) pairs, in declaration order (a record header's ``options``)."""
        return tuple((f.name, getattr(self, f.name)) for f in fields(self))


HAND_SIZES: tuple[int, ...] = (13, 14)
"""A hand to analyse holds 13 tiles (its waits) or 14 (what to discard), each meld counting 3."""
MAX_TILES = HAND_SIZES[-1]
MAX_MELDS = 4
"""A hand declares at most four melds (碰 and 杠)."""
OPTION_KEYS: tuple[str, ...] = tuple(f.name for f in fields(RuleOptions))
CONFLICTING_SITUATIONS: tuple[frozenset[str], ...] = (frozenset({"gang_shang_pao", "qiang_gang_hu"}),)


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides what a win is worth: preset, options and how it was won."""

    preset: Preset
    options: RuleOptions
    situation: frozenset[str]

    def multiplier(self, fan_key: str) -> int:
        """What a fan is worth under this preset."""
        return fan(fan_key).multiplier(self.preset.key)


def make_rules(rules: Any = "standard", situation: Any = (), options: Any = None) -> Rules:
    """Check and combine a preset key, situational fan keys and rule options."""
    if not isinstance(rules, str) or rules not in PRESETS:
        raise EngineError(
            gettext_noop('Unknown rules "%(value)s": choose standard, xiangyang or shiyan.'),
            "rules",
            value=str(rules)[:40],
        )
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
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise EngineError(gettext_noop("The options must be an object of true/false switches."), "options")
    for key, value in options.items():
        if key not in OPTION_KEYS:
            raise EngineError(
                gettext_noop('Unknown rule option "%(value)s": use %(keys)s.'),
                "options",
                value=str(key)[:40],
                keys=", ".join(OPTION_KEYS),
            )
        if not isinstance(value, bool):
            raise EngineError(gettext_noop('The rule option "%(value)s" must be true or false.'), "options", value=key)
    return Rules(PRESETS[rules], RuleOptions(**options), chosen)


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

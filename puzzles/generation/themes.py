"""Theme taggers: one small pure function per theme, each asked about one position.

A tagger sees the 14-tile hand and the engine's discard options (best first) and
answers yes or no. ``tag`` runs them all; the keys are the ones the pages and the
API use.
"""

from __future__ import annotations

from collections.abc import Callable

from kwx.hand.efficiency import DiscardOption, best_discards
from kwx.hand.shapes import seven_pairs_shanten, standard_shanten
from kwx.hand.tiles import DRAGONS, Hand

SEVEN_PAIRS_FANS = frozenset({"qi_dui", "long_qi_dui", "shuang_long_qi_dui"})
DRAGON_FANS = frozenset({"da_san_yuan", "xiao_san_yuan"})


def _wait_fans(options: tuple[DiscardOption, ...]) -> set[str]:
    """Every fan any wait of any ready discard would score (self-draw or discard)."""
    found: set[str] = set()
    for option in options:
        for wait in option.result.waits:
            found.update(h.key for h in wait.self_draw.fans)
            found.update(h.key for h in wait.discard.fans)
    return found


def ka_wu_xing_wait(hand: Hand, options: tuple[DiscardOption, ...]) -> bool:
    """卡五星 wait choice: ready after the discard, and some ready choice waits on a 卡五星."""
    ready = tuple(o for o in options if o.result.shanten == 0)
    return options[0].result.shanten == 0 and len(ready) >= 2 and "ka_wu_xing" in _wait_fans(ready)


def seven_pairs_or_triplets(hand: Hand, options: tuple[DiscardOption, ...]) -> bool:
    """七对 vs 碰碰胡: no melds, four or more pairs, and the two routes within one step of each other."""
    if hand.melds:
        return False
    pairs = sum(1 for c in hand.concealed if c >= 2)
    if pairs < 4:
        return False
    return abs(seven_pairs_shanten(hand.concealed) - standard_shanten(hand.concealed)) <= 1


def pure_suit_route(hand: Hand, options: tuple[DiscardOption, ...]) -> bool:
    """清一色 route: ten or more of the 14 tiles in one suit, or a wait that scores 清一色."""
    held = hand.held
    pin, sou = sum(held[0:9]), sum(held[9:18])
    return max(pin, sou) >= 10 or "qing_yi_se" in _wait_fans(options)


def dragons(hand: Hand, options: tuple[DiscardOption, ...]) -> bool:
    """三元: two dragon kinds held as pairs or better, or a wait that scores 大/小三元."""
    held = hand.held
    return sum(1 for d in DRAGONS if held[d] >= 2) >= 2 or bool(DRAGON_FANS & _wait_fans(options))


def shape_efficiency(hand: Hand, options: tuple[DiscardOption, ...]) -> bool:
    """牌效: not ready after the best discard, so the answer is the most effective tiles."""
    return options[0].result.shanten >= 1


def value_over_width(hand: Hand, options: tuple[DiscardOption, ...]) -> bool:
    """Value over width: ready, and a rejected ready discard has more winning tiles but less value."""
    if options[0].result.shanten != 0:
        return False
    accepted = set(best_discards(options))
    widest = max(o.result.ukeire for o in options if o.discard in accepted)
    return any(o.result.shanten == 0 and o.discard not in accepted and o.result.ukeire > widest for o in options)


TAGGERS: dict[str, Callable[[Hand, tuple[DiscardOption, ...]], bool]] = {
    "ka_wu_xing": ka_wu_xing_wait,
    "seven_pairs": seven_pairs_or_triplets,
    "pure_suit": pure_suit_route,
    "dragons": dragons,
    "efficiency": shape_efficiency,
    "value": value_over_width,
}
EV_THEME = "ev"
"""期望值: the EV-best discard is not the plain best; judged with the draws left (``generation.ev``), not tagged here."""
THEME_KEYS: tuple[str, ...] = (*TAGGERS, EV_THEME)

FAN_THEMES: dict[str, frozenset[str]] = {
    "ka_wu_xing": frozenset({"ka_wu_xing"}),
    "seven_pairs": SEVEN_PAIRS_FANS | {"peng_peng_hu"},
    "pure_suit": frozenset({"qing_yi_se"}),
    "dragons": DRAGON_FANS,
}
"""Themes of a 算番 quiz item, read from the fans its win scores."""


def tag(hand: Hand, options: tuple[DiscardOption, ...]) -> tuple[str, ...]:
    """Every theme whose tagger says yes, in ``THEME_KEYS`` order."""
    return tuple(key for key, tagger in TAGGERS.items() if tagger(hand, options))


def fan_themes(fan_keys: set[str]) -> tuple[str, ...]:
    """The themes of a quiz item whose win scores these fans."""
    return tuple(key for key, fans in FAN_THEMES.items() if fans & fan_keys)

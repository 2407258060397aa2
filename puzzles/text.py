"""Words for the drills: theme names, the rule or 口诀 behind each theme, mode names."""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .generation.themes import THEME_KEYS


@dataclass(frozen=True)
class ThemeInfo:
    """A theme's name, the idea behind it, a couplet of the 口诀 and where to read more."""

    key: str
    name: Promise
    idea: Promise
    couplet: str
    link: str


THEMES: dict[str, ThemeInfo] = {
    t.key: t
    for t in (
        ThemeInfo(
            "ka_wu_xing", _("卡五星 wait choice"),
            _("A 5 won between 4 and 6 doubles the win (×4 under 十堰 rules). When ready shapes compete, "
              "count the 卡五星 in: the narrow 5 is often worth more than a wider wait."),
            "五星卡的好，证明有头脑；五星卡的精，说明思路清。", "/learn/fans/#ka_wu_xing",
        ),
        ThemeInfo(
            "seven_pairs", _("七对 vs 碰碰胡"),
            _("Many pairs point two ways: seven pairs (×4, no calls) or all triplets (×2, pongs allowed). "
              "Count which route is closer and which tiles are still live."),
            "七对不开杠，思想最开放；单吊敢亮倒，魄力真不小。", "/learn/fans/#qi_dui",
        ),
        ThemeInfo(
            "pure_suit", _("清一色 route"),
            _("With most tiles in one suit, 清一色 (×4) is near. Weigh keeping the off-suit tiles for speed "
              "against the value of a pure hand."),
            "一色去求杠，思路跟不上；听牌就亮倒，境界真是高。", "/learn/fans/#qing_yi_se",
        ),
        ThemeInfo(
            "dragons", _("三元 (dragons)"),
            _("Two dragon pairs or pongs make 小三元 (×4) or 大三元 (×8) possible: dragons never form runs, "
              "so they only help as pairs and triplets."),
            "三元要注意，单张不放弃；即使吊不上，别家也瞎忙。", "/learn/fans/#xiao_san_yuan",
        ),
        ThemeInfo(
            "efficiency", _("Shape efficiency (牌效)"),
            _("Not ready yet: keep the shape that accepts the most tiles, counted by the copies still unseen."),
            "想要卡的好，口诀要记牢；昼夜来练习，手熟能生巧。", "/learn/shapes/",
        ),
        ThemeInfo(
            "value", _("Value over width"),
            _("Ready either way: the answer is the wait worth more (tiles left × what a win pays), "
              "not the one with more winning tiles."),
            "低翻莫胡牌，继续再等待；只求碰碰胡，没啥大前途。", "/learn/fans/",
        ),
    )
}
assert tuple(THEMES) == THEME_KEYS, "every tagged theme needs its words"

MODES: dict[str, Promise] = {
    "rated": _("Rated"),
    "theme": _("By theme"),
    "review": _("Review"),
    "streak": _("Streak"),
    "quiz": _("Fan quiz"),
    "puzzle": _("Shared puzzle"),
}

SIDES: dict[str, Promise] = {"self_draw": _("Self-draw (自摸)"), "discard": _("On a discard (点炮)")}

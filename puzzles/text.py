"""Words for the drills: theme names, the rule or 口诀 behind each theme, mode names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from kwx.hand.fans import FANS
from kwx.hand.tiles import KIND_OF_ID
from kwx.rules import PRESETS
from kwx_site.figures import figure
from kwx_site.text import tile_label

from .generation.themes import THEME_KEYS


@dataclass(frozen=True)
class ThemeInfo:
    """A theme's name, the idea behind it, a couplet of the 口诀 and where to read more.

    ``idea_text`` names the fans' multipliers by placeholders (``%(qi_dui)d``); ``idea`` fills
    them from the engine's fan table (standard preset, or ``key_preset`` for another), so the
    prose never states a value of its own.
    """

    key: str
    name: Promise
    idea_text: Promise
    couplet: str
    link: str

    @property
    def idea(self) -> str:
        """The idea in the active language, its multipliers read from the fan table."""
        text = str(self.idea_text)
        return text % MULTIPLIERS if "%(" in text else text


MULTIPLIERS: dict[str, int] = {
    **{f.key: f.multiplier() for f in FANS},
    **{f"{f.key}_{key}": f.multiplier(preset.values) for f in FANS for key, preset in PRESETS.items()},
}
"""Each fan's multiplier under the standard preset (``key``) and under every preset (``key_preset``)."""


THEMES: dict[str, ThemeInfo] = {
    t.key: t
    for t in (
        ThemeInfo(
            "ka_wu_xing",
            _("卡五星 wait choice"),
            _(
                "A 5 won between 4 and 6 is worth ×%(ka_wu_xing)d (×%(ka_wu_xing_shiyan)d under 十堰 rules). When ready shapes compete, "
                "count the 卡五星 in: the narrow 5 is often worth more than a wider wait."
            ),
            "五星卡的好，证明有头脑；五星卡的精，说明思路清。",
            "/learn/fans/#ka_wu_xing",
        ),
        ThemeInfo(
            "seven_pairs",
            _("七对 vs 碰碰胡"),
            _("Many pairs point two ways: seven pairs (×%(qi_dui)d, no calls) or all triplets (×%(peng_peng_hu)d, pongs allowed). Count which route is closer and which tiles are still live."),
            "七对不开杠，思想最开放；单吊敢亮倒，魄力真不小。",
            "/learn/fans/#qi_dui",
        ),
        ThemeInfo(
            "pure_suit",
            _("清一色 route"),
            _("With most tiles in one suit, 清一色 (×%(qing_yi_se)d) is near. Weigh keeping the off-suit tiles for speed against the value of a pure hand."),
            "一色去求杠，思路跟不上；听牌就亮倒，境界真是高。",
            "/learn/fans/#qing_yi_se",
        ),
        ThemeInfo(
            "dragons",
            _("三元 (dragons)"),
            _("Two dragon pairs or pongs make 小三元 (×%(xiao_san_yuan)d) or 大三元 (×%(da_san_yuan)d) possible: dragons never form runs, so they only help as pairs and triplets."),
            "三元要注意，单张不放弃；即使吊不上，别家也瞎忙。",
            "/learn/fans/#xiao_san_yuan",
        ),
        ThemeInfo(
            "efficiency",
            _("Shape efficiency (牌效)"),
            _("Not ready yet: keep the shape that accepts the most tiles, counted by the copies still unseen."),
            "想要卡的好，口诀要记牢；昼夜来练习，手熟能生巧。",
            "/learn/shapes/",
        ),
        ThemeInfo(
            "value",
            _("Value over width"),
            _("Ready either way: the answer is the wait worth more (tiles left × what a win pays), not the one with more winning tiles."),
            "低翻莫胡牌，继续再等待；只求碰碰胡，没啥大前途。",
            "/learn/fans/",
        ),
        ThemeInfo(
            "ev",
            _("Expected value (期望值)"),
            _(
                "Effective tiles count only the next draw and the value assumes the wall never runs out. "
                "With a few own draws left, pick the discard with the highest expected score: "
                "its chance to win within those draws times what the win pays."
            ),
            "小胡放大冲，乃兵家大忌；不行就跟牌，黄了再重来。",
            "/analyze/ev-help/",
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
    "daily": _("Daily drill"),
}

DRILL_NAMES: dict[str, Promise] = {"discard": _("何切 (what to discard)"), "quiz": _("算番 (count the fans)")}
"""The 何切 puzzles' and the 算番 items' names (the table drills' are ``explain.KIND_NAMES``)."""

SIDES: dict[str, Promise] = {"self_draw": _("Self-draw (自摸)"), "discard": _("On a discard (点炮)")}


def _percent(p: float) -> str:
    return figure(100 * p, 1) + "%"  # as the EV table writes it (partials/ev_cells.html)


def _tiles(ids: list[str]) -> str:
    return " / ".join(tile_label(t) if t in KIND_OF_ID else t for t in ids)


def ev_explanation(puzzle: Any) -> list[str]:
    """Why the EV-best discard of a 期望值 puzzle is not the plain best: what each ranking counts, in figures."""
    ev_rows = {row["discard"]: row for row in puzzle.ev["options"]}
    plain_rows = {row["discard"]: row for row in puzzle.options}
    ev_tile, plain_tiles = puzzle.accepted[0], puzzle.ev["plain_best"]
    a, b = ev_rows[ev_tile], ev_rows[plain_tiles[0]]
    pa, pb = plain_rows[ev_tile], plain_rows[plain_tiles[0]]
    names = {"ev": _tiles(puzzle.accepted), "plain": _tiles(plain_tiles), "draws": puzzle.draws_left}
    if pb["shanten"] == 0 and (pb["value"] or 0) > (pa["value"] or 0):
        plain = _("By the plain ranking %(plain)s is best: its value (tiles left × what a win pays) is %(pv)d against %(ev_v)d for %(ev)s.")
        names |= {"pv": pb["value"], "ev_v": pa["value"] or 0}
    elif pb["shanten"] == 0:
        plain = _("By the plain ranking %(plain)s is best: the same value (%(pv)d) with more winning tiles, %(pu)d against %(eu)d for %(ev)s.")
        names |= {"pv": pb["value"] or 0, "pu": pb["ukeire"], "eu": pa["ukeire"]}
    else:
        plain = _("By the plain ranking %(plain)s is best: it keeps %(pu)d effective tiles against %(eu)d for %(ev)s.")
        names |= {"pu": pb["ukeire"], "eu": pa["ukeire"]}
    names |= {"aw": _percent(a["win"]), "bw": _percent(b["win"]), "as": figure(a["score"]), "bs": figure(b["score"])}
    if a["win"] > b["win"] + 0.005:
        why = _("With the draws you have left (%(draws)d), discarding %(ev)s wins more often: %(aw)s against %(bw)s, for an expected %(as)s base stakes against %(bs)s.")
    else:
        why = _("With the draws you have left (%(draws)d), discarding %(ev)s wins %(aw)s of the time against %(bw)s, but its wins pay more: an expected %(as)s base stakes against %(bs)s.")
    if pb["shanten"] == 0:
        model = _(
            "The value counts every winning tile as if the wall never ran out and opponents threw winning tiles "
            "as often as they are drawn; the expected score counts only the draws left and opponents who hold back."
        )
    else:
        model = _("Effective tiles count only the next draw; the expected score follows every draw to the end of the wall and what the finished hand is worth.")
    return [str(plain) % names, str(why) % names, str(model)]


REPORT_KINDS: dict[str, Promise] = {
    "answer": _("The answer is wrong"),
    "position": _("The position is impossible"),
    "explanation": _("The explanation is wrong"),
    "other": _("Something else"),
}
"""What a report of a bad drill says is wrong (``DrillReport.KINDS``), in the active language."""

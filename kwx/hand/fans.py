"""THE fan table: every 番 of kwx-rules §3 and town-rules.md §1.2, once, with names, values, definitions and example hands.

A fan's value is its ``base``, or the rule option named by ``option`` (town-rules.md §1.2), read from a
:class:`kwx.rules.RuleSet`; the scorer, the API, the analyzer and the learn pages all read it from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from kwx.rules import LEGACY, PRESETS, RuleSet

Side = Literal["self_draw", "discard"]
SIDES: tuple[Side, ...] = ("self_draw", "discard")


@dataclass(frozen=True, slots=True)
class Example:
    """A hand that shows a fan: 13 tiles (with melds in brackets), the winning tile, how it was won."""

    hand: str
    win: str
    side: Side = "self_draw"
    situation: tuple[str, ...] = ()
    rules: str = "standard"
    note_zh: str = ""
    note_en: str = ""


@dataclass(frozen=True, slots=True)
class Fan:
    """One fan: key, names, value, definition, examples.

    The value is ``base``, or the rule option ``option`` (seven pairs: ``tier`` of ``qi_dui_scale``).
    """

    key: str
    name: str
    name_en: str
    base: int
    definition: str
    definition_en: str
    examples: tuple[Example, ...]
    situational: bool = False
    sides: tuple[Side, ...] = SIDES
    event: bool = False
    """A situational fan of the moment the winning tile comes (a kong's replacement, a robbed kong, the
    wall's last tile), as against 亮倒, a declaration the hand carries to every win."""
    excludes: tuple[str, ...] = field(default=())
    option: str | None = None
    """The rule option that sets this fan's value (``ka_wu_xing_fan`` …), if one does."""
    tier: int | None = None
    """For the seven-pairs fans: how many fours, the index into ``RuleSet.seven_pairs_tiers``."""

    def multiplier(self, rules: RuleSet | str = LEGACY) -> int:
        """What this fan is worth under a rule set or a preset's key (the legacy value by default)."""
        if isinstance(rules, str):
            rules = PRESETS[rules].values
        if self.tier is not None:
            return rules.seven_pairs_tiers()[self.tier]
        if self.option is not None:
            value = rules.value(self.option)
            assert isinstance(value, int)
            return value
        return self.base


FANS: tuple[Fan, ...] = (
    Fan(
        "peng_peng_hu",
        "碰碰胡",
        "All triplets",
        2,
        "标准和牌形中的四组面子全是刻子或杠。",
        "A standard win whose four sets are all triplets or kongs.",
        (
            Example("111p333555s[ZZZ]F", "F"),
            Example("6p111222333777s", "6p", note_zh="同一手牌也可拆成三个顺子，取碰碰胡的拆法更大。", note_en="The same tiles also read as runs; the triplet reading is worth more."),
        ),
        option="peng_peng_hu_fan",
    ),
    Fan(
        "ming_si_gui_yi",
        "明四归一",
        "Fourth tile to an exposed pong",
        2,
        "和的那张牌是自己已碰出（明刻）那种牌的第四张。",
        "The winning tile is the fourth copy of a kind the winner has an exposed pong of.",
        (Example("46p11s[555p][FFF][BBB]", "5p", note_zh="同时是卡五星。", note_en="Also 卡五星."),),
    ),
    Fan(
        "an_si_gui_yi",
        "暗四归一",
        "Fourth tile to a concealed triplet",
        4,
        "手里暗藏三张，和的正是第四张（自摸或点炮都算）；七对的拆法不计。",
        "The winner held three concealed copies of the winning tile (self-draw or discard alike); not counted in a seven-pairs reading.",
        (Example("2245556p123789s", "5p", note_zh="同时是卡五星：×2 × ×4 = ×8。", note_en="Also 卡五星: ×2 × ×4 = ×8."), Example("1112345678999p", "1p")),
    ),
    Fan(
        "qi_dui",
        "七对",
        "Seven pairs",
        4,
        "十四张全在手里，组成七个对子，没有四张相同的牌。",
        "All fourteen tiles concealed as seven pairs, no four of a kind.",
        (Example("1122p334sZZFFBB", "4s"),),
        excludes=("long_qi_dui", "shuang_long_qi_dui", "san_long_qi_dui"),
        tier=0,
    ),
    Fan(
        "long_qi_dui",
        "龙七对",
        "Seven pairs with a four",
        8,
        "七对中恰有一组四张相同的牌（算作两对），取代七对。",
        "Seven pairs in which exactly one kind is held four times (two pairs); replaces 七对.",
        (Example("1122p3344sZZFFF", "F", note_zh="四张发算两对；七对的拆法不再计暗四归一。", note_en="The four 发 are two pairs; no 暗四归一 in a seven-pairs reading."),),
        excludes=("qi_dui", "shuang_long_qi_dui", "san_long_qi_dui"),
        tier=1,
    ),
    Fan(
        "shuang_long_qi_dui",
        "双龙七对",
        "Seven pairs with two fours",
        16,
        "七对中有两组四张相同的牌，取代七对和龙七对。通用规则下三组四张也只算双龙七对；三元七对属地方玩法，本站不计。",
        "Seven pairs with two kinds held four times; replaces 七对 and 龙七对. Under the legacy tiers three fours count as 双龙七对 too; 三元七对 is a house rule and not computed.",
        (Example("1122335555pBBB", "B"),),
        excludes=("qi_dui", "long_qi_dui", "san_long_qi_dui"),
        tier=2,
    ),
    Fan(
        "san_long_qi_dui",
        "三龙七对",
        "Seven pairs with three fours",
        32,
        "七对中有三组四张相同的牌（七对档次 4-8-16-32 或 4-8-32-128 时单独算，通用档次下算双龙七对）。",
        "Seven pairs with three kinds held four times (its own tier under the 4-8-16-32 and 4-8-32-128 scales; under the legacy tiers it is 双龙七对).",
        (Example("1111222233334p", "4p", rules="xiaogan"),),
        excludes=("qi_dui", "long_qi_dui", "shuang_long_qi_dui"),
        tier=3,
    ),
    Fan(
        "da_san_yuan",
        "大三元",
        "Big three dragons",
        8,
        "中、发、白三种箭牌都是刻子或杠。",
        "Triplets or kongs of all three dragons.",
        (Example("123p44sZZZFFFBB", "B"),),
        excludes=("xiao_san_yuan",),
    ),
    Fan(
        "xiao_san_yuan",
        "小三元",
        "Little three dragons",
        4,
        "两种箭牌是刻子或杠，第三种做将（对子）。",
        "Triplets or kongs of two dragons and the pair of the third.",
        (Example("123p456sZZZFFFB", "B"),),
    ),
    Fan(
        "qing_yi_se",
        "清一色",
        "Pure one suit",
        4,
        "和牌时所有的牌（包括碰、杠出的牌）都是同一门花色，没有箭牌。",
        "Every tile, melds included, of one suit, with no dragons.",
        (Example("1122334456677p", "8p"),),
    ),
    Fan(
        "shou_zhua_yi",
        "手抓一",
        "One tile in hand",
        4,
        "碰、杠出四组，手里只剩一张，和这张成对。通常同时算碰碰胡（应城不再算）。",
        "Four melds declared, one tile left in hand, won on its pair; usually also 碰碰胡 (not in 应城).",
        (Example("1p[ZZZ][FFF][BBB][444p]", "1p", note_zh="大三元 × 碰碰胡 × 手抓一 = ×64。", note_en="大三元 × 碰碰胡 × 手抓一 = ×64."),),
        option="shou_zhua_yi_fan",
    ),
    Fan(
        "gang_fan",
        "杠翻",
        "Four in one suit",
        2,
        "清一色（非七对）里，每个没开杠、也没算四归一的四张再 ×2（规则选项“杠翻”，孝感等地方规则）。",
        "In a 清一色 reading (not seven pairs), each four held without a kong and not already counted as 四归一 is a further ×2 (rule option 杠翻, town presets).",
        (Example("1233334567899p", "9p", rules="xiaogan", note_zh="四张三筒没开杠：清一色 ×4 × 杠翻 ×2 = ×8。", note_en="Four 3筒 without a kong: 清一色 ×4 × 杠翻 ×2 = ×8."),),
    ),
    Fan(
        "ka_wu_xing",
        "卡五星",
        "Five in the middle",
        2,
        "和的是五筒或五条，并且能拆成同花色四五六顺子的中间一张。",
        "The winning tile is 5筒 or 5条 and can be read as the middle of a 4-5-6 run of its suit.",
        (
            Example("4556p123789sZZZ", "5p"),
            Example("4688p123789sZZZ", "5p", note_zh="4 6 加 88 将，也是卡五星。", note_en="4 and 6 with an 88 pair: still 卡五星."),
            Example("2245667p123789s", "5p", note_zh="同一手也和八筒，八筒不是卡五星。", note_en="The same hand also wins on 8筒, which is not 卡五星."),
        ),
        option="ka_wu_xing_fan",
    ),
    Fan(
        "gang_shang_kai_hua",
        "杠上开花",
        "Win on a kong replacement",
        2,
        "自己开杠后补摸的那张牌自摸和牌。",
        "Self-draw on the replacement tile after one's own kong.",
        (Example("123456789p1146s", "5s", situation=("gang_shang_kai_hua",)),),
        situational=True,
        event=True,
        sides=("self_draw",),
        option="gang_shang_fan",
    ),
    Fan(
        "gang_shang_pao",
        "杠上炮",
        "Discard after a kong",
        2,
        "别人开杠补牌后打出的那张牌被和（点炮）；连续杠上杠也只算一次，不叠加。",
        "A discard win on the tile thrown right after the discarder's kong; counted once, however many kongs were chained before it.",
        (Example("123456789p1146s", "5s", side="discard", situation=("gang_shang_pao",)),),
        situational=True,
        event=True,
        sides=("discard",),
        option="gang_shang_fan",
    ),
    Fan(
        "qiang_gang_hu",
        "抢杠胡",
        "Robbing a kong",
        2,
        "别人把一张牌加到碰上蓄杠时，正好和这张牌（算点炮）。规则选项可关闭。",
        "A discard-type win on the tile another player adds to a pong; can be turned off by a rule option.",
        (Example("123456789p1178s", "6s", side="discard", situation=("qiang_gang_hu",)),),
        situational=True,
        event=True,
        sides=("discard",),
    ),
    Fan(
        "hai_di_lao",
        "海底捞",
        "Last tile of the wall",
        2,
        "摸牌墙最后一张牌自摸和牌。",
        "Self-draw of the last tile of the wall.",
        (Example("123456789p1146s", "5s", situation=("hai_di_lao",)),),
        situational=True,
        event=True,
        sides=("self_draw",),
    ),
    Fan(
        "hai_di_pao",
        "海底炮",
        "Win on the last discard",
        2,
        "摸完最后一张后打出的那张牌被和（点炮）；只在规则选项“海底”含海底炮时算（襄阳、十堰地方规则）。",
        "A discard win on the discard made after the last tile was drawn; only where the 海底 option counts it (Xiangyang and Shiyan town rules).",
        (Example("123456789p1146s", "5s", side="discard", situation=("hai_di_pao",), rules="xiangyang_town"),),
        situational=True,
        event=True,
        sides=("discard",),
    ),
    Fan(
        "liang_dao",
        "亮倒",
        "Revealed hand",
        2,
        "和牌者之前已亮倒（公开听牌）；自摸、点炮都翻倍。",
        "The winner had declared 亮倒 (revealed a ready hand); doubles self-draw and discard wins.",
        (Example("123456789p1146s", "5s", side="discard", situation=("liang_dao",)),),
        situational=True,
    ),
)

FAN_BY_KEY: Mapping[str, Fan] = MappingProxyType({f.key: f for f in FANS})
HAND_FANS: tuple[Fan, ...] = tuple(f for f in FANS if not f.situational)
SITUATIONAL_FANS: tuple[Fan, ...] = tuple(f for f in FANS if f.situational)
SITUATION_KEYS: frozenset[str] = frozenset(f.key for f in SITUATIONAL_FANS)
EVENT_KEYS: frozenset[str] = frozenset(f.key for f in FANS if f.event)
"""The situational fans of the winning tile's moment (``Fan.event``)."""


def fan(key: str) -> Fan:
    """The fan with this key."""
    return FAN_BY_KEY[key]

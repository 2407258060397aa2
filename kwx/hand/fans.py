"""THE fan table: every 番 of kwx-rules §3, once, with names, values per preset,
definitions and example hands. The scorer, the API, the analyzer and the learn
pages all read it from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

Side = Literal["self_draw", "discard"]
SIDES: tuple[Side, ...] = ("self_draw", "discard")
PRESET_KEYS: tuple[str, ...] = ("standard", "xiangyang", "shiyan")


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
    """One fan: key, names, multiplier per preset, definition, examples."""

    key: str
    name: str
    name_en: str
    multipliers: Mapping[str, int]
    definition: str
    definition_en: str
    examples: tuple[Example, ...]
    situational: bool = False
    sides: tuple[Side, ...] = SIDES
    event: bool = False
    """A situational fan of the moment the winning tile comes (a kong's replacement, a robbed kong, the
    wall's last tile), as against 亮倒, a declaration the hand carries to every win."""
    excludes: tuple[str, ...] = field(default=())

    def multiplier(self, preset: str) -> int:
        """The multiplier this fan is worth under a preset."""
        return self.multipliers[preset]


def _same(value: int) -> Mapping[str, int]:
    return MappingProxyType({p: value for p in PRESET_KEYS})


FANS: tuple[Fan, ...] = (
    Fan(
        "peng_peng_hu",
        "碰碰胡",
        "All triplets",
        _same(2),
        "标准和牌形中的四组面子全是刻子或杠。",
        "A standard win whose four sets are all triplets or kongs.",
        (
            Example("111p333555s[ZZZ]F", "F"),
            Example("6p111222333777s", "6p", note_zh="同一手牌也可拆成三个顺子，取碰碰胡的拆法更大。", note_en="The same tiles also read as runs; the triplet reading is worth more."),
        ),
    ),
    Fan(
        "ming_si_gui_yi",
        "明四归一",
        "Fourth tile to an exposed pong",
        _same(2),
        "和的那张牌是自己已碰出（明刻）那种牌的第四张。",
        "The winning tile is the fourth copy of a kind the winner has an exposed pong of.",
        (Example("46p11s[555p][FFF][BBB]", "5p", note_zh="同时是卡五星。", note_en="Also 卡五星."),),
    ),
    Fan(
        "an_si_gui_yi",
        "暗四归一",
        "Fourth tile to a concealed triplet",
        _same(4),
        "手里暗藏三张，和的正是第四张（自摸或点炮都算）；七对的拆法不计。",
        "The winner held three concealed copies of the winning tile (self-draw or discard alike); not counted in a seven-pairs reading.",
        (Example("2245556p123789s", "5p", note_zh="同时是卡五星：×2 × ×4 = ×8。", note_en="Also 卡五星: ×2 × ×4 = ×8."), Example("1112345678999p", "1p")),
    ),
    Fan(
        "qi_dui",
        "七对",
        "Seven pairs",
        _same(4),
        "十四张全在手里，组成七个对子，没有四张相同的牌。",
        "All fourteen tiles concealed as seven pairs, no four of a kind.",
        (Example("1122p334sZZFFBB", "4s"),),
        excludes=("long_qi_dui", "shuang_long_qi_dui"),
    ),
    Fan(
        "long_qi_dui",
        "龙七对",
        "Seven pairs with a four",
        _same(8),
        "七对中恰有一组四张相同的牌（算作两对），取代七对。",
        "Seven pairs in which exactly one kind is held four times (two pairs); replaces 七对.",
        (Example("1122p3344sZZFFF", "F", note_zh="四张发算两对；七对的拆法不再计暗四归一。", note_en="The four 发 are two pairs; no 暗四归一 in a seven-pairs reading."),),
        excludes=("qi_dui", "shuang_long_qi_dui"),
    ),
    Fan(
        "shuang_long_qi_dui",
        "双龙七对",
        "Seven pairs with two fours",
        _same(16),
        "七对中有两组或以上四张相同的牌，取代七对和龙七对。三龙七对、三元七对等更高等级属地方玩法，本站不计。",
        "Seven pairs with two or more kinds held four times; replaces 七对 and 龙七对. Higher tiers (三龙七对, 三元七对) are house rules and not computed.",
        (Example("1122335555pBBB", "B"),),
        excludes=("qi_dui", "long_qi_dui"),
    ),
    Fan(
        "da_san_yuan",
        "大三元",
        "Big three dragons",
        _same(8),
        "中、发、白三种箭牌都是刻子或杠。",
        "Triplets or kongs of all three dragons.",
        (Example("123p44sZZZFFFBB", "B"),),
        excludes=("xiao_san_yuan",),
    ),
    Fan(
        "xiao_san_yuan",
        "小三元",
        "Little three dragons",
        _same(4),
        "两种箭牌是刻子或杠，第三种做将（对子）。",
        "Triplets or kongs of two dragons and the pair of the third.",
        (Example("123p456sZZZFFFB", "B"),),
    ),
    Fan(
        "qing_yi_se",
        "清一色",
        "Pure one suit",
        _same(4),
        "和牌时所有的牌（包括碰、杠出的牌）都是同一门花色，没有箭牌。",
        "Every tile, melds included, of one suit, with no dragons.",
        (Example("1122334456677p", "8p"),),
    ),
    Fan(
        "shou_zhua_yi",
        "手抓一",
        "One tile in hand",
        _same(4),
        "碰、杠出四组，手里只剩一张，和这张成对。总是同时算碰碰胡。",
        "Four melds declared, one tile left in hand, won on its pair; always also 碰碰胡.",
        (Example("1p[ZZZ][FFF][BBB][444p]", "1p", note_zh="大三元 × 碰碰胡 × 手抓一 = ×64。", note_en="大三元 × 碰碰胡 × 手抓一 = ×64."),),
    ),
    Fan(
        "ka_wu_xing",
        "卡五星",
        "Five in the middle",
        MappingProxyType({"standard": 2, "xiangyang": 2, "shiyan": 4}),
        "和的是五筒或五条，并且能拆成同花色四五六顺子的中间一张。",
        "The winning tile is 5筒 or 5条 and can be read as the middle of a 4-5-6 run of its suit.",
        (
            Example("4556p123789sZZZ", "5p"),
            Example("4688p123789sZZZ", "5p", note_zh="4 6 加 88 将，也是卡五星。", note_en="4 and 6 with an 88 pair: still 卡五星."),
            Example("2245667p123789s", "5p", note_zh="同一手也和八筒，八筒不是卡五星。", note_en="The same hand also wins on 8筒, which is not 卡五星."),
        ),
    ),
    Fan(
        "gang_shang_kai_hua",
        "杠上开花",
        "Win on a kong replacement",
        _same(2),
        "自己开杠后补摸的那张牌自摸和牌。",
        "Self-draw on the replacement tile after one's own kong.",
        (Example("123456789p1146s", "5s", situation=("gang_shang_kai_hua",)),),
        situational=True,
        event=True,
        sides=("self_draw",),
    ),
    Fan(
        "gang_shang_pao",
        "杠上炮",
        "Discard after a kong",
        _same(2),
        "别人开杠补牌后打出的那张牌被和（点炮）；连续杠上杠也只算 ×2。",
        "A discard win on the tile thrown right after the discarder's kong; ×2 however many kongs were chained before it.",
        (Example("123456789p1146s", "5s", side="discard", situation=("gang_shang_pao",)),),
        situational=True,
        event=True,
        sides=("discard",),
    ),
    Fan(
        "qiang_gang_hu",
        "抢杠胡",
        "Robbing a kong",
        _same(2),
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
        _same(2),
        "摸牌墙最后一张牌自摸和牌。",
        "Self-draw of the last tile of the wall.",
        (Example("123456789p1146s", "5s", situation=("hai_di_lao",)),),
        situational=True,
        event=True,
        sides=("self_draw",),
    ),
    Fan(
        "liang_dao",
        "亮倒",
        "Revealed hand",
        _same(2),
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

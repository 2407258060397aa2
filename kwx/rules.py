"""A town's rules as one value (town-rules.md), in the spirit of ``chess.variant``.

:class:`RuleSet` holds every option of town-rules.md §1, each field's default being its
**legacy default** (the value that reproduces kwx-rules.md). :data:`PRESETS` are the rule
sets by name: the three legacy presets, frozen forever, and the six town presets with the
source of every value and the options a room may still switch (§3). :func:`resolve` reads a
request (§3.1: the request's option, else the preset's value, else the legacy default) and
:func:`stored` a stored record (an absent option takes the legacy preset's value, or the
legacy default: never a town preset's current value). Fans, caps, allowances, settlement
money, the table's legal actions, the bots and the pages all read a ``RuleSet``; adding a
town is adding a :class:`Preset` to the data below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from kwx.errors import EngineError, gettext_noop

OptionValue = bool | int | str | None
"""What an option holds: a switch, a multiplier or count, a named choice, or None (no cap)."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule option of town-rules.md §1, in its order; each default is the legacy value (kwx-rules.md)."""

    ka_wu_xing_fan: int = 2
    peng_peng_hu_fan: int = 2
    gang_shang_fan: int = 2
    shou_zhua_yi_fan: int = 4
    shou_zhua_yi_with_peng_peng_hu: bool = True
    qi_dui_scale: str = "4-8-16"
    cap: int | None = None
    cap_shuang_long_16: bool = False
    si_gui_yi: str = "winning_tile"
    si_gui_yi_big_hand: bool = False
    hai_di: str = "lao"
    liang_dao_double: str = "winner"
    dui_liang_dui_fan: bool = False
    bao_hu: str = "on"
    bao_hu_piao: str = "once"
    bao_hu_kan: str = "once"
    hua_zhuang: str = "each_declarer"
    hua_zhuang_first_pays: int = 1
    shu_kan: bool = False
    pao_qia_mo_ba: bool = False
    mai_ma: str = "none"
    mai_ma_trigger: str = "liang_dao"
    shang_lou: bool = False
    piao_mode: str = "per_hand"
    ban_liang: bool = False
    no_feed_liang_dao: bool = False
    liang_dao_no_melds: bool = False
    sha_ma: bool = False
    self_draw_min_2: bool = False
    pinghu_selfdraw_only: bool = True
    rob_kong: bool = True
    qing_yi_se_fours: bool = False
    an_gang_chain_drawn_only: bool = False
    no_feed_declaring_discard: bool = False
    no_feed_xu_gang: bool = False

    def items(self) -> tuple[tuple[str, OptionValue], ...]:
        """Every option as (key, value), in town-rules.md §1 order."""
        return tuple((key, getattr(self, key)) for key in OPTION_KEYS)

    def as_dict(self) -> dict[str, OptionValue]:
        """Every option by key (what an answer echoes as its resolved ``options``)."""
        return dict(self.items())

    def value(self, key: str) -> OptionValue:
        """One option's value."""
        return getattr(self, key)  # type: ignore[no-any-return]

    def seven_pairs_tiers(self) -> tuple[int, int, int, int]:
        """七对 with 0, 1, 2 and 3 fours under ``qi_dui_scale``."""
        return QI_DUI_TIERS[self.qi_dui_scale]

    def cap_for(self, fan_keys: frozenset[str] | set[str] | tuple[str, ...]) -> int | None:
        """The cap on a reading with these fans: ``cap``, or 16 for 双龙/三龙七对 under ``cap_shuang_long_16`` at cap 8."""
        if self.cap is not None and self.cap_shuang_long_16 and self.cap < 16 and any(k in LONG_TIERS for k in fan_keys):
            return 16
        return self.cap

    @property
    def buys_horses(self) -> bool:
        """Whether a qualifying self-draw buys horses (买马)."""
        return self.mai_ma != "none"

    @property
    def horse_count(self) -> int:
        """How many horses a qualifying self-draw turns: 1 (独马), 6 (六马) or 0."""
        return HORSE_COUNTS[self.mai_ma]

    @property
    def cha_da_jiao(self) -> bool:
        """Whether a drawn hand is settled by 查大叫 (either form)."""
        return self.hua_zhuang in ("cha_da_jiao", "cha_da_jiao_suizhou")


LONG_TIERS = frozenset({"shuang_long_qi_dui", "san_long_qi_dui"})
"""The seven-pairs fans with two or more fours: ``cap_shuang_long_16`` caps them at 16."""
QI_DUI_TIERS: Mapping[str, tuple[int, int, int, int]] = MappingProxyType({"4-8-16": (4, 8, 16, 16), "4-8-16-32": (4, 8, 16, 32), "4-8-32-128": (4, 8, 32, 128)})
"""七对, 龙七对, 双龙七对, 三龙七对 by ``qi_dui_scale`` (legacy: three fours count as 双龙)."""
HORSE_COUNTS: Mapping[str, int] = MappingProxyType({"none": 0, "one": 1, "six": 6})
OPTION_KEYS: tuple[str, ...] = tuple(f.name for f in fields(RuleSet))
LEGACY = RuleSet()
"""Every option at its legacy default: preset ``standard``."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option of town-rules.md §1 described: its values, where it acts, its source strength, its names in words."""

    key: str
    values: tuple[OptionValue, ...]
    step: str
    """Where it acts: ``fans`` (§2.1 step 1), ``multiplier`` (steps 2–3), ``cap``, ``bao_hu``, ``extras`` (step 6), ``draw`` (§2.3), ``kong``, ``table`` or ``allowance``."""
    strength: str
    """``well`` (well sourced), ``single`` (single-source), ``conflicting`` (the sources differ; town-rules.md says which reading)."""
    name: str
    name_en: str
    meaning: str
    meaning_en: str
    labels: Mapping[OptionValue, tuple[str, str]] = field(default_factory=dict)
    """Each value in words (zh, en); a value without a label is shown as itself."""

    @property
    def legacy(self) -> OptionValue:
        """The legacy default (kwx-rules.md)."""
        return LEGACY.value(self.key)

    def label(self, value: OptionValue, english: bool = False) -> str:
        """A value in words."""
        words = self.labels.get(value)
        if words is not None:
            return words[1] if english else words[0]
        if isinstance(value, bool):
            return ("on" if value else "off") if english else ("开" if value else "关")
        return "—" if value is None else str(value)


_ON_OFF: Mapping[OptionValue, tuple[str, str]] = MappingProxyType({True: ("是", "yes"), False: ("否", "no")})
_TIMES: Mapping[OptionValue, tuple[str, str]] = MappingProxyType({2: ("×2", "×2"), 4: ("×4", "×4")})

OPTIONS: tuple[Option, ...] = (
    Option(
        "ka_wu_xing_fan",
        (2, 4),
        "fans",
        "well",
        "卡五星番数",
        "卡五星 value",
        "卡五星（和五筒/五条、夹在四六中间）算 ×2 还是 ×4。",
        "Whether 卡五星 (winning a 5 between 4 and 6) is worth ×2 or ×4.",
        _TIMES,
    ),
    Option("peng_peng_hu_fan", (2, 4), "fans", "well", "碰碰胡番数", "碰碰胡 value", "碰碰胡（四组都是刻子或杠）算 ×2 还是 ×4。", "Whether 碰碰胡 (all triplets) is worth ×2 or ×4.", _TIMES),
    Option(
        "gang_shang_fan",
        (2, 4),
        "fans",
        "conflicting",
        "杠上开花/杠上炮番数",
        "杠上开花 / 杠上炮 value",
        "杠上开花和杠上炮一起算 ×2 还是 ×4；跟随碰碰胡番数的镇上，两者一起改。",
        "Whether 杠上开花 and 杠上炮 are both ×2 or both ×4; where the town ties it to 碰碰胡, both change together.",
        _TIMES,
    ),
    Option(
        "shou_zhua_yi_fan",
        (4, 2),
        "fans",
        "conflicting",
        "手抓一番数",
        "手抓一 value",
        "手抓一（碰杠四组、单钓一张）算 ×4 还是 ×2。",
        "Whether 手抓一 (four melds, won on the single tile's pair) is worth ×4 or ×2.",
        _TIMES,
    ),
    Option(
        "shou_zhua_yi_with_peng_peng_hu",
        (True, False),
        "fans",
        "conflicting",
        "手抓一另计碰碰胡",
        "手抓一 also counts 碰碰胡",
        "手抓一是否同时再算碰碰胡。",
        "Whether a 手抓一 win also counts 碰碰胡.",
        _ON_OFF,
    ),
    Option(
        "qi_dui_scale",
        ("4-8-16", "4-8-16-32", "4-8-32-128"),
        "fans",
        "conflicting",
        "七对档次",
        "Seven-pairs tiers",
        "七对、龙七对（一个四张）、双龙七对（两个）、三龙七对（三个）各算几番。",
        "What 七对, 龙七对 (one four), 双龙七对 (two) and 三龙七对 (three) are worth.",
        {"4-8-16": ("4·8·16（三龙算双龙）", "4·8·16 (three fours count as two)"), "4-8-16-32": ("4·8·16·32", "4·8·16·32"), "4-8-32-128": ("4·8·32·128", "4·8·32·128")},
    ),
    Option(
        "cap",
        (None, 8, 16),
        "cap",
        "well",
        "封顶",
        "Cap",
        "每笔付款的番数最多算到几番（亮倒、上楼都算在内，漂等另加不封顶）。",
        "The most a payment's multiplier may reach (亮倒 and 上楼 included; 漂 and other flat extras come on top).",
        {None: ("不封顶", "no cap"), 8: ("×8", "×8"), 16: ("×16", "×16")},
    ),
    Option(
        "cap_shuang_long_16",
        (False, True),
        "cap",
        "single",
        "双龙七对封顶 ×16",
        "双龙七对 capped at ×16",
        "封顶 ×8 时，双龙七对（及三龙）例外封顶 ×16。",
        "With a cap of ×8, 双龙七对 (and 三龙) are capped at ×16 instead.",
        _ON_OFF,
    ),
    Option(
        "si_gui_yi",
        ("winning_tile", "all_fours"),
        "fans",
        "well",
        "四归一（半频道/全频道）",
        "四归一 (half or full channel)",
        "半频道只算和的那张牌凑成的四张；全频道凡是手里（含碰）凑齐四张而没开杠的，每种都算。",
        "Half channel counts only the four the winning tile completes; full channel counts every kind held four times without a kong.",
        {"winning_tile": ("半频道（只算和张）", "half channel (winning tile)"), "all_fours": ("全频道（每个四张）", "full channel (every four)")},
    ),
    Option(
        "si_gui_yi_big_hand",
        (False, True),
        "fans",
        "single",
        "大胡手上的四归也算",
        "四归一 in big hands",
        "大胡（碰碰胡、清一色、三元、手抓一）里其它没开杠的四张也算四归一。",
        "In a big hand, every other four held without a kong also counts as 四归一.",
        _ON_OFF,
    ),
    Option(
        "hai_di",
        ("lao", "none", "lao_and_pao"),
        "fans",
        "conflicting",
        "海底",
        "Last tile (海底)",
        "摸最后一张自摸（海底捞）、和最后一张打出的牌（海底炮）是否 ×2。",
        "Whether a self-draw of the last tile (海底捞) or a win on the last discard (海底炮) is ×2.",
        {"lao": ("只算海底捞", "海底捞 only"), "none": ("不算", "none"), "lao_and_pao": ("海底捞和海底炮", "海底捞 and 海底炮")},
    ),
    Option(
        "liang_dao_double",
        ("winner", "winner_or_payer"),
        "multiplier",
        "well",
        "亮倒翻倍",
        "亮倒 doubles",
        "亮倒只让亮倒者和牌翻倍，还是付款的一方亮了倒也翻倍。",
        "Whether 亮倒 doubles only the declarer's wins, or also what a declared payer pays.",
        {"winner": ("和牌者亮倒才翻倍", "when the winner declared"), "winner_or_payer": ("和牌者或付款者亮倒都翻倍", "when the winner or that payer declared")},
    ),
    Option("dui_liang_dui_fan", (False, True), "multiplier", "well", "对亮对番", "对亮对番", "和牌者和付款者都亮倒时再 ×2。", "When both the winner and the payer declared, a further ×2.", _ON_OFF),
    Option(
        "bao_hu",
        ("on", "off", "capped_sum"),
        "bao_hu",
        "conflicting",
        "包胡",
        "包胡",
        "亮倒的人点炮和牌时，放炮的人是否替第三家一起付。",
        "Whether the discarder also pays the third seat's share when a declared hand wins on a discard.",
        {
            "on": ("包两家（各自封顶）", "both shares, each capped"),
            "off": ("不包", "none"),
            "capped_sum": ("包两家，合计封顶（放炮者未亮倒时）", "both shares, capped together (discarder not declared)"),
        },
    ),
    Option(
        "bao_hu_piao",
        ("once", "both"),
        "bao_hu",
        "single",
        "包胡的漂",
        "漂 on 包胡",
        "包胡时只加双方的漂，还是再加和牌者与第三家的漂。",
        "On 包胡, 漂 of winner and discarder only, or also of winner and third seat.",
        {"once": ("加一次", "once"), "both": ("两家都加", "for both shares")},
    ),
    Option(
        "bao_hu_kan",
        ("once", "double"),
        "bao_hu",
        "single",
        "包胡的坎",
        "坎 on 包胡",
        "数坎时，包胡的坎算一次还是两次。",
        "With 数坎, whether 包胡 adds the 坎 once or twice.",
        {"once": ("一次", "once"), "double": ("两次", "twice")},
    ),
    Option(
        "hua_zhuang",
        ("each_declarer", "first_declarer", "cha_da_jiao", "cha_da_jiao_suizhou", "none"),
        "draw",
        "conflicting",
        "荒庄（流局）",
        "Drawn hand (荒庄)",
        "牌摸完没人和时怎么算：亮倒的赔、第一个亮倒的赔，还是查大叫（听牌的向没听的、亮倒的收各自最大的和）。",
        "How a drawn hand is settled: each declarer pays, the first declarer pays, or 查大叫 (ready hands collect their best win from lower-ranked seats).",
        {
            "each_declarer": ("每个亮倒的赔每个没亮的 1", "each declarer pays each non-declarer 1"),
            "first_declarer": ("第一个亮倒的赔每家", "the first declarer pays everyone"),
            "cha_da_jiao": ("查大叫", "查大叫"),
            "cha_da_jiao_suizhou": ("查大叫（随州：全听时后亮的收先亮的）", "查大叫 (随州 form)"),
            "none": ("不算", "nothing"),
        },
    ),
    Option(
        "hua_zhuang_first_pays",
        (1, 2),
        "draw",
        "single",
        "第一个亮倒赔多少",
        "First declarer pays",
        "荒庄由第一个亮倒的赔时，每家赔几个底。",
        "With the first-declarer rule, what the first declarer pays each player.",
        {1: ("1", "1"), 2: ("2", "2")},
    ),
    Option(
        "shu_kan",
        (False, True),
        "extras",
        "conflicting",
        "数坎",
        "数坎 (count 坎)",
        "每个杠和手里（含和张）三张以上的每种牌算一坎，每坎加 1。",
        "Each kong and each kind held three or more times (winning tile included) is a 坎, worth 1 more each.",
        _ON_OFF,
    ),
    Option(
        "pao_qia_mo_ba",
        (False, True),
        "extras",
        "conflicting",
        "跑恰摸八",
        "跑恰摸八",
        "和牌加：跑 1、恰（坎数）、自摸 1、八（最多一门满 8 张起，每多一张 +1）。",
        "A win adds 跑 1, 恰 (the 坎), 摸 1 on a self-draw and 八 (one per tile of the largest group beyond 7).",
        _ON_OFF,
    ),
    Option(
        "mai_ma",
        ("none", "one", "six"),
        "extras",
        "well",
        "买马",
        "Horses (买马)",
        "自摸后从牌墙翻马：独马按点数（字牌 10），六马按中了几张（与和张同 1-4-7/2-5-8/3-6-9 或字牌）。",
        "After a self-draw the wall turns horses: one horse scores its number (a dragon 10); six horses score their hits (same 1-4-7/2-5-8/3-6-9 group as the winning tile, or a dragon).",
        {"none": ("不买", "none"), "one": ("独马", "one horse"), "six": ("六马", "six horses")},
    ),
    Option(
        "mai_ma_trigger",
        ("liang_dao", "any"),
        "extras",
        "well",
        "买马条件",
        "When horses are bought",
        "亮倒后自摸才买马，还是任何自摸都买。",
        "Horses only on a declared hand's self-draw, or on any self-draw.",
        {"liang_dao": ("亮倒自摸", "declared self-draw"), "any": ("任何自摸", "any self-draw")},
    ),
    Option(
        "shang_lou",
        (False, True),
        "multiplier",
        "conflicting",
        "上楼",
        "上楼 (dice double)",
        "开局掷骰，两颗相同则这手每笔和牌番数 ×2（封顶前）。",
        "The dice are rolled at the deal; on a double every win payment's multiplier is ×2 before the cap.",
        _ON_OFF,
    ),
    Option(
        "piao_mode",
        ("per_hand", "fixed", "off"),
        "table",
        "well",
        "漂",
        "漂",
        "每手自选漂、开局定漂，还是不漂。",
        "漂 chosen before every hand, once for the session, or not at all.",
        {"per_hand": ("每手选漂", "chosen each hand"), "fixed": ("定漂", "fixed for the session"), "off": ("不漂", "no 漂")},
    ),
    Option(
        "ban_liang",
        (False, True),
        "table",
        "well",
        "半亮（扣牌）",
        "半亮 (keep triplets hidden)",
        "亮倒时可以扣下不影响听牌的暗刻，别人只看到牌背。",
        "When declaring, concealed triplets that keep the waits may stay face down.",
        _ON_OFF,
    ),
    Option(
        "no_feed_liang_dao",
        (False, True),
        "table",
        "well",
        "不许打亮倒者要的牌",
        "No feeding a declared hand",
        "没亮倒的人手里有别的牌时，不能打亮倒者要和的牌。",
        "A seat that has not declared may not discard a declared hand's winning tile while it holds any other tile.",
        _ON_OFF,
    ),
    Option(
        "liang_dao_no_melds",
        (False, True),
        "table",
        "single",
        "碰杠后不能亮倒",
        "No 亮倒 after a meld",
        "有碰或杠以后不能亮倒（少于 12 张不能明）。",
        "A seat with a pong or kong may not declare 亮倒.",
        _ON_OFF,
    ),
    Option(
        "sha_ma",
        (False, True),
        "table",
        "single",
        "杀马",
        "杀马 (forced kongs)",
        "亮倒者亮出的刻子碰上第四张时自动开杠。",
        "A declared hand's face-up triplet is konged at once when its fourth tile comes.",
        _ON_OFF,
    ),
    Option(
        "self_draw_min_2",
        (False, True),
        "allowance",
        "single",
        "自摸至少 2 番",
        "Self-draw needs ×2",
        "没亮倒的人自摸至少要 2 番才能和。",
        "A seat that has not declared may self-draw only a win worth ×2 or more.",
        _ON_OFF,
    ),
    Option(
        "pinghu_selfdraw_only", (True, False), "allowance", "well", "屁胡只能自摸", "屁胡 self-draw only", "×1 的屁胡不能点炮和，只能自摸。", "A ×1 win (屁胡) may not be taken on a discard.", _ON_OFF
    ),
    Option("rob_kong", (True, False), "allowance", "well", "抢杠胡", "Robbing a kong", "别人蓄杠时能否抢杠和（×2）。", "Whether a 蓄杠 may be robbed (×2).", _ON_OFF),
    Option(
        "qing_yi_se_fours",
        (False, True),
        "fans",
        "single",
        "杠翻（清一色的四张）",
        "杠翻 (fours in 清一色)",
        "清一色里每个没开杠、也没算四归一的四张再 ×2。",
        "In 清一色, each four held without a kong and not already counted as 四归一 is a further ×2.",
        _ON_OFF,
    ),
    Option(
        "an_gang_chain_drawn_only",
        (False, True),
        "kong",
        "single",
        "暗杠杠上杠只算摸到的",
        "暗杠 chains only when drawn",
        "杠上杠里，暗杠只有杠的正是刚摸到的牌时才翻倍。",
        "In a 杠上杠 chain an 暗杠 is doubled only when the konged tile is the one just drawn.",
        _ON_OFF,
    ),
    Option(
        "no_feed_declaring_discard",
        (False, True),
        "table",
        "single",
        "亮倒时不能打别人要的牌",
        "No feeding with the declaring discard",
        "亮倒时打出的那张不能是已亮倒者要和的牌。",
        "The discard that declares 亮倒 may not be a tile an earlier declarer wins on.",
        _ON_OFF,
    ),
    Option(
        "no_feed_xu_gang",
        (False, True),
        "table",
        "single",
        "不能蓄杠亮倒者要的牌",
        "No 蓄杠 of a declared hand's tile",
        "不能把亮倒者要和的牌补成蓄杠（所以亮倒者不会抢杠）。",
        "No 蓄杠 of a tile a declared hand wins on (so a declared hand never robs a kong).",
        _ON_OFF,
    ),
)
OPTION_BY_KEY: Mapping[str, Option] = MappingProxyType({o.key: o for o in OPTIONS})


@dataclass(frozen=True, slots=True, eq=False)
class Preset:
    """A named rule set: its values, whether it is a frozen legacy preset.

    The options a room may switch, and the source of each value.

    A preset is known by its key: two presets are equal when their keys are, and one pickles as its key.
    """

    key: str
    name: str
    name_en: str
    values: RuleSet
    legacy: bool = False
    room: tuple[str, ...] = ()
    """The options a room may still switch (town-rules.md §3.3), in §1 order."""
    sources: Mapping[str, str] = field(default_factory=dict)
    """Where each value comes from (source keys of town-rules.md §0), by option."""
    note: str = ""
    note_en: str = ""
    couplings: Mapping[str, Mapping[OptionValue, Mapping[str, OptionValue]]] = field(default_factory=dict)
    """Room switches that set another option with them: option → value → {option: value} (§3.3)."""
    room_values: Mapping[str, tuple[OptionValue, ...]] = field(default_factory=dict)
    """The values a room may pick for a switch, where the town allows fewer than the option has (孝感's cap: 8 or 16)."""

    def choices(self, key: str) -> tuple[OptionValue, ...]:
        """The values a room of this preset may pick for ``key`` (the preset's own value alone when it is no room switch)."""
        if key not in self.room:
            return (self.values.value(key),)
        return self.room_values.get(key, OPTION_BY_KEY[key].values)

    def switch(self, current: RuleSet, key: str, value: OptionValue) -> RuleSet:
        """``current`` with a room switch turned (and what it is coupled to).

        Raises EngineError for a value the option does not take.
        """
        check_option(key, value)
        changes: dict[str, OptionValue] = {key: value}
        changes.update(self.couplings.get(key, {}).get(value, {}))
        return _changed(current, changes)

    def switched(self, switches: Mapping[str, Any]) -> RuleSet:
        """The preset's values with a room's switches turned, each with its couplings (§3.3), in the preset's room order.

        Raises EngineError for an option that is not one of its room switches or a value it does not take.
        """
        current = self.values
        for key in switches:
            if key not in self.room:
                raise EngineError(gettext_noop('"%(option)s" is not a room switch of these rules: use %(keys)s.'), "options", option=str(key)[:40], keys=", ".join(self.room) or "—")
        for key in self.room:
            if key in switches:
                current = self.switch(current, key, switches[key])
        return current

    def changed(self, rules: RuleSet) -> tuple[str, ...]:
        """The options on which ``rules`` differs from this preset (a room that changed them shows as "孝感（改）")."""
        return tuple(key for key in OPTION_KEYS if rules.value(key) != self.values.value(key))

    @property
    def cap(self) -> int | None:
        """The preset's cap."""
        return self.values.cap

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Preset) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return preset, (self.key,)


_TOWN = RuleSet(
    qi_dui_scale="4-8-16-32",
    cap=8,
    hai_di="none",
    liang_dao_double="winner_or_payer",
    bao_hu="off",
    hua_zhuang="cha_da_jiao",
    qing_yi_se_fours=True,
    an_gang_chain_drawn_only=True,
    no_feed_declaring_discard=True,
    no_feed_xu_gang=True,
)
"""What the six town presets share (GO-FR, the source of their structure)."""
_GO_FR_COMMON: Mapping[str, str] = MappingProxyType(
    {
        "qi_dui_scale": "GO-FR",
        "liang_dao_double": "GO-FR, JAVA-XX, NODE-A, NODE-B, PY-MJ2",
        "no_feed_declaring_discard": "GO-FR GameView",
        "no_feed_xu_gang": "GO-FR GameCaGang",
        "qing_yi_se_fours": "GO-FR getHuFans",
        "an_gang_chain_drawn_only": "GO-FR GangCard",
        "gang_shang_fan": "GO-FR TYPE_PPH (= 碰碰胡)",
        "piao_mode": "JS-CL",
    }
)
_ROOM_COMMON = ("mai_ma", "mai_ma_trigger", "piao_mode", "ban_liang", "no_feed_liang_dao")
_PPH_COUPLING: Mapping[OptionValue, Mapping[str, OptionValue]] = MappingProxyType({2: {"gang_shang_fan": 2}, 4: {"gang_shang_fan": 4}})
_CHANNEL_COUPLING: Mapping[OptionValue, Mapping[str, OptionValue]] = MappingProxyType({"all_fours": {"hai_di": "lao_and_pao"}, "winning_tile": {"hai_di": "none"}})
_CAP_ROOM: Mapping[str, tuple[OptionValue, ...]] = MappingProxyType({"cap": (8, 16)})
_DRAWN_ROOM: Mapping[str, tuple[OptionValue, ...]] = MappingProxyType({"cap": (8, 16), "hua_zhuang": ("cha_da_jiao", "first_declarer", "none")})


def _room(*keys: str) -> tuple[str, ...]:
    chosen = set(keys) | set(_ROOM_COMMON)
    return tuple(k for k in OPTION_KEYS if k in chosen)


def _sources(**by_key: str) -> Mapping[str, str]:
    return MappingProxyType({**_GO_FR_COMMON, **by_key})


_PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset("standard", "通用", "Standard", LEGACY, True, note="不封顶。", note_en="No cap."),
        Preset(
            "xiangyang",
            "襄阳/随州/枣阳",
            "Xiangyang / Suizhou / Zaoyang",
            replace(LEGACY, cap=8, cap_shuang_long_16=True),
            True,
            note="封顶 ×8；含双龙七对的和牌封顶 ×16。",
            note_en="Capped at ×8; a win with 双龙七对 is capped at ×16 instead.",
        ),
        Preset(
            "shiyan", "十堰", "Shiyan", replace(LEGACY, ka_wu_xing_fan=4, cap=8), True, note="卡五星 ×4；×8 为满和，不再往上算。", note_en="卡五星 is ×4; ×8 is the limit (满和), nothing above it."
        ),
        Preset(
            "xiaogan",
            "孝感",
            "Xiaogan",
            replace(_TOWN, ka_wu_xing_fan=4, peng_peng_hu_fan=4, gang_shang_fan=4, cap=16, shu_kan=True),
            room=_room("ka_wu_xing_fan", "peng_peng_hu_fan", "cap", "si_gui_yi_big_hand", "dui_liang_dui_fan", "shu_kan", "liang_dao_no_melds"),
            sources=_sources(
                ka_wu_xing_fan="GO-GOLD 孝感",
                peng_peng_hu_fan="GO-GOLD 孝感",
                cap="GO-GOLD",
                si_gui_yi="GO-FR OnInit (forced); NODE-A",
                hai_di="GO-FR (半频道)",
                dui_liang_dui_fan="JS-CL xg_dldf, GO-FR",
                bao_hu="GO-FR; NODE-A, NODE-B",
                hua_zhuang="GO-FR (forced); NODE-A, NODE-B",
                shu_kan="GO-GOLD, JS-CL 数坎（孝感玩法）",
                liang_dao_no_melds="NODE-A chkming",
            ),
            note="卡五星、碰碰胡、杠上开花 ×4，封顶 ×16，数坎，荒庄查大叫，亮倒的付款方也翻倍，不包胡。",
            note_en="卡五星, 碰碰胡 and 杠上开花 ×4, capped at ×16, 数坎, 查大叫 on a drawn hand, a declared payer pays double, no 包胡.",
            couplings={"peng_peng_hu_fan": _PPH_COUPLING},
            room_values=_CAP_ROOM,
        ),
        Preset(
            "xiangyang_town",
            "襄阳（地方规则）",
            "Xiangyang (town rules)",
            replace(_TOWN, cap_shuang_long_16=True, si_gui_yi="all_fours", hai_di="lao_and_pao", bao_hu="capped_sum", bao_hu_piao="both", bao_hu_kan="double"),
            room=_room("ka_wu_xing_fan", "peng_peng_hu_fan", "cap", "si_gui_yi", "hua_zhuang"),
            sources=_sources(
                ka_wu_xing_fan="GO-GOLD",
                peng_peng_hu_fan="GO-GOLD",
                cap="GO-GOLD, seed 001/003",
                cap_shuang_long_16="seed 001/003",
                si_gui_yi="GO-GOLD",
                hai_di="GO-FR (全频道)",
                bao_hu="GO-FR",
                bao_hu_piao="GO-FR",
                bao_hu_kan="GO-FR",
                hua_zhuang="GO-GOLD (forced in both 襄阳 presets); room: NODE-A, NODE-B, seed 000",
                hua_zhuang_first_pays="NODE-A, NODE-B, seed 000",
            ),
            note="全频道四归一，海底捞和海底炮，封顶 ×8（双龙七对 ×16），包胡合计封顶，荒庄查大叫。",
            note_en="Full-channel 四归一, 海底捞 and 海底炮, capped at ×8 (双龙七对 ×16), 包胡 capped on the sum, 查大叫 on a drawn hand.",
            couplings={"peng_peng_hu_fan": _PPH_COUPLING, "si_gui_yi": _CHANNEL_COUPLING},
            room_values=_DRAWN_ROOM,
        ),
        Preset(
            "shiyan_town",
            "十堰（地方规则）",
            "Shiyan (town rules)",
            replace(_TOWN, ka_wu_xing_fan=4, si_gui_yi="all_fours", hai_di="lao_and_pao", bao_hu="capped_sum", bao_hu_piao="both", bao_hu_kan="double", hua_zhuang_first_pays=2, shang_lou=True),
            room=_room("peng_peng_hu_fan", "si_gui_yi", "hua_zhuang", "shang_lou"),
            sources=_sources(
                ka_wu_xing_fan="NODE-A, seed 001/003, GO-GOLD",
                peng_peng_hu_fan="GO-GOLD",
                cap="seed 001/003 (满和), GO-GOLD",
                si_gui_yi="GO-GOLD",
                hai_di="GO-FR, NODE-A",
                bao_hu="GO-FR",
                bao_hu_piao="GO-FR",
                bao_hu_kan="GO-FR",
                hua_zhuang="GO-GOLD 十堰 preset; room: NODE-A",
                hua_zhuang_first_pays="NODE-A",
                shang_lou="JS-CL 上楼（十堰玩法）, GO-GOLD",
            ),
            note="卡五星 ×4，×8 满和，上楼（骰子成对 ×2），全频道，包胡合计封顶，荒庄查大叫。",
            note_en="卡五星 ×4, ×8 is the limit, 上楼 (a double on the dice ×2), full channel, 包胡 capped on the sum, 查大叫 on a drawn hand.",
            couplings={"peng_peng_hu_fan": _PPH_COUPLING, "si_gui_yi": _CHANNEL_COUPLING},
            room_values=_DRAWN_ROOM,
        ),
        Preset(
            "suizhou",
            "随州",
            "Suizhou",
            replace(_TOWN, cap_shuang_long_16=True, hua_zhuang="cha_da_jiao_suizhou", mai_ma="one", sha_ma=True),
            room=_room("ka_wu_xing_fan", "peng_peng_hu_fan", "cap"),
            sources=_sources(
                ka_wu_xing_fan="GO-FR default",
                cap="seed 001/003",
                cap_shuang_long_16="seed 001/003",
                si_gui_yi="GO-FR (forced)",
                bao_hu="GO-FR",
                hua_zhuang="GO-FR (forced)",
                mai_ma="GO-FR (forced ≥ 独马), JS-CL 随州默认独马",
                sha_ma="GO-FR gamekwx_kill",
            ),
            note="亮倒自摸买独马，杀马，封顶 ×8（双龙七对 ×16），荒庄查大叫（全听时后亮的收先亮的），不包胡。",
            note_en="One horse on a declared self-draw, 杀马, capped at ×8 (双龙七对 ×16), 查大叫 (随州 form), no 包胡.",
            couplings={"peng_peng_hu_fan": _PPH_COUPLING},
            room_values=MappingProxyType({"cap": (8, 16), "mai_ma": ("one", "six")}),
        ),
        Preset(
            "yicheng",
            "宜城",
            "Yicheng",
            replace(_TOWN, pao_qia_mo_ba=True),
            room=_room("ka_wu_xing_fan", "peng_peng_hu_fan", "cap", "pao_qia_mo_ba"),
            sources=_sources(ka_wu_xing_fan="GO-FR default", cap="GO-FR default", si_gui_yi="GO-FR (forced)", bao_hu="GO-FR", hua_zhuang="GO-FR (forced)", pao_qia_mo_ba="JS-CL 跑恰摸八（宜城玩法）"),
            note="跑恰摸八，封顶 ×8，荒庄查大叫，不包胡。",
            note_en="跑恰摸八, capped at ×8, 查大叫 on a drawn hand, no 包胡.",
            couplings={"peng_peng_hu_fan": _PPH_COUPLING},
            room_values=_CAP_ROOM,
        ),
        Preset(
            "yingcheng",
            "应城",
            "Yingcheng",
            replace(_TOWN, shou_zhua_yi_with_peng_peng_hu=False, ban_liang=True, self_draw_min_2=True),
            room=_room("ka_wu_xing_fan", "peng_peng_hu_fan", "cap", "si_gui_yi_big_hand", "dui_liang_dui_fan", "shu_kan"),
            sources=_sources(
                ka_wu_xing_fan="GO-FR default; GO-YC K5x4 switch",
                peng_peng_hu_fan="GO-YC PPx4 switch",
                shou_zhua_yi_fan="GO-YC",
                shou_zhua_yi_with_peng_peng_hu="GO-YC",
                cap="GO-FR default",
                si_gui_yi="GO-FR (forced)",
                bao_hu="GO-FR",
                hua_zhuang="GO-FR (forced)",
                ban_liang="GO-YC 暗铺",
                self_draw_min_2="GO-FR 应城自摸必须2番胡",
            ),
            note="半亮（暗铺），没亮倒自摸至少 2 番，手抓一不再算碰碰胡，封顶 ×8，荒庄查大叫，不包胡。",
            note_en="半亮 (hidden triplets), an undeclared self-draw needs ×2, 手抓一 without 碰碰胡, capped at ×8, 查大叫, no 包胡.",
            couplings={"peng_peng_hu_fan": _PPH_COUPLING},
            room_values=_CAP_ROOM,
        ),
    )
}
PRESETS: Mapping[str, Preset] = MappingProxyType(_PRESETS)
"""Every preset by key: the legacy three first, then the six towns (town-rules.md §3.2). A new town is one more :class:`Preset` here (``add_preset``)."""


def add_preset(new: Preset) -> None:
    """Add a town preset to :data:`PRESETS` (a new town is data: every reader of the presets sees it)."""
    if new.key in _PRESETS:
        raise ValueError(f"preset {new.key} exists")
    _PRESETS[new.key] = new


def remove_preset(key: str) -> None:
    """Take back a preset added by ``add_preset`` (the legacy and shipped town presets stay)."""
    if key in _SHIPPED:
        raise ValueError(f"preset {key} is shipped")
    del _PRESETS[key]


def town_presets() -> tuple[str, ...]:
    """The keys of the town presets, in order."""
    return tuple(k for k, p in PRESETS.items() if not p.legacy)


_SHIPPED = frozenset(_PRESETS)
LEGACY_PRESETS: tuple[str, ...] = tuple(k for k, p in _PRESETS.items() if p.legacy)
_LEGACY_RECORD_KEYS = ("pinghu_selfdraw_only", "rob_kong", "si_gui_yi_big_hand")
"""The three switches every record of a legacy preset has always written (kwx-rules.md)."""


def _changed(rules: RuleSet, changes: Mapping[str, Any]) -> RuleSet:
    """``rules`` with some options set (their values already checked)."""
    return replace(rules, **changes)


def preset(key: Any) -> Preset:
    """The preset named ``key`` (raises EngineError naming ``rules``)."""
    if not isinstance(key, str) or key not in PRESETS:
        raise EngineError(
            gettext_noop('Unknown rules "%(value)s": choose one of %(keys)s.'),
            "rules",
            value=str(key)[:40],
            keys=", ".join(PRESETS),
        )
    return PRESETS[key]


def check_option(key: Any, value: Any) -> OptionValue:
    """An option's value as given in JSON, checked (raises EngineError naming the option and the values it takes)."""
    option = OPTION_BY_KEY.get(key) if isinstance(key, str) else None
    if option is None:
        raise EngineError(gettext_noop('Unknown rule option "%(value)s": use %(keys)s.'), "options", value=str(key)[:40], keys=", ".join(OPTION_KEYS))
    if not any(value is v or (type(value) is type(v) and value == v) for v in option.values):
        raise EngineError(
            gettext_noop('The rule option "%(option)s" cannot be %(value)s: use %(values)s.'),
            "options",
            option=option.key,
            value=_shown(value),
            values=", ".join(_shown(v) for v in option.values),
        )
    return value  # type: ignore[no-any-return]


def _shown(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value[:40]}"'
    return str(value)[:40]


def read_option_text(key: str, text: str) -> OptionValue:
    """An option's value as typed in a URL or form (``true``, ``8``, ``none``, ``all_fours`` …), checked."""
    option = OPTION_BY_KEY.get(key)
    if option is None:
        return check_option(key, text)
    try:
        return _read_text(option, text)
    except EngineError as exc:
        raise EngineError(exc.template, key, **exc.params) from exc


def _read_text(option: Option, text: str) -> OptionValue:
    words = text.strip().lower()
    for v in option.values:
        if isinstance(v, bool):
            if words in (("true", "1", "on", "yes") if v else ("false", "0", "off", "no")):
                return v
        elif v is None:
            if words in ("none", "null", ""):
                return None
        elif str(v) == words:
            return v
    return check_option(option.key, text)


def checked_options(options: Any) -> dict[str, OptionValue]:
    """A request's or record's ``options`` object, every key and value checked (raises EngineError)."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise EngineError(gettext_noop("The options must be an object of rule options."), "options")
    return {key: check_option(key, value) for key, value in options.items()}


def resolve(rules: Any = "standard", options: Any = None) -> RuleSet:
    """A request's rules (§3.1): each option as the request gives it, else the preset's value.

    Where the preset is silent, its value is the legacy default.
    """
    chosen = preset(rules)
    given = checked_options(options)
    return _changed(chosen.values, given) if given else chosen.values


def stored(rules: Any = "standard", options: Any = None) -> RuleSet:
    """A stored record's rules (§3.1): each option as stored, else the legacy preset's value, else the legacy default.

    Never a town's current value.
    """
    chosen = preset(rules)
    given = checked_options(options)
    start = chosen.values if chosen.legacy else LEGACY
    return _changed(start, given) if given else start


def record_options(rules: str, values: RuleSet) -> dict[str, OptionValue]:
    """The ``options`` a record stores: every option under a town preset.

    Under a legacy preset its three historic switches and any option that differs.
    """
    chosen = preset(rules)
    if not chosen.legacy:
        return values.as_dict()
    return {key: values.value(key) for key in OPTION_KEYS if key in _LEGACY_RECORD_KEYS or values.value(key) != chosen.values.value(key)}


def label(rules: str, values: RuleSet, english: bool = False) -> str:
    """A rule set's name: the preset's, with "（改）" / " (changed)" when a room changed any option."""
    chosen = preset(rules)
    name = chosen.name_en if english else chosen.name
    if chosen.changed(values):
        return f"{name} (changed)" if english else f"{name}（改）"
    return name

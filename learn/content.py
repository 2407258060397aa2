"""What the learn pages show beyond the fan table: worked examples as data, the 口诀, the glossary.

Every figure a page states is a field here (the "claim"); tests/learn/test_content.py
recomputes each claim with the engine, so a page cannot state a wrong value. Fan names,
multipliers, definitions and the fan examples themselves come from ``kwx.hand.fans``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from analysis.board import analyzer_url
from kwx.hand.analysis import analyze
from kwx.hand.fans import FANS, Example, Side
from kwx.hand.notation import parse_tile
from kwx.hand.tiles import TILE_IDS
from kwx.rules import LEGACY_PRESETS, PRESETS
from kwx_site.drawing import DrawnHand, drawn_hand

KOUQUE_FILE = Path(__file__).resolve().parent / "data" / "kouque.txt"
"""The 口诀, one couplet a pair of lines (a copy of ../shared/kouque.txt, checked by tests/test_shared_copies.py)."""


# ---------------------------------------------------------------- hands as tiles and links


@dataclass(frozen=True, slots=True)
class WinResult:
    """What the engine says a win is worth: allowed, capped total, fan keys (with 四归一 tiles)."""

    allowed: bool
    total: int
    fans: tuple[tuple[str, int], ...]
    reason: str | None


def win_result(
    hand: str,
    win: str,
    side: Side = "self_draw",
    situation: tuple[str, ...] = (),
    rules: str = "standard",
    options: tuple[tuple[str, bool], ...] = (),
) -> WinResult | None:
    """The engine's value of winning ``hand`` on ``win`` (None if ``win`` does not complete it)."""
    body = analyze(hand, rules=rules, situation=situation, options=dict(options))
    tile = TILE_IDS[parse_tile(win)]
    for wait in body["waits"]:
        if wait["tile"] == tile:
            value = wait[side]
            return WinResult(
                value["allowed"],
                value["total"],
                tuple((f["key"], f["multiplier"]) for f in value["fans"]),
                value["reason"],
            )
    return None


# ---------------------------------------------------------------- worked examples (claims)


@dataclass(frozen=True, slots=True)
class ReadingClaim:
    """One reading of a winning hand as the page describes it: its fans and their product."""

    fans: tuple[str, ...]
    product: int
    label: Promise


@dataclass(frozen=True, slots=True)
class Worked:
    """A worked example: a win and the value the page claims for it (checked by the tests)."""

    key: str
    hand: str
    win: str
    total: int
    fans: tuple[str, ...]
    note: Promise
    side: Side = "self_draw"
    situation: tuple[str, ...] = ()
    rules: str = "standard"
    options: tuple[tuple[str, bool], ...] = ()
    allowed: bool = True
    readings: tuple[ReadingClaim, ...] = ()

    @property
    def drawn(self) -> DrawnHand:
        """The hand and its winning tile, ready to draw."""
        return drawn_hand(self.hand, self.win)

    @property
    def url(self) -> str:
        """The analyzer link of this hand."""
        return analyzer_url(self.hand, rules=self.rules, situation=self.situation)


COMBINATION_EXAMPLES: tuple[Worked, ...] = (
    Worked(
        "reading_qi_dui",
        "1122334456677p",
        "5p",
        16,
        ("qing_yi_se", "qi_dui"),
        _("The 5筒 completes both a seven-pairs reading and a standard reading (123 123 456 456 77). Each reading is scored on its own and the better one counts: 清一色 × 七对, not 清一色 × 卡五星."),
        readings=(
            ReadingClaim(("qing_yi_se", "qi_dui"), 16, _("seven pairs")),
            ReadingClaim(("qing_yi_se", "ka_wu_xing"), 8, _("123 123 456 456 + 77")),
        ),
    ),
    Worked(
        "reading_tie",
        "1122334455566p",
        "5p",
        32,
        ("an_si_gui_yi", "qing_yi_se", "ka_wu_xing"),
        _(
            "Two readings tie: as seven pairs the four 5筒 are two pairs (清一色 × 龙七对); as 123 123 456 456 + 55 "
            "the 5筒 is the middle of a 4-5-6 run and the fourth of three concealed 5筒 (清一色 × 卡五星 × 暗四归一). "
            "Either may be shown: the total is the same. The hand's other waits, 1筒, 4筒 and 6筒, are only 清一色."
        ),
        readings=(
            ReadingClaim(("qing_yi_se", "long_qi_dui"), 32, _("seven pairs, the four 5筒 as two pairs")),
            ReadingClaim(("an_si_gui_yi", "qing_yi_se", "ka_wu_xing"), 32, _("123 123 456 456 + 55")),
        ),
    ),
    Worked(
        "stack_shou_zhua_yi",
        "1p[ZZZ][FFF][BBB][444p]",
        "1p",
        64,
        ("peng_peng_hu", "da_san_yuan", "shou_zhua_yi"),
        _("Fans that do not exclude each other multiply: 手抓一 always comes with 碰碰胡, and three dragon pongs add 大三元."),
    ),
    Worked(
        "excludes_seven_pairs",
        "1122p3344sZZFFF",
        "F",
        8,
        ("long_qi_dui",),
        _("Seven-pairs fans replace each other: with one four of a kind it is 龙七对 alone, not 七对 × 龙七对, and no 暗四归一 is counted in a seven-pairs reading."),
    ),
    Worked(
        "pinghu_discard",
        "123456789p1178s",
        "6s",
        0,
        (),
        _("A win with no fan at all (屁胡, ×1) may only be self-drawn: on a discard it is not allowed."),
        side="discard",
        allowed=False,
    ),
    Worked(
        "pinghu_liang_dao",
        "123456789p1178s",
        "6s",
        2,
        ("liang_dao",),
        _("The same hand after 亮倒: the situational fan makes the product ×2, so the discard win is allowed."),
        side="discard",
        situation=("liang_dao",),
    ),
    Worked(
        "big_hand_option",
        "3333445678s[777s]",
        "2s",
        32,
        ("ming_si_gui_yi", "an_si_gui_yi", "qing_yi_se"),
        _(
            "Only with the rule option “四归一 in big hands” (大胡手上的四归也算, off in every preset): "
            "in a big hand such as 清一色 the four 3条 and the pong of 7条 plus the fourth 7条 also count. "
            "Without the option this win is 清一色 alone."
        ),
        options=(("si_gui_yi_big_hand", True),),
    ),
    Worked(
        "big_hand_option_off",
        "3333445678s[777s]",
        "2s",
        4,
        ("qing_yi_se",),
        _("The same win with the rule option off, as in every preset."),
    ),
)


@dataclass(frozen=True, slots=True)
class PresetRow:
    """One hand scored under every preset; ``totals`` are the capped totals the page claims."""

    key: str
    hand: str
    win: str
    totals: tuple[tuple[str, int], ...]
    note: Promise
    side: Side = "self_draw"
    situation: tuple[str, ...] = ()

    @property
    def drawn(self) -> DrawnHand:
        """The hand and its winning tile, ready to draw."""
        return drawn_hand(self.hand, self.win)

    def cells(self) -> list[dict[str, Any]]:
        """One cell per legacy preset, in their order: preset key, claimed total, analyzer link."""
        claimed = dict(self.totals)
        return [{"preset": p, "total": claimed[p], "url": analyzer_url(self.hand, rules=p, situation=self.situation)} for p in LEGACY_PRESETS]


PRESET_ROWS: tuple[PresetRow, ...] = (
    PresetRow("ka_wu_xing", "4556p123789sZZZ", "5p", (("standard", 2), ("xiangyang", 2), ("shiyan", 4)), _("卡五星 alone: %(ka_wu_xing.shiyan)s in 十堰.")),
    PresetRow(
        "ka_wu_xing_an_si",
        "2245556p123789s",
        "5p",
        (("standard", 8), ("xiangyang", 8), ("shiyan", 8)),
        _("卡五星 × 暗四归一: in 十堰 %(ka_wu_xing.shiyan)s × %(an_si_gui_yi.shiyan)s, held at the ×8 limit (满和)."),
    ),
    PresetRow("qi_dui_qing", "1122334456677p", "5p", (("standard", 16), ("xiangyang", 8), ("shiyan", 8)), _("清一色 × 七对 = ×16, capped at ×8 in both towns.")),
    PresetRow("shuang_long", "1122335555pBBB", "B", (("standard", 16), ("xiangyang", 16), ("shiyan", 8)), _("双龙七对: 襄阳 lets it reach ×16; 十堰 stops at ×8.")),
    PresetRow("shou_zhua_yi", "1p[ZZZ][FFF][BBB][444p]", "1p", (("standard", 64), ("xiangyang", 8), ("shiyan", 8)), _("大三元 × 碰碰胡 × 手抓一 = ×64 uncapped.")),
    PresetRow(
        "liang_dao",
        "4556p123789sZZZ",
        "5p",
        (("standard", 4), ("xiangyang", 4), ("shiyan", 8)),
        _("卡五星 won on a discard after 亮倒: the cap covers the whole product, 亮倒 included."),
        side="discard",
        situation=("liang_dao",),
    ),
)


@dataclass(frozen=True, slots=True)
class ShapeExample:
    """A complete hand on the shapes page, with the value the page claims for it."""

    key: str
    worked: Worked
    seven_pairs: bool


SHAPE_EXAMPLES: tuple[ShapeExample, ...] = (
    ShapeExample(
        "standard",
        Worked(
            "shape_standard",
            "4556p123789sZZZ",
            "5p",
            2,
            ("ka_wu_xing",),
            _("Four sets and a pair: runs 456筒, 123条, 789条, the pong 中中中 and the pair 55筒."),
        ),
        False,
    ),
    ShapeExample(
        "melds",
        Worked(
            "shape_melds",
            "46p11s[555p][FFF][BBB]",
            "5p",
            4,
            ("ming_si_gui_yi", "ka_wu_xing"),
            _("Declared melds count as sets: three pongs shown, 4-6筒 waiting in hand, 11条 as the pair. The winning 5筒 is the middle of 456 and the fourth 5筒 to the exposed pong."),
        ),
        False,
    ),
    ShapeExample(
        "seven_pairs",
        Worked(
            "shape_seven_pairs",
            "1122p334sZZFFBB",
            "4s",
            4,
            ("qi_dui",),
            _("Seven pairs, all concealed: the only shape that is not four sets and a pair."),
        ),
        True,
    ),
    ShapeExample(
        "seven_pairs_four",
        Worked(
            "shape_long",
            "1122p3344sZZFFF",
            "F",
            8,
            ("long_qi_dui",),
            _("A four of a kind counts as two pairs, as long as it is not declared as a kong."),
        ),
        True,
    ),
)


@dataclass(frozen=True, slots=True)
class NotationExample:
    """Typed text and the canonical form the page says it means (checked by parsing)."""

    typed: str
    canonical: str
    note: Promise


NOTATION_EXAMPLES: tuple[NotationExample, ...] = (
    NotationExample("4556p123789sZZZ", "4556p123789sZZZ", _("digits, then their suit letter; dragons as letters")),
    NotationExample("五筒 5饼 3条 三索", "55p33s", _("Chinese suit words and numerals are accepted")),
    NotationExample("中 发 發 白", "ZFFB", _("dragons as characters")),
    NotationExample("5z6z7z", "ZFB", _("the riichi convention: 5z 6z 7z are 白 发 中")),
    NotationExample("46p11s[555p][FFF]{BBBB}", "46p11s[555p][FFF]{BBBB}", _("melds after the concealed tiles")),
)


# ---------------------------------------------------------------- settlement worked numbers (§6)


@dataclass(frozen=True, slots=True)
class Payment:
    """One payment: from a seat to a seat, in units of the base stake."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True)
class SettlementExample:
    """A settlement worked example: what happened, and who pays whom what (the claim).

    ``kind`` is ``win`` (``wins``: each winner's seat and the win, whose claimed total is V;
    ``discarder`` empty for a self-draw), ``kong`` (``kongs``: a 杠上杠 chain of (an_gang / ming_gang /
    zhi_gang, owner, feeder, tile)) or ``draw`` (荒庄; ``declarers`` of 亮倒).
    """

    key: str
    kind: str
    title: Promise
    note: Promise
    payments: tuple[Payment, ...]
    wins: tuple[tuple[str, Worked], ...] = ()
    discarder: str = ""
    piao: tuple[tuple[str, int], ...] = ()
    kongs: tuple[tuple[str, str, str, str], ...] = ()
    declarers: tuple[str, ...] = ()

    def net(self) -> dict[str, int]:
        """Each seat's gain (positive) or loss (negative) from the payments."""
        out = {seat: 0 for seat in SEATS}
        for p in self.payments:
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
        return out


SEATS = ("A", "B", "C")
_KWX = "4556p123789sZZZ"
_KWX_SELF = Worked("settle_self", _KWX, "5p", 2, ("ka_wu_xing",), _("卡五星, self-drawn."))
_KWX_DISCARD = Worked("settle_discard", _KWX, "5p", 2, ("ka_wu_xing",), _("卡五星, on a discard."), side="discard")
_KWX_LIANG = Worked("settle_liang", _KWX, "5p", 4, ("ka_wu_xing", "liang_dao"), _("卡五星 after 亮倒, on a discard."), side="discard", situation=("liang_dao",))
_KWX_LIANG_B = Worked("settle_liang_b", "46p111456s777sFF", "5p", 4, ("ka_wu_xing", "liang_dao"), _("卡五星 after 亮倒, on a discard."), side="discard", situation=("liang_dao",))

SETTLEMENT_EXAMPLES: tuple[SettlementExample, ...] = (
    SettlementExample(
        "self_draw",
        "win",
        _("Self-draw"),
        _("A self-draws 卡五星 (×2): each of B and C pays V = 2."),
        (Payment("B", "A", 2), Payment("C", "A", 2)),
        wins=(("A", _KWX_SELF),),
    ),
    SettlementExample(
        "discard",
        "win",
        _("Win on a discard"),
        _("A wins 卡五星 (×2) on B's discard: B alone pays 2; C pays nothing."),
        (Payment("B", "A", 2),),
        wins=(("A", _KWX_DISCARD),),
        discarder="B",
    ),
    SettlementExample(
        "bao_hu",
        "win",
        _("Discard into a 亮倒 hand (包胡)"),
        _("A had declared 亮倒 and wins 卡五星 on B's discard: V = %(ka_wu_xing)s × %(liang_dao)s = 4, and B pays 2 × V = 8, as much as both would pay on a self-draw."),
        (Payment("B", "A", 8),),
        wins=(("A", _KWX_LIANG),),
        discarder="B",
    ),
    SettlementExample(
        "double",
        "win",
        _("One discard, two winners (一炮双响)"),
        _("C discards a 5筒 that both A (卡五星, ×2) and B (卡五星 after 亮倒, ×4, so 包胡) win on: C pays each winner separately, 2 to A and 8 to B. C deals the next hand."),
        (Payment("C", "A", 2), Payment("C", "B", 8)),
        wins=(("A", _KWX_DISCARD), ("B", _KWX_LIANG_B)),
        discarder="C",
    ),
    SettlementExample(
        "piao",
        "win",
        _("漂"),
        _("A chose 漂 1 and B chose 漂 2; C chose 0. A self-draws 卡五星 (×2): B pays 2 + 1 + 2 = 5, C pays 2 + 1 + 0 = 3."),
        (Payment("B", "A", 5), Payment("C", "A", 3)),
        wins=(("A", _KWX_SELF),),
        piao=(("A", 1), ("B", 2), ("C", 0)),
    ),
    SettlementExample(
        "an_gang",
        "kong",
        _("Concealed kong (暗杠)"),
        _("A declares a concealed kong: B and C each pay A 2."),
        (Payment("B", "A", 2), Payment("C", "A", 2)),
        kongs=(("an_gang", "A", "", "3p"),),
    ),
    SettlementExample(
        "xu_gang",
        "kong",
        _("Adding to a pong (蓄杠)"),
        _("A adds the fourth tile to an exposed pong: B and C each pay A 1."),
        (Payment("B", "A", 1), Payment("C", "A", 1)),
        kongs=(("ming_gang", "A", "", "3p"),),
    ),
    SettlementExample(
        "zhi_gang",
        "kong",
        _("Kong on a discard (直杠)"),
        _("A holds three concealed and kongs B's discard: B pays A 2; C pays nothing."),
        (Payment("B", "A", 2),),
        kongs=(("zhi_gang", "A", "B", "3p"),),
    ),
    SettlementExample(
        "gang_shang_gang",
        "kong",
        _("杠上杠"),
        _("A declares a concealed kong (B and C pay 2 each), and the replacement tile lets A declare another concealed kong at once: the second kong's money is doubled, 4 from each."),
        (Payment("B", "A", 2), Payment("C", "A", 2), Payment("B", "A", 4), Payment("C", "A", 4)),
        kongs=(("an_gang", "A", "", "3p"), ("an_gang", "A", "", "7s")),
    ),
    SettlementExample(
        "huang_one",
        "draw",
        _("荒庄 with one 亮倒"),
        _("The wall runs out with nobody winning; only A had declared 亮倒: A pays B 1 and C 1. Kong money already paid stays paid."),
        (Payment("A", "B", 1), Payment("A", "C", 1)),
        declarers=("A",),
    ),
    SettlementExample(
        "huang_two",
        "draw",
        _("荒庄 with two 亮倒"),
        _("A and B had both declared 亮倒: each pays C 1, and A and B pay each other nothing."),
        (Payment("A", "C", 1), Payment("B", "C", 1)),
        declarers=("A", "B"),
    ),
)


# ---------------------------------------------------------------- the fan table, for the fans page


@dataclass(frozen=True, slots=True)
class FanExampleView:
    """A fan example from the engine's table, with the engine's value of it and its links."""

    example: Example
    drawn: DrawnHand
    result: WinResult | None
    url: str


@cache
def fan_examples(fan_key: str) -> tuple[FanExampleView, ...]:
    """The engine's examples of one fan, each with what the engine computes for it."""
    fan = next(f for f in FANS if f.key == fan_key)
    return tuple(
        FanExampleView(
            e,
            drawn_hand(e.hand, e.win),
            win_result(e.hand, e.win, e.side, e.situation, e.rules),
            analyzer_url(e.hand, rules=e.rules, situation=e.situation),
        )
        for e in fan.examples
    )


# ---------------------------------------------------------------- 口诀


@dataclass(frozen=True, slots=True)
class Couplet:
    """One couplet of the 口诀: its number (from 1), its two lines."""

    number: int
    first: str
    second: str


@dataclass(frozen=True, slots=True)
class CoupletNote:
    """What a couplet teaches; ``manners`` for verses about the table rather than the play."""

    text: Promise
    themes: tuple[str, ...] = ()
    manners: bool = False
    see: tuple[tuple[str, Promise], ...] = field(default=())


@lru_cache(maxsize=1)
def couplets() -> tuple[Couplet, ...]:
    """The couplets of the repo's copy of the 口诀 (comment lines skipped)."""
    lines = [line.strip() for line in KOUQUE_FILE.read_text(encoding="utf-8").splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return tuple(Couplet(i // 2 + 1, lines[i], lines[i + 1]) for i in range(0, len(lines) - 1, 2))


def couplet(number: int) -> Couplet | None:
    """The couplet with this number, or None."""
    found = couplets()
    return found[number - 1] if 1 <= number <= len(found) else None


_PLAY = "/learn/play/"
_FANS = "/learn/fans/"
COUPLET_NOTES: dict[int, CoupletNote] = {
    1: CoupletNote(
        _(
            "Do not grab every small win: a ready hand worth little can often be turned into a bigger one "
            "(a 4-6 wait for 卡五星, a 七对) if you keep drawing. But chasing only 碰碰胡 is a poor plan: "
            "it is worth just %(peng_peng_hu)s, every pong shows your hand, and the same pairs are usually better kept for 七对 (%(qi_dui)s). "
            "Mind 漏胡 when you pass a win."
        ),
        ("value", "seven_pairs"),
        see=((_FANS + "#peng_peng_hu", _("碰碰胡")), (_PLAY + "#lou-hu", _("漏胡"))),
    ),
    2: CoupletNote(
        _(
            "Going for 清一色 and also hunting kongs asks too much of one hand: pick one plan. "
            "Declaring 亮倒 as soon as you are ready doubles your win and makes a discard into your hand cost "
            "its thrower double (包胡), at the price of a locked hand whose waits everyone can see."
        ),
        ("pure_suit",),
        see=((_FANS + "#qing_yi_se", _("清一色")), (_PLAY + "#liang-dao", _("亮倒"))),
    ),
    3: CoupletNote(
        _(
            "In a 七对 hand never declare a kong of a four: kept concealed, the four counts as two pairs and "
            "lifts 七对 to 龙七对. A seven-pairs wait is always a single tile (单吊), at most three copies left; "
            "showing it with 亮倒 takes nerve."
        ),
        ("seven_pairs",),
        see=((_FANS + "#long_qi_dui", _("龙七对")),),
    ),
    4: CoupletNote(
        _(
            "With four melds declared and one tile left (手抓一) you can no longer defend: every tile you draw "
            "that does not win must go out, whatever it feeds. Accept it; if your pair tile comes, 手抓一 with "
            "碰碰胡 is a big win: %(shou_zhua_yi)s × %(peng_peng_hu)s."
        ),
        ("value",),
        see=((_FANS + "#shou_zhua_yi", _("手抓一")),),
    ),
    5: CoupletNote(
        _(
            "Watch the dragons. A lone 中, 发 or 白 is worth keeping: released late it can complete someone's "
            "小三元 or 大三元; kept, it may become your pair or pong, and even if it never does, the others wait for it in vain."
        ),
        ("dragons",),
        see=((_FANS + "#xiao_san_yuan", _("小三元")), (_FANS + "#da_san_yuan", _("大三元"))),
    ),
    6: CoupletNote(
        _(
            "A hand found to be a tile short (相公) can never win, so do not panic and do not give up: kong money "
            "is paid whatever the result, so kongs (and 杠上杠) are still worth making; only beware of discarding "
            "into a win right after your own kong (杠上炮)."
        ),
        see=((_PLAY + "#gang-shang-gang", _("杠上杠")), ("/learn/settlement/#kong-money", _("kong money"))),
    ),
    7: CoupletNote(
        _(
            "A kong gives a replacement draw that may make you ready, and then 亮倒 doubles the win: a shrewd line. "
            "Winning on that replacement tile is 杠上开花 (%(gang_shang_kai_hua)s); the danger is the tile you must discard after the "
            "kong: if someone wins on it, that is 杠上炮 (%(gang_shang_pao)s) and you pay."
        ),
        see=((_FANS + "#gang_shang_kai_hua", _("杠上开花")), (_FANS + "#gang_shang_pao", _("杠上炮"))),
    ),
    8: CoupletNote(
        _(
            "Never throw a dangerous tile into a big hand just to chase a small win of your own. When your hand "
            "is going nowhere, follow: discard tiles already passed safely (跟牌). A drawn hand (荒庄) costs little; "
            "the next one starts fresh."
        ),
        see=((_PLAY + "#lou-hu", _("漏胡")), (_PLAY + "#huang-zhuang", _("荒庄"))),
    ),
    9: CoupletNote(
        _("Dealing into two wins at once (一炮双响) hurts: you pay each winner. Keep calm: after a double win the discarder deals next, so aim to keep the deal and win it back."),
        see=((_PLAY + "#dealer", _("dealer rotation")), ("/learn/settlement/#win-money", _("payments"))),
    ),
    10: CoupletNote(
        _("About the table, not the tiles: a player who mutters and complains loses friends, and one who smokes heavily over the game soon finds nobody wants to sit with them."),
        manners=True,
    ),
    11: CoupletNote(
        _("Temperament: win without gloating, lose without giving up."),
        manners=True,
    ),
    12: CoupletNote(
        _(
            "Winning on a 5 between 4 and 6 is the game's namesake fan, %(ka_wu_xing)s (%(ka_wu_xing.shiyan)s in 十堰). Building and keeping a "
            "hand that waits on that middle five shows planning: the 4-6 shape, the 4556 and 4688 shapes."
        ),
        ("ka_wu_xing", "efficiency"),
        see=((_FANS + "#ka_wu_xing", _("卡五星")),),
    ),
    13: CoupletNote(
        _("Attitude, said with a smile: whoever takes each win or loss to heart stays where they are; whoever can let it go gets ahead."),
        manners=True,
    ),
    14: CoupletNote(
        _("卡五星 is loved across Hubei; after a meal and a drink the table is hard to leave."),
        manners=True,
        see=(("/learn/#history", _("where the game comes from")),),
    ),
    15: CoupletNote(
        _("To play well, learn the verses and practise: memorise them below, and drill the shapes until reading a hand is second nature."),
        ("ka_wu_xing",),
    ),
}


# ---------------------------------------------------------------- glossary


@dataclass(frozen=True, slots=True)
class Term:
    """A glossary entry: the Chinese term, its reading, a short gloss and where it is explained."""

    term: str
    pinyin: str
    gloss: Promise
    url: str


def _fan_term(key: str, pinyin: str, gloss: Promise) -> Term:
    name = next(f.name for f in FANS if f.key == key)
    return Term(name, pinyin, gloss, _FANS + "#" + key)


def _plain(pinyin: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", pinyin) if not unicodedata.combining(c))


GLOSSARY: tuple[Term, ...] = tuple(
    sorted(
        (
            Term("卡五星", "kǎ wǔ xīng", _("the game; also its namesake fan, winning on a 5 between 4 and 6"), "/learn/"),
            Term("筒", "tǒng", _("dots, one of the two suits (also 饼)"), "/learn/tiles/#suits"),
            Term("条", "tiáo", _("bamboo, the other suit (also 索)"), "/learn/tiles/#suits"),
            Term("箭牌", "jiàn pái", _("the dragons 中 发 白"), "/learn/tiles/#suits"),
            Term("庄", "zhuāng", _("the dealer"), _PLAY + "#dealer"),
            Term("顺子", "shùn zi", _("a run of three in one suit"), "/learn/shapes/#standard"),
            Term("刻子", "kè zi", _("three of a kind"), "/learn/shapes/#standard"),
            Term("将", "jiàng", _("the pair of a standard hand"), "/learn/shapes/#standard"),
            Term("碰", "pèng", _("taking a discard to make an exposed triplet"), _PLAY + "#calls"),
            Term("明杠", "míng gàng", _("an exposed kong (直杠 or 蓄杠)"), _PLAY + "#calls"),
            Term("暗杠", "àn gàng", _("a concealed kong of four drawn tiles"), _PLAY + "#calls"),
            Term("直杠", "zhí gàng", _("konging a discard with three concealed"), _PLAY + "#calls"),
            Term("蓄杠", "xù gàng", _("adding the fourth tile to one's own pong"), _PLAY + "#calls"),
            Term("听牌", "tīng pái", _("a ready hand: one tile from winning"), "/learn/shapes/#ready"),
            Term("单吊", "dān diào", _("waiting on the partner of a single tile"), "/learn/shapes/#ready"),
            Term("自摸", "zì mō", _("winning on one's own draw"), "/learn/settlement/#win-money"),
            Term("点炮", "diǎn pào", _("a win on another player's discard; the discarder pays"), "/learn/settlement/#win-money"),
            Term("番", "fān", _("a fan: a multiplier on the base stake"), _FANS),
            Term("底金", "dǐ jīn", _("the base stake every payment is counted in"), "/learn/settlement/"),
            Term("屁胡", "pì hú", _("a win with no fan (×1), self-draw only"), _FANS + "#combining"),
            Term("封顶", "fēng dǐng", _("the cap on the total multiplier"), _FANS + "#presets"),
            Term("满和", "mǎn hé", _("the limit win of 十堰, ×8"), _FANS + "#presets"),
            Term("亮倒", "liàng dǎo", _("revealing a ready hand; doubles the win"), _PLAY + "#liang-dao"),
            Term("包胡", "bāo hú", _("discarding into a 亮倒 hand: the discarder pays double"), "/learn/settlement/#win-money"),
            Term("漏胡", "lòu hú", _("passing a win on a discard, and what it forbids"), _PLAY + "#lou-hu"),
            Term("荒庄", "huāng zhuāng", _("a drawn hand: the wall runs out, nobody wins (also 黄庄)"), _PLAY + "#huang-zhuang"),
            Term("海底", "hǎi dǐ", _("the last tile of the wall"), _PLAY + "#hai-di"),
            Term("杠上杠", "gàng shàng gàng", _("a kong right after a kong; its money doubles"), _PLAY + "#gang-shang-gang"),
            Term("一炮双响", "yí pào shuāng xiǎng", _("one discard, two winners"), "/learn/settlement/#win-money"),
            Term("喜钱", "xǐ qián", _("kong money, paid whatever the result"), "/learn/settlement/#kong-money"),
            Term("漂", "piào", _("an extra stake each player may add before a hand"), "/learn/settlement/#piao"),
            Term("相公", "xiàng gong", _("a hand with the wrong number of tiles; it can never win"), "/learn/koujue/#couplet-6"),
            Term("跟牌", "gēn pái", _("discarding a tile just passed safely by another player"), "/learn/koujue/#couplet-8"),
            _fan_term("peng_peng_hu", "pèng pèng hú", _("all triplets")),
            _fan_term("ming_si_gui_yi", "míng sì guī yī", _("the fourth tile to an exposed pong")),
            _fan_term("an_si_gui_yi", "àn sì guī yī", _("the fourth tile to a concealed triplet")),
            _fan_term("qi_dui", "qī duì", _("seven pairs")),
            _fan_term("long_qi_dui", "lóng qī duì", _("seven pairs with a four of a kind")),
            _fan_term("shuang_long_qi_dui", "shuāng lóng qī duì", _("seven pairs with two fours")),
            _fan_term("da_san_yuan", "dà sān yuán", _("three dragon pongs")),
            _fan_term("xiao_san_yuan", "xiǎo sān yuán", _("two dragon pongs and a dragon pair")),
            _fan_term("qing_yi_se", "qīng yí sè", _("one suit, no dragons")),
            _fan_term("shou_zhua_yi", "shǒu zhuā yī", _("four melds, one tile in hand")),
            _fan_term("gang_shang_kai_hua", "gàng shàng kāi huā", _("self-draw on a kong's replacement tile")),
            _fan_term("gang_shang_pao", "gàng shàng pào", _("a win on the discard after a kong")),
            _fan_term("qiang_gang_hu", "qiǎng gàng hú", _("winning on the tile added to a pong")),
            _fan_term("hai_di_lao", "hǎi dǐ lāo", _("self-draw of the last tile")),
        ),
        key=lambda t: _plain(t.pinyin),
    )
)


def fan_values() -> dict[str, str]:
    """Each fan's value as prose shows it, read from the fan table: ``ka_wu_xing`` (通用) and ``ka_wu_xing.shiyan``."""
    values = {f.key: f"×{f.multiplier()}" for f in FANS}
    values.update({f"{f.key}.{key}": f"×{f.multiplier(p.values)}" for f in FANS for key, p in PRESETS.items()})
    return values


def filled(text: Promise | str) -> str:
    """Prose in the active language with its fan values (``%(qi_dui)s``) filled in from the fan table."""
    return str(text) % fan_values() if "%(" in str(text) else str(text)


def every_worked() -> tuple[Worked, ...]:
    """Every worked example with a claimed value, on whichever page it appears."""
    settle = tuple(w for s in SETTLEMENT_EXAMPLES for _, w in s.wins)
    return COMBINATION_EXAMPLES + tuple(s.worked for s in SHAPE_EXAMPLES) + settle

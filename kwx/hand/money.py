"""The money of one win payment (town-rules.md §2.1 steps 2–6): the pure per-payment arithmetic, in one place.

The settlement (``kwx.table.settlement``), the analyzer's waits and their value (``kwx.hand.efficiency``)
and the bots all price a win through these functions: the pair multiplier (亮倒 by winner or payer,
对亮对番), 上楼, the cap, 包胡, and the flat extras a win decides (坎, 跑恰摸八, 马). Amounts here are
per unit of base stake; 漂 is the caller's (it belongs to the seats, not to the win).
:func:`side_money` is one side of a wait (自摸 or 点炮) as the analyzer shows it and values it
(town-rules.md §4 "Analyzer").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import NamedTuple

from kwx.hand.rules import Rules
from kwx.hand.scoring import WinValue
from kwx.hand.tiles import DRAGONS, Counts, Hand
from kwx.rules import RuleSet

# ---- one payment's multiplier: town-rules.md §2.1 steps 2–5 -----------------------------------


def pair_multiplier(fan_product: int, winner_declared: bool, payer_declared: bool, rules: RuleSet) -> int:
    """Step 2: F ×2 when the winner declared (or that payer, under ``winner_or_payer``), a further ×2 for 对亮对番."""
    m = fan_product
    if winner_declared or (payer_declared and rules.liang_dao_double == "winner_or_payer"):
        m *= 2
    if winner_declared and payer_declared and rules.dui_liang_dui_fan:
        m *= 2
    return m


def dice_factor(rules: RuleSet, dice: tuple[int, int] | None) -> int:
    """Step 3, 上楼: ×2 on a double of the deal's dice when ``shang_lou`` is on."""
    return 2 if rules.shang_lou and dice is not None and dice[0] == dice[1] else 1


def capped(multiplier: int, cap: int | None) -> int:
    """Step 4: the multiplier under the reading's cap."""
    return multiplier if cap is None or multiplier <= cap else cap


def payer_multiplier(value: WinValue, winner_declared: bool, payer_declared: bool, rules: RuleSet, dice: tuple[int, int] | None = None) -> int:
    """M for one payer of an ordinary (not 包胡) win payment: steps 2–4."""
    return capped(dice_factor(rules, dice) * pair_multiplier(value.fan_product, winner_declared, payer_declared, rules), value.cap)


def bao_hu_applies(rules: RuleSet, winner_declared: bool, discarder_declared: bool) -> bool:
    """Whether a discard-type win is 包胡 (§1.5): ``on`` when the winner declared, ``capped_sum`` when only the winner did."""
    if rules.bao_hu == "on":
        return winner_declared
    if rules.bao_hu == "capped_sum":
        return winner_declared and not discarder_declared
    return False


def bao_hu_halves(value: WinValue, discarder_declared: bool, third_declared: bool, rules: RuleSet, dice: tuple[int, int] | None = None) -> tuple[int, int, int]:
    """Step 5 for a declared winner: (the discarder's half, the third's half, M).

    Each half ×上楼 and capped on its own (``on``) or the sum capped (``capped_sum``).
    """
    factor = dice_factor(rules, dice)
    to_discarder = factor * pair_multiplier(value.fan_product, True, discarder_declared, rules)
    to_third = factor * pair_multiplier(value.fan_product, True, third_declared, rules)
    if rules.bao_hu == "capped_sum":
        return to_discarder, to_third, capped(to_discarder + to_third, value.cap)
    first, second = capped(to_discarder, value.cap), capped(to_third, value.cap)
    return first, second, first + second


def discard_allowed(value: WinValue, payer_declared: bool, rules: RuleSet) -> bool:
    """Whether a discard-type win may be taken from this payer.

    §1.8: 屁胡 wins on a declared payer's discard under ``winner_or_payer``.
    """
    if value.allowed:
        return True
    return value.reason == "pinghu" and payer_declared and rules.liang_dao_double == "winner_or_payer"


# ---- the flat extras of a win: §1.6 -------------------------------------------------------------


def ba_count(hand: Hand, kind: int) -> int:
    """八 of 跑恰摸八: the tiles of the winner's largest group (筒, 条, the dragons; melds and the winning tile included) beyond 7."""
    held = list(hand.held)
    held[kind] += 1
    largest = max(sum(held[0:9]), sum(held[9:18]), sum(held[18:21]))
    return largest - 7 if largest >= 8 else 0


def pao_qia_mo_ba_parts(value: WinValue, hand: Hand, kind: int, self_draw: bool) -> tuple[int, int, int, int]:
    """跑, 恰, 摸 and 八 one by one: 跑 1, 恰 the 坎 count, 摸 1 on a self-draw, 八 the largest group beyond 7."""
    return 1, value.kan, 1 if self_draw else 0, ba_count(hand, kind)


def pao_qia_mo_ba(value: WinValue, hand: Hand, kind: int, self_draw: bool) -> int:
    """跑 1 + 恰 (the 坎 count) + 摸 (1 on a self-draw) + 八."""
    return sum(pao_qia_mo_ba_parts(value, hand, kind, self_draw))


def horse_score(horses: tuple[int, ...], win: int, rules: RuleSet) -> int:
    """马 (§1.6): 独马 scores its number (a dragon 10).

    六马 scores its hits (the winning tile's 1-4-7/2-5-8/3-6-9 group, or a dragon; a dragon win: dragons only), 6
    when none of six hits.
    """
    if rules.mai_ma == "one":
        return sum(10 if h in DRAGONS else h % 9 + 1 for h in horses)
    if rules.mai_ma != "six":
        return 0
    if win in DRAGONS:
        hits = sum(1 for h in horses if h in DRAGONS)
    else:
        hits = sum(1 for h in horses if h in DRAGONS or h % 9 % 3 == win % 9 % 3)
    return 6 if hits == 0 and len(horses) == 6 else hits


def buys_horses(rules: RuleSet, self_draw: bool, winner_declared: bool) -> bool:
    """Whether this win turns horses: a self-draw, and under the ``liang_dao`` trigger only by a declared winner."""
    return rules.buys_horses and self_draw and (rules.mai_ma_trigger == "any" or winner_declared)


def horses_due(rules: RuleSet, wall_left: int) -> int:
    """How many horses a qualifying self-draw turns: one or six, or as many as the wall still holds."""
    return min(rules.horse_count, wall_left)


def expected_horse_score(win: int, unseen: tuple[int, ...], rules: RuleSet) -> float:
    """The mean 马 over the unseen tiles, weighted by copies left.

    The analyzer's estimate for a self-draw; 六马 counts each horse's chance to hit.
    """
    total = sum(unseen)
    if total == 0 or not rules.buys_horses:
        return 0.0
    if rules.mai_ma == "one":
        return sum(n * horse_score((k,), win, rules) for k, n in enumerate(unseen)) / total
    hit = sum(n for k, n in enumerate(unseen) if (k in DRAGONS if win in DRAGONS else (k in DRAGONS or k % 9 % 3 == win % 9 % 3))) / total
    draws = min(6, total)
    none = (1 - hit) ** draws
    return draws * hit + (6 * none if draws == 6 else 0.0)


def has_flat_extras(rules: RuleSet) -> bool:
    """Whether a win adds a flat extra the wait decides (数坎, 跑恰摸八 or 买马): otherwise a side's amount is its total."""
    return rules.shu_kan or rules.pao_qia_mo_ba or rules.buys_horses


def after_win(unseen: Counts, win: int) -> Counts:
    """The unseen copies once the winning tile is drawn (what the horses are turned from)."""
    return unseen[:win] + (max(0, unseen[win] - 1),) + unseen[win + 1 :]


# ---- one payment, part by part: §2.1 steps 2–7 (the settlement, the analyzer and the bots all read it) ----

KONG_MONEY: Mapping[str, int] = MappingProxyType({"an_gang": 2, "ming_gang": 1, "zhi_gang": 2})
"""Kong money (喜钱) per paying player: 暗杠 2 from each other, 明杠(蓄杠) 1 from each other, 直杠 2 from the feeder."""
WIN_PARTS: Mapping[str, int] = MappingProxyType({"self_draw": 1, "discard": 1, "qiang_gang_hu": 1, "bao_hu": 2})
"""The fan part of a payment by how it was won, and how many times the win's value it pays in the legacy reading (包胡: 2·V, §6)."""
PAYMENT_KINDS = ("win", "kong", "liang_dao", "cha_da_jiao")
PART_GROUPS: Mapping[str, str] = MappingProxyType(
    {
        **{key: "fan" for key in WIN_PARTS},
        "cha_da_jiao": "fan",
        "piao": "piao",
        "kan": "kan",
        "ma": "ma",
        "pao_qia_mo_ba": "pao_qia_mo_ba",
        **{key: "kong" for key in KONG_MONEY},
        "huang_zhuang": "flat",
        "first_declarer": "flat",
    }
)
"""Each part key's group in an answer's ``parts`` (town-rules.md §6): fan, piao, kan, ma, pao_qia_mo_ba, kong, flat."""


@dataclass(frozen=True, slots=True)
class Part:
    """One reason inside a payment: a key (``self_draw``, ``piao``, ``an_gang`` …), its amount and numbers."""

    key: str
    amount: int
    numbers: tuple[tuple[str, int], ...] = ()

    def number(self, name: str) -> int:
        """One of the numbers behind the part (KeyError if absent)."""
        return dict(self.numbers)[name]

    @property
    def group(self) -> str:
        """The part's group in an answer's ``parts``: fan, piao, kan, ma, pao_qia_mo_ba, kong or flat."""
        return PART_GROUPS[self.key]


@dataclass(frozen=True, slots=True)
class WinExtras:
    """What a win adds beside its fans: 坎 (None: 数坎 off), 跑恰摸八 (None: off), 马 (None: no horses bought), and whether it was 包胡."""

    kan: int | None = None
    pao_qia_mo_ba: int | None = None
    ma: int | None = None
    bao_hu: bool = False


def fan_part(key: str, multiplier: int, base: int, **numbers: int) -> Part:
    """The part of a payment its multiplier pays (``key``: how it was won), × base."""
    return Part(key, multiplier * base, (("multiplier", multiplier), *numbers.items(), ("base", base)))


def piao_part(winner: int, payer: int, base: int) -> Part:
    """The 漂 of a payment: the winner's and the payer's, × base."""
    return Part("piao", (winner + payer) * base, (("winner", winner), ("payer", payer), ("base", base)))


def win_extras(value: WinValue, hand: Hand, kind: int, rules: RuleSet, *, self_draw: bool, winner_declared: bool, discarder_declared: bool = False, horses: tuple[int, ...] = ()) -> WinExtras:
    """The flat extras one win decides (§1.6).

    Its 坎 (数坎), 跑恰摸八, 马 (the horses turned, when bought) and whether a discard win is 包胡.
    """
    return WinExtras(
        kan=value.kan if rules.shu_kan else None,
        pao_qia_mo_ba=pao_qia_mo_ba(value, hand, kind, self_draw) if rules.pao_qia_mo_ba else None,
        ma=horse_score(horses, kind, rules) if buys_horses(rules, self_draw, winner_declared) else None,
        bao_hu=not self_draw and bao_hu_applies(rules, winner_declared, discarder_declared),
    )


def _flat_parts(extras: WinExtras, base: int, kan_times: int = 1) -> list[Part]:
    """坎, 马 and 跑恰摸八 of one win payment (step 6), each × base."""
    parts = []
    if extras.kan:
        parts.append(Part("kan", extras.kan * kan_times * base, (("kan", extras.kan), ("times", kan_times), ("base", base))))
    if extras.ma:
        parts.append(Part("ma", extras.ma * base, (("ma", extras.ma), ("base", base))))
    if extras.pao_qia_mo_ba:
        parts.append(Part("pao_qia_mo_ba", extras.pao_qia_mo_ba * base, (("points", extras.pao_qia_mo_ba), ("base", base))))
    return parts


def win_parts(
    value: WinValue,
    extras: WinExtras,
    rules: RuleSet,
    *,
    self_draw: bool,
    winner_declared: bool,
    payer_declared: bool,
    third_declared: bool = False,
    rob: bool = False,
    piao: tuple[int, int, int] = (0, 0, 0),
    dice: tuple[int, int] | None = None,
    base: int = 1,
) -> tuple[Part, ...]:
    """One payer's payment for one win by §2.1: the capped multiplier (包胡 when it applies), then 漂, 坎, 马, 跑恰摸八.

    ``piao`` is (winner, payer, third).
    """
    winner, payer, third = piao
    if not self_draw and bao_hu_applies(rules, winner_declared, payer_declared):
        to_d, to_t, m = bao_hu_halves(value, payer_declared, third_declared, rules, dice)
        legacy_halves = rules.bao_hu == "on" and capped(to_d, value.cap) == capped(to_t, value.cap)
        part = fan_part("bao_hu", m // 2, base) if legacy_halves else fan_part("bao_hu", m, base, discarder=to_d, third=to_t)
        parts = [replace(part, amount=m * base)]
        if winner + payer:
            parts.append(piao_part(winner, payer, base))
        if rules.bao_hu_piao == "both" and winner + third:
            parts.append(piao_part(winner, third, base))
        return (*parts, *_flat_parts(extras, base, 2 if rules.bao_hu_kan == "double" else 1))
    m = payer_multiplier(value, winner_declared, payer_declared, rules, dice)
    parts = [fan_part("self_draw" if self_draw else "qiang_gang_hu" if rob else "discard", m, base)]
    if winner + payer:
        parts.append(piao_part(winner, payer, base))
    return (*parts, *_flat_parts(extras, base))


class SideMoney(NamedTuple):
    """One way of winning a wait (自摸 or 点炮) in money per base stake, every 漂 0 (town-rules.md §4 "Analyzer").

    ``total`` is M towards a payer who did not declare (0 when not allowed: WinValue.total),
    ``declared_total`` M towards a payer who declared 亮倒 (0 when not allowed from one; it
    differs from ``total`` only under ``winner_or_payer``, or where a declared hand's discard
    win from a declared discarder is a 包胡). ``kan`` (数坎), ``pao_qia_mo_ba`` and
    ``expected_ma`` (a self-draw that buys horses: the mean horse score over the unseen tiles)
    are None where the rules do not count them. ``bao_hu`` is M of the discard side of a declared
    hand when the rules have 包胡 (the discarder and the third seat not declared), else None;
    ``declared_bao_hu`` says the win from a declared discarder is a 包胡.
    ``amount``, ``declared_amount`` and ``bao_hu_amount`` are those payments whole (``win_parts``,
    the expected 马 added), 0 or None where the win is not allowed from that payer.
    """

    allowed: bool
    total: int
    declared_allowed: bool
    declared_total: int
    kan: int | None = None
    pao_qia_mo_ba: int | None = None
    expected_ma: float | None = None
    bao_hu: int | None = None
    amount: float = 0
    declared_amount: float = 0
    bao_hu_amount: float | None = None
    declared_bao_hu: bool = False

    @property
    def extras(self) -> float:
        """The flat extras of one payment: 坎 + 跑恰摸八 + the expected 马."""
        return (self.kan or 0) + (self.pao_qia_mo_ba or 0) + (self.expected_ma or 0)


def side_money(value: WinValue, hand: Hand, kind: int, self_draw: bool, rules: Rules, unseen: Counts | None = None) -> SideMoney:
    """One side of winning the 13-tile ``hand`` on ``kind`` (``value`` from ``score_win`` under ``rules``).

    Priced by §2.1 steps 2–6 (``win_parts``).

    The seat's own 亮倒 is ``liang_dao`` in the rules' situation; no other seat declared but the
    payer where ``declared_*`` says so. ``unseen`` (the copies left of each kind, the winning
    tile's included) gives the expected 马 of a self-draw that buys horses.
    """
    options = rules.options
    declared = "liang_dao" in rules.situation
    extras = replace(win_extras(value, hand, kind, options, self_draw=self_draw, winner_declared=declared), ma=None)
    ma = expected_horse_score(kind, after_win(unseen, kind), options) if self_draw and unseen is not None and buys_horses(options, True, declared) else None

    def paid(payer_declared: bool) -> float:
        parts = win_parts(value, extras, options, self_draw=self_draw, winner_declared=declared, payer_declared=payer_declared)
        whole = sum(p.amount for p in parts)
        return whole if ma is None else whole + ma

    declared_allowed = value.allowed or (not self_draw and discard_allowed(value, True, options))
    declared_bao = not self_draw and declared and declared_allowed and bao_hu_applies(options, True, True)
    if declared_bao:
        declared_total = bao_hu_halves(value, True, False, options)[2]
    else:
        declared_total = payer_multiplier(value, declared, True, options) if declared_allowed else 0
    bao = bao_hu_halves(value, False, False, options)[2] if not self_draw and declared and value.allowed and bao_hu_applies(options, True, False) else None
    return SideMoney(
        value.allowed,
        value.total if value.allowed else 0,
        declared_allowed,
        declared_total,
        extras.kan,
        extras.pao_qia_mo_ba,
        ma,
        bao,
        paid(False) if value.allowed else 0,
        paid(True) if declared_allowed else 0,
        paid(False) if bao is not None else None,
        declared_bao,
    )


def side_amounts(hand: Hand, kind: int, self_draw: WinValue, discard: WinValue, rules: Rules, unseen: Counts) -> float:
    """A wait's worth per copy for the value (town-rules.md §4).

    Self-draw amount + discard amount, each what one undeclared payer pays per base, 漂 0.
    """
    if not has_flat_extras(rules.options):
        return self_draw.total + discard.total
    return side_money(self_draw, hand, kind, True, rules, unseen).amount + side_money(discard, hand, kind, False, rules, unseen).amount

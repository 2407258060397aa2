"""The towns' pages: every rule option per preset in words with the strength of its source, and the worked examples
of town-rules.md §5 (the public vectors W1–W20, a copy in ``data/towns.json``) settled by the engine.

Nothing here states a figure: every value is read from ``kwx.rules`` and every payment is the settlement's own.
The presets are iterated, never listed, so a town added with ``kwx.rules.add_preset`` has its column and its page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from analysis.board import analyzer_url
from kwx.hand.analysis import build_hand
from kwx.hand.fans import FAN_BY_KEY
from kwx.hand.scoring import WinValue
from kwx.hand.tiles import TILE_IDS, Hand
from kwx.rules import LEGACY, OPTION_BY_KEY, OPTIONS, PRESETS, Option, OptionValue, Preset, RuleSet, resolve
from kwx.rules import label as rules_label
from kwx.table.settlement import RANK_DECLARED, RANK_NOT_READY, RANK_READY, RANK_SECOND, Settlement, settle_json
from kwx_site.drawing import drawn_hand
from kwx_site.text import tile_label
from settlement.forms import DEFAULT_NAMES, KONG_LABELS, calculator_fields
from settlement.text import part_text
from settlement.vectors import api_request

VECTORS_FILE = Path(__file__).resolve().parent / "data" / "towns.json"
"""The public town vectors (a copy of ../shared/vectors/towns.json, checked by tests/test_shared_copies.py)."""
WORKED = re.compile(r"W\d+")
"""The ids of town-rules.md §5's worked examples among the vectors."""

STRENGTHS: Mapping[str, Promise] = {"well": _("well sourced"), "single": _("single-source"), "conflicting": _("sources conflict")}
"""``Option.strength`` in words."""
STEPS: tuple[tuple[str, Promise], ...] = (
    ("fans", _("Fans: what a win is worth")),
    ("multiplier", _("Per payer: 亮倒 and 上楼")),
    ("cap", _("The cap (封顶)")),
    ("bao_hu", _("包胡: a discard into a declared hand")),
    ("extras", _("Flat extras: 坎, horses, 跑恰摸八")),
    ("draw", _("A drawn hand (荒庄)")),
    ("kong", _("Kong money")),
    ("allowance", _("Which wins are allowed")),
    ("table", _("At the table")),
)
"""The groups of the comparison table, by ``Option.step``, in the order a payment is worked out."""


# ---------------------------------------------------------------- sources (town-rules.md §0)


@dataclass(frozen=True, slots=True)
class Source:
    """A source key of town-rules.md §0 as the pages name it: its short name (the key, or words for the seed notes) and what it is."""

    key: str
    about: Promise
    words: Promise | None = None

    @property
    def name(self) -> str:
        """The source's name on a page."""
        return str(self.words) if self.words is not None else self.key


SOURCES: tuple[Source, ...] = (
    Source("GO-FR", _("a commercial game server's friend rooms, one room type per town; the structure of every town preset")),
    Source("GO-GOLD", _("the same vendor's coin rooms, with fixed rules per town")),
    Source("JS-CL", _("the same vendor's app, whose room screen names each town's options")),
    Source("NODE-A", _("a room server with 孝感, 襄阳, 十堰, 随州 and 应城 room types")),
    Source("NODE-B", _("a second, unrelated room server")),
    Source("JAVA-XX", _("a third vendor's 卡五星 rooms")),
    Source("PY-MJ2", _("卡五星 inside a mahjong framework (its vendor unverified)")),
    Source("GO-YC", _("a program for 应城's 卡五星")),
    Source("GO-QP", _("another vendor's 卡五星 table")),
    Source("XG-HOBBY", _("a 孝感 hobby server")),
    Source("seed", _("the players' rule notes this site started from (000, 001, 003)"), _("seed notes")),
)
SOURCE_BY_KEY: Mapping[str, Source] = {s.key: s for s in SOURCES}
_SOURCE_PATTERN = re.compile("|".join(re.escape(s.key) for s in SOURCES))


def source_keys(text: str) -> tuple[str, ...]:
    """The sources a preset's ``sources`` entry names (``"GO-GOLD, seed 001/003"`` → GO-GOLD, seed), in order, once each."""
    return tuple(dict.fromkeys(_SOURCE_PATTERN.findall(text)))


# ---------------------------------------------------------------- options per preset


def compared_presets() -> tuple[Preset, ...]:
    """The comparison table's columns: every town preset, then the legacy default for reference."""
    towns = tuple(p for p in PRESETS.values() if not p.legacy)
    return towns + tuple(p for p in PRESETS.values() if p.legacy and p.values == LEGACY)[:1]


@dataclass(frozen=True, slots=True)
class Cell:
    """One option under one preset: its value in words, whether it is the legacy value, whether a room may switch it, its sources."""

    preset: str
    value: OptionValue
    label: str
    legacy: bool
    room: bool
    sources: tuple[str, ...]

    def source_names(self) -> list[str]:
        """The cell's sources by name."""
        return [SOURCE_BY_KEY[k].name for k in self.sources]


def cell(option: Option, preset: Preset, english: bool) -> Cell:
    """``option``'s value under ``preset`` in words."""
    value = preset.values.value(option.key)
    return Cell(preset.key, value, option.label(value, english), value == option.legacy, option.key in preset.room, source_keys(preset.sources.get(option.key, "")))


@dataclass(frozen=True, slots=True)
class OptionRow:
    """An option in plain words (the active language, its Chinese name first) and its value under each preset."""

    option: Option
    name: str
    meaning: str
    strength: Promise
    cells: tuple[Cell, ...]


def option_row(option: Option, presets: Sequence[Preset], english: bool) -> OptionRow:
    """One row of the comparison: the option in words, one cell per preset."""
    return OptionRow(
        option,
        option.name,
        option.meaning_en if english else option.meaning,
        STRENGTHS.get(option.strength, _("sources conflict")),
        tuple(cell(option, p, english) for p in presets),
    )


def option_groups(presets: Sequence[Preset], english: bool) -> list[tuple[str, Promise, list[OptionRow]]]:
    """Every option of ``kwx.rules.OPTIONS`` as a row, grouped by where it acts (``STEPS``); an option of a step not named there comes last under its own key."""
    named = dict(STEPS)
    order = [key for key, _words in STEPS] + sorted({o.step for o in OPTIONS} - set(named))
    groups = []
    for step in order:
        rows = [option_row(o, presets, english) for o in OPTIONS if o.step == step]
        if rows:
            groups.append((step, named.get(step, _("Other options")), rows))
    return groups


def differences(preset: Preset, english: bool) -> list[dict[str, Any]]:
    """The options on which ``preset`` differs from the legacy default: each in words, with the legacy value, its strength and sources."""
    out = []
    for option in OPTIONS:
        here = cell(option, preset, english)
        if here.legacy:
            continue
        out.append(
            {
                "row": option_row(option, (preset,), english),
                "cell": here,
                "legacy_label": option.label(option.legacy, english),
            }
        )
    return out


def room_switches(preset: Preset, english: bool) -> list[dict[str, Any]]:
    """The options a room may still switch under ``preset``: the preset's value and what a switch sets with it (``kwx.rules`` does not say which other values a room may pick)."""
    out = []
    for key in preset.room:
        option = OPTION_BY_KEY[key]
        value = preset.values.value(key)
        coupled = sorted({k for changes in preset.couplings.get(key, {}).values() for k in changes})
        out.append(
            {
                "key": key,
                "name": option.name,
                "name_en": option.name_en,
                "value": option.label(value, english),
                "coupled": [OPTION_BY_KEY[k].name for k in coupled],
            }
        )
    return out


def changed_options(rules: str, values: RuleSet, english: bool) -> list[tuple[str, str]]:
    """The options a worked example turns away from its preset, as (name, value in words)."""
    return [(OPTION_BY_KEY[k].name, OPTION_BY_KEY[k].label(values.value(k), english)) for k in PRESETS[rules].changed(values)]


UNKNOWN: Mapping[str, Promise] = {
    "xiaogan": _("Whether tables usually play 对亮对番; a 孝感 hobby server's own tiers for fours in 清一色."),
    "xiangyang_town": _("Whether tables settle a drawn hand by 查大叫 or by the first declarer paying 1: apps do both (a room switch here)."),
    "shiyan_town": _("Whether 上楼 is on by default (a room switch here); one app's drawn-hand rule for 十堰 seems to pay only the first declarer's 2."),
    "suizhou": _("查大叫 (one vendor) or another app's flat payments on a drawn hand; when 杀马 applies together with 半亮."),
    "yicheng": _("No source says anything of 宜城 beyond 跑恰摸八."),
    "yingcheng": _("Whether a drawn hand is paid by the first declarer or by 查大叫; the default of the 卡五星 ×4 switch."),
}
"""What the sources leave open for a town (town-rules.md §3.4), by preset key; a preset without an entry shows none."""


# ---------------------------------------------------------------- worked examples (town-rules.md §5)


@dataclass(frozen=True, slots=True)
class Words:
    """What a worked example shows, in words (no figure: the figures are the engine's)."""

    title: Promise
    note: Promise


EXAMPLE_WORDS: Mapping[str, Words] = {
    "W1": Words(_("Self-draw 卡五星 with 漂"), _("Each payer pays the multiplier plus the winner's 漂 and their own.")),
    "W2": Words(_("包胡 under the legacy rules"), _("A declared hand wins on a discard: the discarder pays both shares, each capped on its own, and 漂 once.")),
    "W3": Words(_("双龙七对 above the cap"), _("The legacy 襄阳 preset caps a win at ×8, but a 双龙七对 may reach ×16.")),
    "W4": Words(_("十堰 (legacy): 包胡 at the limit"), _("卡五星 is ×4 in 十堰; 亮倒 doubles it to the limit (满和), and 包胡 pays two shares.")),
    "W5": Words(_("孝感: 坎 and a declared payer"), _("碰碰胡 is ×4 in 孝感. Each payment adds the winner's 坎, and the payer who declared 亮倒 pays double.")),
    "W6": Words(_("孝感 with 对亮对番"), _("Winner and discarder both declared: the multiplier is doubled and doubled again, up to the cap. 孝感 has no 包胡.")),
    "W7": Words(
        _("孝感: a drawn hand settled by 查大叫"),
        _(
            "At the end of the wall each ready hand collects its best win from every lower-ranked seat: a ready hand that did not declare ranks above a declarer, and a hand that is not ready ranks lowest."
        ),
    ),
    "W8": Words(_("襄阳: 包胡 capped on the sum"), _("The discarder pays both shares, but the two are capped together; 漂 is added for both shares.")),
    "W9": Words(
        _("襄阳: full channel and 海底炮"),
        _(
            "Under full channel (全频道) the four 2筒 count as 暗四归一 though the winning tile is not one of them, and a win on the last discard is 海底炮. Under the legacy rules this is a 屁胡, which may not win on a discard."
        ),
    ),
    "W10": Words(_("十堰: 上楼"), _("A double on the dice doubles every win payment's multiplier this hand, before the cap; kong money and 漂 are not doubled.")),
    "W11": Words(
        _("十堰: 查大叫 with two declarers"),
        _("The ready hand that did not declare collects from both declarers; the two declarers rank equal and pay each other nothing. Kong money is paid as always."),
    ),
    "W12": Words(_("随州: one horse (独马)"), _("A declared hand self-draws, and one horse is turned from the wall: its number is added to each payment.")),
    "W13": Words(_("随州: 查大叫 with everyone ready"), _("When all three hands are ready, the later declarer also collects from the first one.")),
    "W14": Words(_("宜城: 跑恰摸八"), _("跑 (a win), 恰 (the 坎), 摸 (a self-draw) and 八 (each tile of the largest group beyond seven) are added flat.")),
    "W15": Words(_("应城: 手抓一 without 碰碰胡"), _("In 应城 手抓一 does not also count 碰碰胡. The 暗杠 earns its kong money besides.")),
    "W16": Words(_("Six horses (六马) on any self-draw"), _("Each horse in the winning tile's group (1-4-7, 2-5-8, 3-6-9), and each dragon, scores one.")),
    "W17": Words(_("孝感: 杠上开花 after 杠上杠"), _("杠上开花 is ×4 in 孝感; both kongs count as 坎, and the second kong of the chain earns double kong money.")),
    "W18": Words(
        _("襄阳: one discard, two winners"),
        _("The discarder pays each winner on their own: the declared winner as 包胡, the other winner being the third seat, and the other as an ordinary discard win."),
    ),
    "W19": Words(
        _("十堰 (legacy): a declared hand robs a kong"),
        _("抢杠胡 doubled by 亮倒 and paid as 包胡; the robbed kong earns nothing. The town presets refuse a 蓄杠 of a declared hand's winning tile, so this happens only under the legacy preset."),
    ),
    "W20": Words(_("A drawn hand under the legacy rules"), _("Each declarer pays each player who did not declare one base stake.")),
}
"""What each worked example shows, by id; its hands, rules and figures come from the vector and the engine."""


@dataclass(frozen=True, slots=True)
class TownExample:
    """A worked example of town-rules.md §5: its id, the vector's request and the nets town-rules.md gives."""

    id: str
    request: Mapping[str, Any]
    nets: tuple[int, ...]

    @property
    def rules(self) -> str:
        """The preset it is settled under."""
        return str(self.request.get("rules", "standard"))

    @property
    def words(self) -> Words | None:
        """Its title and note, when the pages have words for it."""
        return EXAMPLE_WORDS.get(self.id)

    def settled(self, names: Sequence[str]) -> Settlement:
        """The engine's settlement of the example (players named ``names``)."""
        return settle_json(api_request(self.request, names))

    def rule_set(self) -> RuleSet:
        """The preset with the example's options."""
        return resolve(self.rules, self.request.get("options"))


@cache
def worked_examples() -> tuple[TownExample, ...]:
    """The worked examples among the public vectors, in their order."""
    cases = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))["cases"]
    return tuple(TownExample(c["id"], c["request"], tuple(c["expect"]["nets"])) for c in cases if WORKED.fullmatch(c["id"]))


def examples_of(preset: str) -> tuple[TownExample, ...]:
    """The worked examples settled under ``preset``."""
    return tuple(e for e in worked_examples() if e.rules == preset)


def full_hand(hand: str, melds: Sequence[Mapping[str, Any]] = ()) -> Hand:
    """A vector's hand and its melds as one hand (melds in brackets when written out)."""
    return build_hand(hand, list(melds) if melds else (), check_size=False)[0]


# ---------------------------------------------------------------- links


def calculator_link(request: Mapping[str, Any]) -> str:
    """The settlement calculator with a vector's hand filled in and settled (the calculator's own ``calculator_fields``)."""
    return reverse("settle") + "?" + urlencode(calculator_fields(request, [str(n) for n in DEFAULT_NAMES]), doseq=True)


def analyzer_link(hand: Hand, rules: str, values: RuleSet, situation: Sequence[str] = ()) -> str:
    """The analyzer with a hand's 13 tiles under the example's rules (every option that differs from the preset in the query)."""
    start = PRESETS[rules].values
    options = {k: values.value(k) for k in PRESETS[rules].changed(values)} if values != start else {}
    return analyzer_url(hand, rules=rules, situation=situation, options=options)


# ---------------------------------------------------------------- a worked example as the page shows it


RANKS: Mapping[int, Promise] = {
    RANK_NOT_READY: _("not ready"),
    RANK_DECLARED: _("declared 亮倒"),
    RANK_SECOND: _("declared 亮倒 later, everyone ready"),
    RANK_READY: _("ready, not declared"),
}
"""查大叫 ranks in words."""


def _fans(value: WinValue) -> list[dict[str, Any]]:
    """A value's fans for ``learn/_fans.html``, 亮倒 left out (F is the product of the others)."""
    return [{"key": f.key, "name": FAN_BY_KEY[f.key].name, "multiplier": f.multiplier} for f in value.fans if f.key != "liang_dao"]


def _how(result: Settlement, seat: int, side: str, names: Sequence[str]) -> str:
    inp = result.input
    if side == "self_draw":
        return str(_("self-draw (自摸)"))
    who = names[inp.discarder] if inp.discarder is not None else ""
    if inp.result == "rob_kong":
        return str(_("robbing %(name)s's kong (抢杠胡)") % {"name": who})
    return str(_("on %(name)s's discard") % {"name": who})


def _wins(example: TownExample, result: Settlement, names: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for win, extras in zip(result.wins, result.extras):
        shown_extras = [(_("坎"), extras.kan), (_("马"), extras.ma), (_("跑恰摸八"), extras.pao_qia_mo_ba)]
        out.append(
            {
                "name": names[win.seat],
                "drawn": drawn_hand(win.hand, TILE_IDS[win.kind]),
                "how": _how(result, win.seat, win.side, names),
                "declared": win.seat in result.input.liang_dao,
                "fans": _fans(win.value),
                "f": win.value.fan_product,
                "extras": [(label, n) for label, n in shown_extras if n is not None],
                "bao_hu": extras.bao_hu,
                "analyzer": analyzer_link(win.hand, example.rules, result.rules, sorted(win.situation)),
            }
        )
    return out


def _ready(example: TownExample, result: Settlement, names: Sequence[str]) -> list[dict[str, Any]]:
    """A drawn hand's seats: each one's tiles where given, its best wait and value under 查大叫, and whether it declared."""
    inp = result.input
    ranks = {r.seat: r for r in result.ready}
    out = []
    for seat in range(3):
        hand = inp.hands[seat] if inp.hands else None
        ready = ranks.get(seat)
        item: dict[str, Any] = {"name": names[seat], "declared": seat in inp.liang_dao, "drawn": drawn_hand(hand) if hand is not None else None, "rank": None}
        if ready is not None:
            item["rank"] = RANKS.get(ready.rank, str(ready.rank))
            if ready.value is not None and ready.kind is not None:
                item.update(wait=TILE_IDS[ready.kind], fans=_fans(ready.value), f=ready.value.fan_product, kan=ready.value.kan if result.rules.shu_kan else None)
        if hand is not None:
            item["analyzer"] = analyzer_link(hand, example.rules, result.rules, ("liang_dao",) if item["declared"] else ())
        if hand is not None or item["declared"]:
            out.append(item)
    return out


def shown_example(example: TownExample, english: bool) -> dict[str, Any]:
    """A worked example ready to draw: its setup in words, the hands, F and the extras, every payment with its parts, the nets and its links (all computed by the engine)."""
    names = [str(n) for n in DEFAULT_NAMES]
    result = example.settled(names)
    inp = result.input
    words = example.words
    calculator = calculator_link(example.request)
    kongs = [" ".join(filter(None, (names[k.seat], str(KONG_LABELS[k.type]), tile_label(TILE_IDS[k.kind]), str(_("杠上杠")) if k.chain > 1 else ""))) for k in inp.kongs]
    return {
        "id": example.id,
        "title": words.title if words else example.id,
        "note": words.note if words else "",
        "rules": rules_label(example.rules, result.rules, english),
        "changed": changed_options(example.rules, result.rules, english),
        "piao": [(names[i], p) for i, p in enumerate(inp.piao)] if any(inp.piao) else [],
        "liang_dao": [names[s] for s in inp.liang_dao],
        "dice": "-".join(map(str, inp.dice)) if inp.dice else "",
        "horses": [TILE_IDS[k] for k in inp.horses] if inp.horses else [],
        "kongs": kongs,
        "draw": inp.result == "draw",
        "wins": _wins(example, result, names),
        "seats": _ready(example, result, names) if inp.result == "draw" else [],
        "payments": [{"payer": names[p.payer], "payee": names[p.payee], "amount": p.amount, "kind": p.kind, "parts": [part_text(x) for x in p.parts]} for p in result.payments],
        "nets": [(names[i], result.nets[i]) for i in range(3)],
        "calculator": calculator,
    }

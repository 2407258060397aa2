"""Words for settlement figures (both languages) and the JSON body of ``/api/v1/settle/``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kwx.errors import EngineError
from kwx.hand.serial import fans_json  # the analysis API's fan objects, shared
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.table.settlement import Part, Payment, Settlement, WinnerInputError
from kwx_site.text import tile_label

PART_LABELS = {
    "self_draw": gettext_noop("self-draw (自摸)"),
    "discard": gettext_noop("discard win (点炮)"),
    "bao_hu": gettext_noop("包胡 (discard on a 亮倒 hand, paid double)"),
    "qiang_gang_hu": gettext_noop("抢杠胡 (robbed kong)"),
    "piao": gettext_noop("漂 (piao)"),
    "an_gang": gettext_noop("暗杠 (concealed kong)"),
    "ming_gang": gettext_noop("明杠 (added kong, 蓄杠)"),
    "zhi_gang": gettext_noop("直杠 (kong on a discard)"),
    "huang_zhuang": gettext_noop("荒庄: 亮倒 pays the others"),
    "first_declarer": gettext_noop("荒庄: the first to declare 亮倒 pays"),
    "cha_da_jiao": gettext_noop("查大叫 (a ready hand collects its best win)"),
    "kan": gettext_noop("坎 (数坎)"),
    "ma": gettext_noop("马 (horses)"),
    "pao_qia_mo_ba": gettext_noop("跑恰摸八"),
}
RESULT_LABELS = {
    "draw": gettext_noop("荒庄 (drawn hand)"),
    "self_draw": gettext_noop("自摸 (self-draw)"),
    "discard": gettext_noop("点炮 (discard win)"),
    "bao_hu": gettext_noop("包胡 (a discard won on a 亮倒 hand: the discarder pays double)"),
    "double": gettext_noop("一炮双响 (one discard, two winners)"),
    "rob_kong": gettext_noop("抢杠胡 (robbing a kong)"),
}


def _base(base: int) -> str:
    return "" if base == 1 else " × " + _("base %(base)d") % {"base": base}


def part_formula(part: Part) -> str:
    """The arithmetic of one reason, e.g. ``×8 × 2 = 16`` or ``1+2 = 3``."""
    n = dict(part.numbers)
    if part.key == "piao":
        core = f"{n['winner']}+{n['payer']}"
        core = core if n["base"] == 1 else f"({core})"
    elif "discarder" in n:  # 包胡 whose two halves differ, or capped on their sum
        core = f"(×{n['discarder']} + ×{n['third']})"
        core += f" → ×{n['multiplier']}" if n["discarder"] + n["third"] != n["multiplier"] else ""
    elif part.key == "bao_hu":
        core = f"×{n['multiplier']} × 2"
    elif "multiplier" in n:
        core = f"×{n['multiplier']}"
    elif part.key == "huang_zhuang":
        core = "1"
    elif part.key == "kan":
        core = str(n["kan"]) + (f" × {n['times']}" if n["times"] > 1 else "")
    elif part.key in ("ma", "pao_qia_mo_ba"):
        core = str(n.get("ma", n.get("points")))
    elif part.key == "first_declarer":
        core = str(n["money"])
    else:
        core = str(n["money"]) + (" × " + _("%(times)d (杠上杠)") % {"times": n["chain"]} if n["chain"] > 1 else "")
    return f"{core}{_base(n['base'])} = {part.amount}"


def part_text(part: Part) -> str:
    """One reason in words: ``自摸 ×8 = 8``, ``漂 1+2 = 3``, ``暗杠 五筒 2 = 2``."""
    label = _(PART_LABELS[part.key])
    if part.key in ("an_gang", "ming_gang", "zhi_gang"):
        label = f"{label} {tile_label(TILE_IDS[part.number('tile')])}"
    return f"{label} {part_formula(part)}"


def error_text(error: EngineError) -> str:
    """A refused hand in the active language, a tile by its name (七筒, 7 of dots) rather than its id (7p)."""
    if isinstance(error, WinnerInputError):
        return _(error.template) % {"player": error.params["player"], "problem": error_text(error.cause)}
    params = dict(error.params)
    if "name" not in params and params.get("tile") in KIND_OF_ID:  # a message with "%(tile)s (%(name)s)" has both already
        params["tile"] = tile_label(params["tile"])
    text = _(error.template)
    return text % params if params else text


def result_label(settlement: Settlement) -> str:
    """荒庄 / 自摸 / 点炮 / 包胡 / 一炮双响 / 抢杠胡 in the active language (包胡 named whenever a 亮倒 hand won on a discard)."""
    inp = settlement.input
    kind = inp.result
    bao_hu = any(e.bao_hu for e in settlement.extras)
    if kind == "discard" and len(settlement.wins) == 2:
        kind = "double"
    elif kind == "discard" and bao_hu:
        return _(RESULT_LABELS["bao_hu"])
    label = _(RESULT_LABELS[kind])
    return f"{label} · {_(RESULT_LABELS['bao_hu'])}" if bao_hu else label


def payment_json(payment: Payment, names: tuple[str, ...]) -> dict[str, Any]:
    """One payment as the settle API shows it: names, amount, kind, parts by group, reasons with their words."""
    return {
        "payer": names[payment.payer],
        "payee": names[payment.payee],
        "amount": payment.amount,
        "kind": payment.kind,
        "parts": payment.grouped(),
        "reasons": [{"key": p.key, "amount": p.amount, "numbers": dict(p.numbers), "text": part_text(p)} for p in payment.parts],
        "text": " · ".join(part_text(p) for p in payment.parts),
    }


def _win_json(settlement: Settlement, index: int) -> dict[str, Any]:
    """One win: who, how, its capped multiplier (towards a payer who did not declare), F, fans, 坎 and the extras it decides."""
    inp, w = settlement.input, settlement.wins[index]
    extras = settlement.extras[index]
    out: dict[str, Any] = {
        "player": inp.players[w.seat],
        "side": w.side,
        "tile": TILE_IDS[w.kind],
        "multiplier": w.value.total,
        "product": w.value.product,
        "fan_product": w.value.fan_product,
        "fans": fans_json(w.value),
        "value": w.amount(inp.base),
        "kan": extras.kan or 0,
        "bao_hu": extras.bao_hu,
    }
    if extras.ma is not None:
        out["ma"] = extras.ma
    if extras.pao_qia_mo_ba is not None:
        out["pao_qia_mo_ba"] = extras.pao_qia_mo_ba
    return out


def _ready_json(settlement: Settlement) -> list[dict[str, Any]]:
    """Each seat at a drawn hand under 查大叫: its best wait and value (None when not ready) and its rank."""
    names = settlement.input.players
    out = []
    for r in settlement.ready:
        item: dict[str, Any] = {"player": names[r.seat], "ready": r.value is not None, "rank": r.rank}
        if r.value is not None and r.kind is not None:
            item.update(tile=TILE_IDS[r.kind], fans=fans_json(r.value), fan_product=r.value.fan_product, kan=r.value.kan if settlement.rules.shu_kan else 0)
        out.append(item)
    return out


def settlement_json(settlement: Settlement, next_dealer: int | None) -> dict[str, Any]:
    """The API body for one settled hand (words in the active language)."""
    inp = settlement.input
    names = inp.players
    return {
        "players": list(names),
        "base": inp.base,
        "rules": inp.rules,
        "options": settlement.rules.as_dict(),
        "result": inp.result,
        "result_text": result_label(settlement),
        "wins": [_win_json(settlement, i) for i in range(len(settlement.wins))],
        "ready": _ready_json(settlement),
        "payments": [payment_json(p, names) for p in settlement.payments],
        "nets": [{"player": names[i], "net": settlement.nets[i]} for i in range(3)],
        "next_dealer": None if next_dealer is None else names[next_dealer],
    }

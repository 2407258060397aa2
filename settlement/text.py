"""Words for settlement figures (both languages) and the JSON body of ``/api/v1/settle/``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kwx.errors import EngineError
from kwx.hand.serial import fans_json  # the analysis API's fan objects, shared
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.table.settlement import WIN_PARTS, Part, Payment, Settlement, WinnerInputError
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
}
RESULT_LABELS = {
    "draw": gettext_noop("荒庄 (drawn hand)"),
    "self_draw": gettext_noop("自摸 (self-draw)"),
    "discard": gettext_noop("点炮 (discard win)"),
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
    elif part.key in WIN_PARTS:
        times = WIN_PARTS[part.key]
        core = f"×{n['multiplier']}" + (f" × {times}" if times > 1 else "")
    elif part.key == "huang_zhuang":
        core = "1"
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
    """荒庄 / 自摸 / 点炮 / 一炮双响 / 抢杠胡 in the active language."""
    kind = settlement.input.result
    if kind == "discard" and len(settlement.wins) == 2:
        kind = "double"
    return _(RESULT_LABELS[kind])


def payment_json(payment: Payment, names: tuple[str, ...]) -> dict[str, Any]:
    """One payment as the settle API shows it: names, amount, reasons with their words."""
    return {
        "payer": names[payment.payer],
        "payee": names[payment.payee],
        "amount": payment.amount,
        "reasons": [{"key": p.key, "amount": p.amount, "numbers": dict(p.numbers), "text": part_text(p)} for p in payment.parts],
        "text": " · ".join(part_text(p) for p in payment.parts),
    }


def settlement_json(settlement: Settlement, next_dealer: int | None) -> dict[str, Any]:
    """The API body for one settled hand (words in the active language)."""
    inp = settlement.input
    names = inp.players
    return {
        "players": list(names),
        "base": inp.base,
        "rules": inp.rules,
        "result": inp.result,
        "result_text": result_label(settlement),
        "wins": [
            {
                "player": names[w.seat],
                "side": w.side,
                "multiplier": w.value.total,
                "product": w.value.product,
                "fans": fans_json(w.value),
                "value": w.amount(inp.base),
            }
            for w in settlement.wins
        ],
        "payments": [payment_json(p, names) for p in settlement.payments],
        "nets": [{"player": names[i], "net": settlement.nets[i]} for i in range(3)],
        "next_dealer": None if next_dealer is None else names[next_dealer],
    }

"""Words for settlement figures (both languages) and the JSON body of ``/api/v1/settle/``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kwx.errors import EngineError
from kwx.hand.money import Part, capped, dice_factor, pair_multiplier, pao_qia_mo_ba_parts
from kwx.hand.scoring import WinValue
from kwx.hand.serial import fans_json  # the analysis API's fan objects, shared
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.rules import LEGACY, OPTION_BY_KEY, OPTION_KEYS, RuleSet, label
from kwx.table.settlement import RANK_DECLARED, RANK_NOT_READY, RANK_READY, RANK_SECOND, Payment, Settlement, WinnerInputError, first_declarer_counts
from kwx_site.text import english, tile_label

PART_LABELS = {
    "self_draw": gettext_noop("self-draw (自摸)"),
    "discard": gettext_noop("discard win (点炮)"),
    "bao_hu": gettext_noop("包胡 (discard on a 亮倒 hand, paid double)"),
    "bao_hu_sum": gettext_noop("包胡 (both shares, capped together)"),
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
KIND_LABELS = {
    "win": gettext_noop("win (和牌)"),
    "kong": gettext_noop("kong money (杠钱)"),
    "liang_dao": gettext_noop("亮倒 pays (荒庄)"),
    "cha_da_jiao": gettext_noop("查大叫"),
}
"""Each payment's kind (``Payment.kind``) in words."""
RANK_LABELS = {
    RANK_NOT_READY: gettext_noop("not ready"),
    RANK_DECLARED: gettext_noop("declared 亮倒"),
    RANK_SECOND: gettext_noop("declared 亮倒 later (all three ready: collects from the first)"),
    RANK_READY: gettext_noop("ready, not declared"),
}
"""查大叫 ranks (town-rules.md §1.7) in words: a seat collects from every seat of lower rank."""
RESULT_LABELS = {
    "draw": gettext_noop("荒庄 (drawn hand)"),
    "self_draw": gettext_noop("自摸 (self-draw)"),
    "discard": gettext_noop("点炮 (discard win)"),
    "bao_hu": gettext_noop("包胡 (a discard won on a 亮倒 hand: the discarder pays double)"),
    "bao_hu_sum": gettext_noop("包胡 (a discard won on a 亮倒 hand: the discarder also pays the third seat's share, capped together)"),
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
        core += " → " + _cap(n["multiplier"]) if n["discarder"] + n["third"] != n["multiplier"] else ""
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


def _cap(multiplier: int) -> str:
    return _("cap ×%(cap)d") % {"cap": multiplier}


def _why(text: str) -> str:
    """A reason after a number: （上楼） in Chinese, " (上楼)" in English."""
    return f" ({text})" if english() else f"（{text}）"


def option_text(value: Any) -> str:
    """An option's value as a form or a CSV writes it (``true``, ``none``, ``8``, ``all_fours``; read back by ``kwx.rules.read_option_text``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _fan_formula(part: Part, value: WinValue, winner_declared: bool, payer_declared: bool, settlement: Settlement) -> str:
    """A win's (or a 查大叫 collector's) multiplier towards one payer, step by step (town-rules.md §2.1 steps 2–4):
    ``×4 × 2（付款方亮倒）× 2（上楼）→ 封顶 ×8 = 8``; the part's own formula when the steps do not give its multiplier."""
    rules, n = settlement.rules, dict(part.numbers)
    own = pair_multiplier(value.fan_product, winner_declared, False, rules)
    pair = pair_multiplier(value.fan_product, winner_declared, payer_declared, rules)
    factor = dice_factor(rules, settlement.input.dice)
    if capped(factor * pair, value.cap) != n.get("multiplier") or part.key == "bao_hu":
        return part_formula(part)
    core = f"×{own}"
    if pair != own:
        core += f" × {pair // own}" + _why(_("对亮对番") if winner_declared else _("the payer declared 亮倒"))
    if factor > 1:
        core += f" × {factor}" + _why(_("上楼"))
    if factor * pair != n["multiplier"]:
        core += " → " + _cap(n["multiplier"])
    return f"{core}{_base(n['base'])} = {part.amount}"


def _horses_text(settlement: Settlement) -> str:
    return " ".join(tile_label(TILE_IDS[h]) for h in settlement.input.horses or ())


def payment_words(settlement: Settlement, payment: Payment) -> list[str]:
    """Each part of a payment in words, with what the settlement knows beside the part: the multiplier's steps
    (亮倒 of the payer, 对亮对番, 上楼, the cap), the third seat's 漂 on 包胡, the horse tiles, 跑 恰 摸 八 one by one."""
    inp = settlement.input
    declared = set(inp.liang_dao)
    value: WinValue | None = None
    win = next((w for w in settlement.wins if w.seat == payment.payee), None) if payment.kind == "win" else None
    if win is not None:
        value = win.value
    elif payment.kind == "cha_da_jiao":
        value = next((r.value for r in settlement.ready if r.seat == payment.payee), None)
    words, piao_seen = [], 0
    for part in payment.parts:
        text = part_text(part)
        if part.key == "bao_hu" and settlement.rules.bao_hu == "capped_sum":
            text = f"{_(PART_LABELS['bao_hu_sum'])} {part_formula(part)}"
        elif part.group == "fan" and value is not None:
            text = f"{_(PART_LABELS[part.key])} {_fan_formula(part, value, payment.payee in declared, payment.payer in declared, settlement)}"
        elif part.key == "piao":
            piao_seen += 1
            if piao_seen == 2:  # 包胡 under bao_hu_piao both: the winner's and the third seat's
                text = _("漂 of the third seat (包胡)") + " " + part_formula(part)
        elif part.key == "ma" and inp.horses:
            text = f"{_(PART_LABELS['ma'])} {_horses_text(settlement)}: {part_formula(part)}"
        elif part.key == "pao_qia_mo_ba" and win is not None:
            pao, qia, mo, ba = pao_qia_mo_ba_parts(win.value, win.hand, win.kind, win.side == "self_draw")
            terms = " + ".join(f"{name} {number}" for name, number in (("跑", pao), ("恰", qia), ("摸", mo), ("八", ba)) if number)
            text = f"{_(PART_LABELS[part.key])} {terms}{_base(part.number('base'))} = {part.amount}"
        words.append(text)
    return words


def kind_text(payment: Payment) -> str:
    """What a payment is for: a win, kong money, 亮倒 on a drawn hand, 查大叫."""
    return _(KIND_LABELS[payment.kind])


def ready_rows(settlement: Settlement) -> list[dict[str, Any]]:
    """Each seat at a drawn hand under 查大叫: its standing and rank, and its best wait with that win's fans and value (none when not ready)."""
    names, declared = settlement.input.players, settlement.input.liang_dao
    rows = []
    for r in settlement.ready:
        standing = _(RANK_LABELS[r.rank])
        if first_declarer_counts(settlement.rules) and len(declared) > 1 and r.seat == declared[0]:
            standing = _("declared 亮倒 first")
        row: dict[str, Any] = {"name": names[r.seat], "rank": r.rank, "standing": standing, "ready": r.value is not None}
        if r.value is not None and r.kind is not None:
            row.update(
                tile=TILE_IDS[r.kind],
                fans=[{"key": h.key, "multiplier": h.multiplier} for h in r.value.fans],
                product=r.value.product,
                total=r.value.total,
                kan=r.value.kan if settlement.rules.shu_kan else None,
            )
        rows.append(row)
    return rows


def rules_label(rules: str, options: RuleSet) -> str:
    """A sheet's or a hand's rules by name in the active language: "孝感（改）" when an option differs from the preset."""
    return label(rules, options, english())


def rules_rows(rules: str, options: RuleSet) -> list[list[str]]:
    """The rules as CSV rows: the name, then every option that differs from the legacy default (its name, value in words, key and value)."""
    rows = [[_("Rules"), rules_label(rules, options), "rules", rules]]
    en = english()
    for key in OPTION_KEYS:
        value = options.value(key)
        if value != LEGACY.value(key):
            option = OPTION_BY_KEY[key]
            rows.append([option.name_en if en else option.name, option.label(value, en), key, option_text(value)])
    return rows


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
    bao_hu_label = _(RESULT_LABELS["bao_hu_sum" if settlement.rules.bao_hu == "capped_sum" else "bao_hu"])
    if kind == "discard" and len(settlement.wins) == 2:
        kind = "double"
    elif kind == "discard" and bao_hu:
        return bao_hu_label
    label = _(RESULT_LABELS[kind])
    return f"{label} · {bao_hu_label}" if bao_hu else label


def payment_json(payment: Payment, names: tuple[str, ...], settlement: Settlement | None = None) -> dict[str, Any]:
    """One payment as the settle API shows it: names, amount, kind, parts by group, reasons with their words (with ``settlement``: the page's words)."""
    words = payment_words(settlement, payment) if settlement is not None else [part_text(p) for p in payment.parts]
    return {
        "payer": names[payment.payer],
        "payee": names[payment.payee],
        "amount": payment.amount,
        "kind": payment.kind,
        "kind_text": kind_text(payment),
        "parts": payment.grouped(),
        "reasons": [{"key": p.key, "amount": p.amount, "numbers": dict(p.numbers), "text": text} for p, text in zip(payment.parts, words)],
        "text": " · ".join(words),
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
        "rules_text": rules_label(inp.rules, settlement.rules),
        "wins": [_win_json(settlement, i) for i in range(len(settlement.wins))],
        "ready": _ready_json(settlement),
        "payments": [payment_json(p, names, settlement) for p in settlement.payments],
        "nets": [{"player": names[i], "net": settlement.nets[i]} for i in range(3)],
        "next_dealer": None if next_dealer is None else names[next_dealer],
    }

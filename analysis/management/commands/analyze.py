"""``manage.py analyze HAND``: the analysis as readable text (Chinese by default)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from kwx import EngineError, analyze
from kwx.hand.rules import OPTION_KEYS, PRESETS
from kwx.rules import RuleSet, read_option_text
from kwx.rules import label as rules_label
from kwx_site.figures import figure
from kwx_site.text import describe_fans, english, shanten_words, tile_label


class Command(BaseCommand):
    help = "Analyse a 13- or 14-tile 卡五星 hand, e.g. 4556p123789sZZZ or 46p11s[555p][FFF][BBB]."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("hand", help="the hand; melds in brackets: [555p] 碰, [5555p] 明杠, {5555p} 暗杠")
        parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
        parser.add_argument("--visible", default="", help="tiles seen elsewhere")
        parser.add_argument("--situation", default="", help="comma-separated: liang_dao,gang_shang_kai_hua,…")
        parser.add_argument("--option", action="append", default=[], choices=OPTION_KEYS, help="turn a rule option on")
        parser.add_argument("--no-option", action="append", default=[], choices=OPTION_KEYS, help="turn a rule option off")
        parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE", help="set any rule option (town-rules.md §1), e.g. --set cap=8 --set si_gui_yi=all_fours")
        parser.add_argument("--lang", default="zh-hans", choices=["zh-hans", "en"])
        parser.add_argument("--json", action="store_true", help="print the API's JSON instead of text")

    def handle(self, *args: Any, **opts: Any) -> None:
        translation.activate(opts["lang"])
        options: dict[str, Any] = {key: True for key in opts["option"]} | {key: False for key in opts["no_option"]}
        situation = [s for s in opts["situation"].split(",") if s]
        try:
            for item in opts["set"]:
                key, sep, text = item.partition("=")
                if not sep:
                    raise CommandError(_("--set takes OPTION=VALUE, e.g. cap=8; got %(value)s.") % {"value": item})
                options[key.strip()] = read_option_text(key.strip(), text)
            result = analyze(opts["hand"], visible=opts["visible"], rules=opts["rules"], situation=situation, options=options)
        except EngineError as exc:
            raise CommandError(exc.translated(_)) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, indent=1))
            return
        self.stdout.write("\n".join(render_text(result)))


def _waits_lines(waits: list[dict[str, Any]], indent: str = "") -> list[str]:
    lines = []
    for wait in waits:
        sides = []
        for key, label in (("self_draw", _("self-draw")), ("discard", _("discard win"))):
            side = wait[key]
            if side["allowed"]:
                sides.append(_("%(label)s ×%(total)d (%(fans)s)") % {"label": label, "total": side["total"], "fans": describe_fans(side["fans"])} + _money_text(side))
            elif side.get("declared_payer_total"):
                sides.append(_("%(label)s only from a declared payer ×%(total)d") % {"label": label, "total": side["declared_payer_total"]} + _money_text(side))
            else:
                sides.append(_("%(label)s not allowed") % {"label": label})
        lines.append(indent + _("%(tile)s: %(left)d left; %(sides)s") % {"tile": tile_label(wait["tile"]), "left": wait["remaining"], "sides": "; ".join(sides)})
    return lines


def _money_text(side: dict[str, Any]) -> str:
    """The flat extras and what a payer pays, where the rules add anything to the multiplier."""
    parts = []
    if "kan" in side:
        parts.append(_("坎 %(n)d") % {"n": side["kan"]})
    if "pao_qia_mo_ba" in side:
        parts.append(_("跑恰摸八 %(n)d") % {"n": side["pao_qia_mo_ba"]})
    if "expected_ma" in side:
        parts.append(_("马 expected %(n)s") % {"n": figure(side["expected_ma"])})
    if "bao_hu" in side:
        parts.append(_("包胡 %(amount)s") % {"amount": _figure(side["bao_hu"]["amount"])})
    if "declared_payer_total" in side and side["declared_payer_total"]:
        parts.append(_("a declared payer %(amount)s") % {"amount": _figure(side["declared_payer_amount"])})
    if not parts:
        return ""
    if side["allowed"]:
        parts.insert(0, _("each payer %(amount)s") % {"amount": _figure(side["amount"])})
    return " → " + ", ".join(parts)


def _figure(value: float) -> str:
    """A whole amount as it is, an expected one to 2 decimals."""
    return figure(value, 0 if isinstance(value, int) else 2)


def render_text(result: dict[str, Any]) -> list[str]:
    """Human-readable lines of an analysis body."""
    values = RuleSet(**result["rule_options"])
    lines = [
        _("Hand %(hand)s (%(count)d tiles), rules: %(rules)s") % {"hand": result["notation"], "count": result["tile_count"], "rules": rules_label(result["rules"], values, english())},
        _("Shanten: %(words)s") % {"words": shanten_words(result["shanten"])},
    ]
    if result["tile_count"] == 13:
        if result["waits"]:
            lines += _waits_lines(result["waits"])
        elif result["shanten"] == 0:
            lines.append(_("Ready by count, but every winning tile is already held four times."))
        if result["shanten"] > 0:
            tiles = " ".join(f"{tile_label(t['tile'])}×{t['remaining']}" for t in result["ukeire"]["tiles"])
            lines.append(_("Effective tiles (%(total)d): %(tiles)s") % {"total": result["ukeire"]["total"], "tiles": tiles})
        return lines
    for option in result["options"]:
        total = option["ukeire"]["total"]
        head = ngettext("Discard %(tile)s → %(shanten)s, %(total)d effective tile", "Discard %(tile)s → %(shanten)s, %(total)d effective tiles", total) % {
            "tile": tile_label(option["discard"]),
            "shanten": shanten_words(option["shanten"]),
            "total": total,
        }
        if option["value"] is not None:
            head += _(", value %(value)s") % {"value": _figure(option["value"])}
        lines.append(head)
        lines += _waits_lines(option["waits"], "    ")
    return lines

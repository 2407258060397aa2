"""learn pages: the rules, every fan, settlement, the glossary and the 口诀 with its memorise mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts.selectors import request_player
from accounts.services import player_for
from kwx.hand.fans import FAN_BY_KEY, FANS, HAND_FANS, SITUATIONAL_FANS
from kwx.hand.money import KONG_MONEY
from kwx.rules import LEGACY_PRESETS, PRESETS
from kwx_site.htmx import render_page, wants_fragment
from kwx_site.text import english, preset_label
from puzzles.text import THEMES

from . import content as lc
from . import towns as lt
from .selectors import next_prompt, prompt_for
from .services import RATINGS, grade

TOC: tuple[tuple[str, Any, Any], ...] = (
    ("learn-tiles", gettext_lazy("Tiles and notation"), gettext_lazy("The 84 tiles and how hands are written.")),
    ("learn-play", gettext_lazy("How a hand is played"), gettext_lazy("Dealing, the dealer, 碰 and 杠, 亮倒, 漏胡, 荒庄, 海底, 杠上杠.")),
    ("learn-shapes", gettext_lazy("Winning shapes"), gettext_lazy("Four sets and a pair, or seven pairs.")),
    ("learn-fans", gettext_lazy("Fans and presets"), gettext_lazy("Every fan, how fans combine, and the first three presets side by side.")),
    ("learn-settlement", gettext_lazy("Settlement"), gettext_lazy("Who pays whom: wins, 包胡, kong money, 荒庄, 漂.")),
    ("learn-towns", gettext_lazy("Town rules"), gettext_lazy("Each town's rules side by side, where they come from, and worked examples per town.")),
    ("learn-glossary", gettext_lazy("Glossary (术语)"), gettext_lazy("Every term, linked to where it is explained.")),
    ("learn-koujue", gettext_lazy("The 口诀"), gettext_lazy("The players' verses, explained, with a memorise mode.")),
)
QUIZ_URL = "/learn/quiz/"
SIDE_LABELS = {"self_draw": gettext_lazy("self-draw (自摸)"), "discard": gettext_lazy("on a discard (点炮)")}


def _fan_items(keys: Any, preset: str) -> list[dict[str, Any]]:
    """Fan keys as (key, name, multiplier under the preset), multipliers read from the fan table."""
    return [{"key": k, "name": FAN_BY_KEY[k].name, "multiplier": FAN_BY_KEY[k].multiplier(PRESETS[preset].values)} for k in keys]


def _shown(drawn: lc.DrawnHand, *, side: str, situation: tuple[str, ...], rules: str, url: str, allowed: bool, total: int, fans: Any, note: str) -> dict[str, Any]:
    """One example hand as the templates draw it: tiles, how it was won, its value and its links."""
    return {
        "drawn": drawn,
        "side": SIDE_LABELS[side],
        "situation": [FAN_BY_KEY[s].name for s in situation],
        "rules": rules,
        "rules_label": preset_label(rules),
        "url": url,
        "allowed": allowed,
        "total": total,
        "fans": _fan_items(fans, rules),
        "note": note,
    }


def shown_worked(w: lc.Worked) -> dict[str, Any]:
    """A worked example (the value the page claims, checked by the tests) ready to draw."""
    item = _shown(w.drawn, side=w.side, situation=w.situation, rules=w.rules, url=w.url, allowed=w.allowed, total=w.total, fans=w.fans, note=lc.filled(w.note))
    item["options"] = [k for k, on in w.options if on]
    item["readings"] = [{"fans": _fan_items(r.fans, w.rules), "product": r.product, "label": r.label} for r in w.readings]
    return item


def _fan_context(f: Any) -> dict[str, Any]:
    in_english = english()
    examples = []
    for view in lc.fan_examples(f.key):
        e = view.example
        result = view.result
        examples.append(
            _shown(
                view.drawn,
                side=e.side,
                situation=e.situation,
                rules=e.rules,
                url=view.url,
                allowed=bool(result and result.allowed),
                total=result.total if result else 0,
                fans=[k for k, _m in result.fans] if result else (),
                note=e.note_en if in_english else e.note_zh,
            )
        )
    values = [{"preset": preset_label(p), "key": p, "value": f.multiplier(PRESETS[p].values)} for p in LEGACY_PRESETS]
    return {
        "key": f.key,
        "name": f.name,
        "name_en": f.name_en,
        "definition": f.definition_en if in_english else f.definition,
        "values": values,
        "same": len({v["value"] for v in values}) == 1,
        "excludes": [FAN_BY_KEY[k].name for k in f.excludes if k in FAN_BY_KEY],
        "sides": [SIDE_LABELS[s] for s in f.sides],
        "situational": f.situational,
        "examples": examples,
    }


def _presets() -> list[dict[str, Any]]:
    in_english = english()
    return [
        {"key": p.key, "label": preset_label(p.key), "cap": p.cap, "note": p.note_en if in_english else p.note, "ka_wu_xing": FAN_BY_KEY["ka_wu_xing"].multiplier(p.values)}
        for p in map(PRESETS.__getitem__, LEGACY_PRESETS)
    ]


def learn_page(template: str, context: Callable[[], dict[str, Any]] | None = None) -> Callable[[HttpRequest], HttpResponse]:
    """A read-only learn page: the template with the learn contents and its own context."""

    def view(request: HttpRequest) -> HttpResponse:
        data = {"toc": TOC, "quiz_url": QUIZ_URL, "v": lc.fan_values()}
        if context is not None:
            data.update(context())
        return render(request, f"learn/{template}.html", data)

    view.__name__ = template
    return view


def _fans_page() -> dict[str, Any]:
    return {
        "hand_fans": [_fan_context(f) for f in HAND_FANS],
        "situational_fans": [_fan_context(f) for f in SITUATIONAL_FANS],
        "summary": [_fan_context(f) for f in FANS],
        "presets": _presets(),
        "preset_keys": [preset_label(p) for p in LEGACY_PRESETS],
        "combination": [shown_worked(w) for w in lc.COMBINATION_EXAMPLES],
        "preset_rows": [
            {
                "drawn": r.drawn,
                "cells": [dict(c, label=preset_label(c["preset"])) for c in r.cells()],
                "note": lc.filled(r.note),
                "side": SIDE_LABELS[r.side],
                "situation": [FAN_BY_KEY[s].name for s in r.situation],
            }
            for r in lc.PRESET_ROWS
        ],
    }


def _settlement_page() -> dict[str, Any]:
    examples = []
    for s in lc.SETTLEMENT_EXAMPLES:
        net = s.net()
        examples.append(
            {
                "key": s.key,
                "kind": s.kind,
                "title": s.title,
                "note": lc.filled(s.note),
                "payments": s.payments,
                "net": [(seat, net[seat]) for seat in lc.SEATS],
                "wins": [(seat, shown_worked(w)) for seat, w in s.wins],
            }
        )
    both, feeder = _("both other players"), _("only the player who discarded the fourth tile (放杠)")
    names = {"an_gang": ("暗杠", both), "ming_gang": ("明杠 (蓄杠)", both), "zhi_gang": ("直杠", feeder)}
    return {"examples": examples, "kong_money": [(*names[k], money) for k, money in KONG_MONEY.items()]}


def _koujue_page() -> dict[str, Any]:
    notes = lc.COUPLET_NOTES
    return {"couplets": [(c, notes[c.number], lc.filled(notes[c.number].text), [THEMES[k] for k in notes[c.number].themes]) for c in lc.couplets()]}


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _graded(request: HttpRequest, number: int, rating: Any) -> HttpResponse:
    """After a valid grade: store it for the player (an account or the visitor's session) and go to the next couplet (redirect, or the htmx fragment)."""
    now = timezone.now()
    target = reverse("learn-memorise")
    player = player_for(request)
    grade(player=player, number=number, rating=rating, reviews_seen=_int(request.POST.get("reviews")) or 0, now=now)
    after = next_prompt(player, now)
    if not wants_fragment(request):
        return redirect(target)
    response = _memorise_response(request, after, False, "", 200)
    response["HX-Push-Url"] = target
    return response


@require_http_methods(["GET", "POST"])
def memorise(request: HttpRequest) -> HttpResponse:
    """Show a couplet's first line, reveal the second, take a self-grade (stored for the player, a visitor's session or an account)."""
    now = timezone.now()
    error, status = "", 200
    if request.method == "POST":
        number = _int(request.POST.get("couplet"))
        rating = RATINGS.get(request.POST.get("rating", ""))
        if lc.couplet(number or 0) is None:
            error, status, number = _("That couplet does not exist; here is the next one."), 400, None
        elif rating is None:
            error, status = _("Choose one of Again, Hard, Good or Easy."), 400
        else:
            return _graded(request, number, rating)
    else:
        number = _int(request.GET.get("n"))
    player = request_player(request)
    prompt = prompt_for(player, number, now) if number is not None else None
    if number is not None and prompt is None:
        error, status = _("That couplet does not exist; here is the next one."), 404
    if prompt is None:
        prompt = next_prompt(player, now)
    reveal = request.GET.get("reveal") == "1" or (request.method == "POST" and status == 400 and number is not None)
    return _memorise_response(request, prompt, reveal, error, status)


def _memorise_response(request: HttpRequest, prompt: Any, reveal: bool, error: str, status: int) -> HttpResponse:
    context = {
        "toc": TOC,
        "prompt": prompt,
        "reveal": reveal,
        "error": error,
        "note_text": lc.filled(lc.COUPLET_NOTES[prompt.couplet.number].text),
        "total": len(lc.couplets()),
        "ratings": [
            ("again", _("Again"), _("forgot it")),
            ("hard", _("Hard"), _("recalled with effort")),
            ("good", _("Good"), _("recalled")),
            ("easy", _("Easy"), _("recalled at once")),
        ],
    }
    return render_page(request, "learn/memorise.html", "card", context, status)


def _towns_page() -> dict[str, Any]:
    in_english = english()
    columns = lt.compared_presets()
    return {
        "columns": [{"key": p.key, "name": p.name, "name_en": p.name_en, "legacy": p.legacy} for p in columns],
        "groups": lt.option_groups(columns, in_english),
        "towns": [{"key": p.key, "label": preset_label(p.key), "note": p.note_en if in_english else p.note, "examples": len(lt.examples_of(p.key))} for p in PRESETS.values() if not p.legacy],
        "legacy": [{"key": p.key, "label": preset_label(p.key), "note": p.note_en if in_english else p.note, "examples": len(lt.examples_of(p.key))} for p in PRESETS.values() if p.legacy],
        "sources": lt.SOURCES,
        "strengths": list(lt.STRENGTHS.items()),
    }


def town(request: HttpRequest, key: str) -> HttpResponse:
    """One preset's page: its rules in words (what differs from the legacy default), room switches, what is not known, its worked examples."""
    preset = PRESETS.get(key)
    if preset is None:
        raise Http404("No such town.")
    in_english = english()
    context = {
        "toc": TOC,
        "quiz_url": QUIZ_URL,
        "preset": preset,
        "label": preset_label(key),
        "note": preset.note_en if in_english else preset.note,
        "differences": lt.differences(preset, in_english),
        "room": lt.room_switches(preset, in_english),
        "unknown": lt.UNKNOWN.get(key, ""),
        "examples": [lt.shown_example(e, in_english) for e in lt.examples_of(key)],
        "others": [{"key": p.key, "label": preset_label(p.key)} for p in PRESETS.values() if p.key != key],
    }
    return render(request, "learn/town.html", context)


index = learn_page("index")
tiles = learn_page("tiles", lambda: {"notation": lc.NOTATION_EXAMPLES, "example": lc.drawn_hand("46p11s[555p][FFF]{BBBB}")})
play = learn_page("play")
shapes = learn_page("shapes", lambda: {"shapes": [(s.key, shown_worked(s.worked)) for s in lc.SHAPE_EXAMPLES]})
fans = learn_page("fans", _fans_page)
settlement = learn_page("settlement", _settlement_page)
glossary = learn_page("glossary", lambda: {"terms": lc.GLOSSARY})
koujue = learn_page("koujue", _koujue_page)
towns = learn_page("towns", _towns_page)

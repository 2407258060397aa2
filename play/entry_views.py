"""The enter page (/play/enter/): a hand played elsewhere entered from your seat, checked move by move, then saved and reviewed.

One view, one template (``play/enter.html``, its ``entry`` partial for htmx). A POST carries the whole
entry; a tap, a claim button or undo changes the moves first. Without JavaScript every button posts the
page, which shows the first illegal move; with htmx the moves are checked as they are typed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.selectors import player_town, request_player
from accounts.services import player_for
from kwx.errors import EngineError
from kwx.hand.notation import scan_notation
from kwx.hand.tiles import TILE_IDS
from kwx.rules import RuleSet, resolve
from kwx_site.htmx import render_page, wants_fragment
from kwx_site.limits import client_ip
from kwx_site.table import seat_name

from . import entry as entering
from . import limits
from .entry_forms import CLAIMS, EnterForm
from .entry_selectors import entry_view
from .entry_services import enter_hand

WHO_OF = {"I": entering.ME, "R": 1, "L": 2}
VERB_NAMES = {"pong": "碰", "kong": "杠", "win": "胡"}


def _claim_buttons() -> list[tuple[str, str]]:
    """The claim buttons: 下家 碰 … 你 胡, in the seat's words."""
    return [(value, f"{seat_name(WHO_OF[value[0]], entering.ME)} {VERB_NAMES[value[2:]]}") for value in CLAIMS]


def _tapped(entry: entering.Entry, compiled: entering.Compiled | None, data: dict[str, Any]) -> entering.Entry:
    """The entry with the tap, claim button or undo applied: a tile to the hand while it is short, else the move it makes now."""
    moves = entry.moves
    if data.get("undo"):
        return replace(entry, moves=entering.without_last(moves))
    kind, claim = data.get("tap"), data.get("claim")
    if kind is not None:
        try:
            held = len(scan_notation(entry.hand, "hand")[0])
        except EngineError:
            held = 13
        if held < 13 or compiled is None:
            return replace(entry, hand=entry.hand + TILE_IDS[kind])
        if compiled.error is None:
            token = entering.tap_token(compiled.done.final, kind, bool(data.get("declare")), data.get("shown", ""))
            return replace(entry, moves=entering.with_token(moves, token))
    if claim and compiled is not None and compiled.error is None:
        return replace(entry, moves=entering.with_token(moves, entering.claim_token(WHO_OF[claim[0]], claim[2:], data.get("shown", ""))))
    return entry


def _compile(entry: entering.Entry) -> tuple[entering.Compiled | None, str]:
    """The entry read (None and the message when its header, the rules or the hand, is refused)."""
    try:
        return entering.compile_entry(entry), ""
    except EngineError as exc:
        return None, exc.translated(_)


def _context(request: HttpRequest, entry: entering.Entry, compiled: entering.Compiled | None, header_error: str, errors: dict[str, str], posted: dict[str, Any]) -> dict[str, Any]:
    values: RuleSet = resolve(entry.rules, dict(entry.options))
    return {
        **entry_view(entry, compiled, header_error),
        "rules": entry.rules,
        "values": {
            "dealer": entry.dealer,
            "hand": entry.hand,
            "moves": entry.moves,
            "dice1": entry.dice[0] if entry.dice else "",
            "dice2": entry.dice[1] if entry.dice else "",
            "declare": bool(posted.get("declare")) and not posted.get("tap"),
            "shown": posted.get("shown", "") if not (posted.get("tap") or posted.get("claim")) else "",
        },
        "rule_values": values,
        "dealers": [(seat, seat_name(seat, entering.ME)) for seat in (0, 1, 2)],
        "claim_buttons": _claim_buttons(),
        "errors": errors,
    }


@require_http_methods(["GET", "POST"])
def enter(request: HttpRequest) -> HttpResponse:
    """/play/enter/: the deal and the moves of a hand played elsewhere, checked; ``save`` stores it and opens its review."""
    player = request_player(request)
    if request.method == "GET":
        town = player_town(player=player)
        entry = entering.Entry(town.rules, tuple(sorted(town.options.items())), entering.ME, "", "")
        context = _context(request, entry, None, "", {}, {})
        return render_page(request, "play/enter.html", None, context)
    form = EnterForm(request.POST)
    valid = form.is_valid()
    errors = form.first_errors()
    if "entry" not in form.cleaned_data:
        town = player_town(player=player)
        entry = entering.Entry(town.rules, tuple(sorted(town.options.items())), entering.ME, request.POST.get("hand", ""), request.POST.get("moves", ""))
        return render_page(request, "play/enter.html", "entry", _context(request, entry, None, "", errors, request.POST.dict()), status=200 if wants_fragment(request) else 400)
    entry = form.cleaned_data["entry"]
    compiled, header_error = _compile(entry)
    changed = _tapped(entry, compiled, form.cleaned_data)
    if changed != entry:
        entry = changed
        compiled, header_error = _compile(entry)
    context = _context(request, entry, compiled, header_error, errors, request.POST.dict())
    if request.POST.get("save") and valid and compiled is not None and context["savable"]:
        try:
            owner = limits.counted_player(request, "upload", lambda: player_for(request))
        except limits.TooMany as exc:
            context["save_error"] = exc.message
            response = render_page(request, "play/enter.html", "entry", context, status=429)
            response["Retry-After"] = str(exc.wait)
            return response
        hand = enter_hand(player=owner, record=compiled.record, done=compiled.done, client=client_ip(request))
        url = reverse("play-review", args=[hand.pk])
        if wants_fragment(request):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = url
            return response
        return HttpResponseRedirect(url)
    refused = errors or header_error or (compiled is not None and compiled.error is not None)
    status = 400 if refused and not wants_fragment(request) else 200  # htmx swaps only a 2xx: the fragment says what is wrong
    return render_page(request, "play/enter.html", "entry", context, status=status)

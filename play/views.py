"""Play pages: thin views over play.services (changes) and play.selectors (reads).

The table page is one view and one template: a plain GET renders the page, an htmx
request its ``table`` partial; an action is a POST that works without JavaScript
(post, redirect, get) and with htmx (the partial comes back at once).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from kwx.hand.rules import PRESETS
from kwx.table.record import Replay
from kwx.table.settlement import PIAO_CHOICES
from kwx.table.view import view_for
from kwx_site.htmx import render_page, wants_fragment
from kwx_site.middleware import began
from kwx_site.shortcuts import found
from kwx_site.text import preset_label
from puzzles.services import player_for

from . import limits, selectors, services
from . import review as reviewing
from .models import Game, Hand
from .services import PlayError


def _player(request: HttpRequest, create: bool = False) -> Any:
    return player_for(request.user, request.session, create=create, began=began(request))


def _start_context(request: HttpRequest, errors: dict[str, str] | None = None, values: dict[str, str] | None = None) -> dict[str, Any]:
    player = _player(request)
    return {
        "levels": services.LEVELS,
        "presets": [(key, preset_label(key)) for key in PRESETS],
        "piao_choices": PIAO_CHOICES,
        "errors": errors or {},
        "values": {"level": "strong", "rules": "standard", "base": "1", "piao": "0", "record": "", **(values or {})},
        "games": list(player.games.all()[:10]) if player else [],
        "uploads": list(selectors.hands_of(player).filter(source=Hand.UPLOAD)[:10]) if player else [],
    }


@require_http_methods(["GET", "POST"])
def start(request: HttpRequest) -> HttpResponse:
    """/play/: choose the bots' level, the rules, the base and 漂, and sit down (a POST starts the game)."""
    if request.method == "GET":
        return render(request, "play/start.html", _start_context(request))
    data = request.POST
    try:
        services.check_settings(data.get("level"), data.get("rules"), data.get("base", ""), data.get("piao", ""))
        player = limits.counted_player(request, "game", lambda: _player(request, create=True))
        game = services.start_game(player, data.get("level"), data.get("rules"), data.get("base", ""), data.get("piao", ""))
    except PlayError as exc:
        return render(request, "play/start.html", _start_context(request, {exc.field: str(exc.message)}, data.dict()), status=400)
    except limits.TooMany as exc:
        return _too_many(request, exc, "start", data.dict())
    return HttpResponseRedirect(reverse("play-table", args=[game.pk]))


def _too_many(request: HttpRequest, refused: limits.TooMany, field: str, values: dict[str, Any]) -> HttpResponse:
    """The start page again, the refusal by the form (``field``: start or record), 429 with Retry-After."""
    response = render(request, "play/start.html", _start_context(request, {field: refused.message}, values), status=429)
    response["Retry-After"] = str(refused.wait)
    return response


def _hint_on(request: HttpRequest) -> bool:
    return (request.POST.get("hint") or request.GET.get("hint")) == "1"


def _table_url(game_id: int, hint: bool) -> str:
    return reverse("play-table", args=[game_id]) + ("?hint=1" if hint else "")


def _render_table(request: HttpRequest, hand: Hand, status: int = 200, error: str = "", done: Replay | None = None) -> HttpResponse:
    sheet = selectors.score_sheet(hand.game)
    context = selectors.table_view(hand, done, sheet=sheet)
    hint = _hint_on(request)
    context.update(
        {
            "hint": hint,
            "error": error,
            "piao_choices": PIAO_CHOICES,
            "hint_url": _table_url(hand.game_id, not hint),
            "sheet": sheet,
        }
    )
    if hint and not hand.over:
        context["analysis"] = selectors.hint(view_for(context["state"], hand.seat))
    return render_page(request, "play/table.html", "table", context, status)


@require_http_methods(["GET", "POST"])
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    """/play/<game>/: the table; a POST is one action (verb, tile, liang_dao) with ``hand`` and ``seen``, the hand and the actions the page showed."""
    game = found(selectors.game_for(_player(request), game_id), "no such game")
    if request.method == "POST":
        data = request.POST
        try:
            choice = services.parse_choice(data.get("move"))
            hand, _changed, done = services.act(game.player, game.pk, data.get("seen", ""), choice, hand_id=data.get("hand", ""))
        except Game.DoesNotExist:
            raise Http404("no such game") from None
        except services.StaleHand as exc:
            return _render_table(request, selectors.current_hand(game), status=409, error=str(exc.message))
        except PlayError as exc:
            return _render_table(request, selectors.current_hand(game), status=400, error=str(exc.message))
        if not wants_fragment(request):
            return HttpResponseRedirect(_table_url(game.pk, _hint_on(request)))
        return _render_table(request, hand, done=done)
    return _render_table(request, selectors.current_hand(game))


@require_POST
def next_hand(request: HttpRequest, game_id: int) -> HttpResponse:
    """Deal the next hand (with the 漂 chosen for it) once the current one is over."""
    game = found(selectors.game_for(_player(request), game_id), "no such game")
    try:
        hand = services.next_hand(game.player, game.pk, request.POST.get("number", ""), request.POST.get("piao", ""))
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    except PlayError as exc:
        return _render_table(request, selectors.current_hand(game), status=400, error=str(exc.message))
    if wants_fragment(request):
        return _render_table(request, hand)
    return HttpResponseRedirect(_table_url(game.pk, _hint_on(request)))


def _review_page(request: HttpRequest, hand: Hand, shared: bool) -> HttpResponse:
    if not hand.over and hand.game_id is not None:  # a hand still at the table (an unfinished upload is reviewed as far as it goes)
        if shared:
            raise Http404("the hand is not over")
        return HttpResponseRedirect(reverse("play-table", args=[hand.game_id]))
    context = selectors.review_view(hand, request.GET.get("step", ""), request.GET.get("item", ""), shared)
    context["here"] = request.get_full_path()
    return render_page(request, "play/review.html", "review", context)


@require_safe
def review(request: HttpRequest, hand_id: int) -> HttpResponse:
    """/play/<hand>/review/?step=N: the hand action by action, each decision judged by rollouts (or the review's progress while its task works)."""
    return _review_page(request, found(selectors.hand_for(_player(request), hand_id), "no such hand"), shared=False)


@require_POST
def review_again(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Queue the hand's review again (it failed, or was never worked out); then back to the review page, which shows its progress."""
    try:
        hand = services.request_review(_player(request), hand_id)
    except Hand.DoesNotExist:
        raise Http404("no such hand") from None
    return HttpResponseRedirect(reverse("play-review", args=[hand.pk]))


@require_safe
def shared_review(request: HttpRequest, token: str) -> HttpResponse:
    """A review opened by its share link (read-only, for anyone with the link)."""
    return _review_page(request, found(selectors.shared_hand(token), "no such shared hand"), shared=True)


def _sharing(request: HttpRequest, hand_id: int, change: Any, query: str = "") -> HttpResponse:
    """Apply ``change`` (services.share or unshare) to the player's own hand and go back to its review (a 404 for anyone else's)."""
    try:
        hand = change(_player(request), hand_id)
    except Hand.DoesNotExist:
        raise Http404("no such hand") from None
    return HttpResponseRedirect(reverse("play-review", args=[hand.pk]) + query)


@require_POST
def share(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Make (or keep) the hand's share link and go back to its review, which shows it."""
    return _sharing(request, hand_id, services.share, "?shared=1")


@require_POST
def unshare(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Revoke the hand's share link (its owner only): the old link is a 404 from now on."""
    return _sharing(request, hand_id, services.unshare)


def record(request: HttpRequest, hand_id: int) -> HttpResponse:
    """The hand's kwx-hand/1 record as a JSON file (a played hand once it is over; an upload as it came)."""
    hand = found(selectors.hand_for(_player(request), hand_id), "no such hand")
    if not hand.over and hand.game_id is not None:
        raise Http404("the hand is not over")
    response = JsonResponse(hand.record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="kwx-hand-{hand.pk}.json"'
    return response


@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    """Paste or upload a kwx-hand/1 record to review it; a bad one is a 400 naming the action at fault."""
    text: str | bytes = request.POST.get("record", "")
    file = request.FILES.get("file")
    if file is not None:
        text = file.read(services.MAX_UPLOAD + 1)  # the reader decodes it (and says which byte is not UTF-8)
    seat = request.POST.get("seat", "0")
    shown = text.decode("utf-8", errors="replace") if isinstance(text, bytes) else text
    values = {"record": shown[: services.MAX_UPLOAD]}
    try:
        services.read_record(text)
        player = limits.counted_player(request, "upload", lambda: _player(request, create=True))
        hand = services.upload(player, text, seat)
    except PlayError as exc:
        return render(request, "play/start.html", _start_context(request, {"record": str(exc.message)}, values), status=400)
    except limits.TooMany as exc:
        return _too_many(request, exc, "record", values)
    return HttpResponseRedirect(reverse("play-review", args=[hand.pk]))


@require_POST
def review_item(request: HttpRequest, item_id: int) -> HttpResponse:
    """Answer a review item (a costly decision tried again): right moves it on, wrong brings it back soon."""
    player = _player(request)
    item = found(selectors.item_for(player, item_id), "no such review item")
    decision = selectors.decision_at(item.hand, item.step)
    if decision is None:  # its review is being worked out again: nothing to judge the answer by yet
        return HttpResponseRedirect(reverse("play-review", args=[item.hand_id]))
    data = request.POST
    try:
        choice = services.parse_choice(data.get("move"))
    except PlayError:
        choice = None
    correct = choice is not None and reviewing.judge(decision, choice)
    services.answer_review(player, item.pk, correct)
    url = reverse("play-review", args=[item.hand_id]) + f"?step={item.step}&answered={'right' if correct else 'wrong'}"
    return HttpResponseRedirect(url)

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
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.forms import TownForm
from accounts.selectors import player_town, request_player
from accounts.services import player_for
from kwx.rules import PRESETS, RuleSet
from kwx.table.record import Replay
from kwx.table.settlement import PIAO_CHOICES
from kwx_site.htmx import render_page, wants_fragment
from kwx_site.limits import client_ip
from kwx_site.shortcuts import found
from kwx_site.text import level_description

from . import forms, limits, presenter, selectors, services
from .models import Game, Hand, ReviewItem
from .services import PlayError


def _player(request: HttpRequest) -> Any:
    return request_player(request)


def _start_context(request: HttpRequest, errors: dict[str, str] | None = None, values: dict[str, str] | None = None, data: Any = None) -> dict[str, Any]:
    player = _player(request)
    rules, rule_values = _form_town(data, player)
    return {
        "levels": [(level, level_description(level)) for level in services.LEVELS],
        "piao_choices": PIAO_CHOICES,
        "errors": errors or {},
        "values": {"level": "strong", "base": "1", "piao": "0", "record": "", **(values or {})},
        "town_rules": rules,
        "town_values": rule_values,
        "town_next": reverse("play"),
        "asks_piao": rule_values.piao_mode != "off",
        "games": list(player.games.all()[:10]) if player else [],
        "uploads": list(selectors.hands_of(player).filter(source=Hand.UPLOAD)[:10]) if player else [],
    }


def _form_town(data: Any, player: Any) -> tuple[str, RuleSet]:
    """The rules the start form shows: those the data names (a refused form, or the picker changed: its room switches read as the form reads them), else the player's town."""
    if data is not None and data.get("rules") in PRESETS:
        town = TownForm(data)
        switches = town.cleaned_data["switches"] if town.is_valid() else {}
        return data["rules"], PRESETS[data["rules"]].switched(switches)
    chosen = player_town(player=player)
    return chosen.rules, chosen.values


@require_http_methods(["GET", "POST"])
def start(request: HttpRequest) -> HttpResponse:
    """/play/: choose the bots' level, the rules (the player's town by default, its switches turned), the base and 漂, and sit down (a POST starts the game).

    A GET that names ``rules`` shows the form for those rules and switches (the picker changed; htmx asks for its ``town`` fragment).
    """
    if request.method == "GET":
        asked = request.GET if "rules" in request.GET else None
        return render_page(request, "play/start.html", "town", _start_context(request, values=asked.dict() if asked else None, data=asked))
    data = request.POST
    if data.get("look"):  # without JavaScript: the form again for the rules chosen, with their switches
        return render(request, "play/start.html", _start_context(request, values=data.dict(), data=data))
    form = forms.StartForm(data)
    if not form.is_valid():
        return render(request, "play/start.html", _start_context(request, form.first_errors(), data.dict(), data), status=400)
    try:
        player = limits.counted_player(request, "game", lambda: player_for(request))
    except limits.TooMany as exc:
        return _too_many(request, exc, "start", data.dict())
    game = services.start_game(player=player, client=client_ip(request), **form.cleaned_data)
    return HttpResponseRedirect(reverse("play-table", args=[game.pk]))


def _too_many(request: HttpRequest, refused: limits.TooMany, field: str, values: dict[str, Any]) -> HttpResponse:
    """The start page again, the refusal by the form (``field``: start or record), 429 with Retry-After."""
    response = render(request, "play/start.html", _start_context(request, {field: refused.message}, values, request.POST), status=429)
    response["Retry-After"] = str(refused.wait)
    return response


STALE = "stale"
"""The query flag of a table shown after a move that changed nothing (post, redirect, get keeps the message)."""


def _stale_message() -> str:
    return str(_("Nothing was played: the table had moved on since that page was shown (a move made in another tab, or the same move sent twice). This is the table as it is now."))


def _game_or_log_in(request: HttpRequest, game_id: int) -> Game | HttpResponse:
    """The visitor's game; else a 404 (for a logged-out visitor, one that offers to log in: ``_not_found``)."""
    game = selectors.game_for(_player(request), game_id)
    if game is not None:
        return game
    return _not_found(request)


def _not_found(request: HttpRequest) -> HttpResponse:
    """The 404 of a game or hand the visitor may not see, the same whether the id is an account's, another session's or none.

    A logged-out visitor's 404 says that the page may belong to an account and links to the log-in, which comes back
    here: an owner who was logged out finds the way, and nobody learns which ids belong to accounts (issue 37: a 403
    for those and a 404 for the rest told them apart). A logged-in visitor gets the plain 404."""
    if request.user.is_authenticated:
        raise Http404("not found")
    here = request.get_full_path() if request.method == "GET" else request.path
    return render(request, "play/log_in.html", {"here": here}, status=404)


def _hint_on(request: HttpRequest) -> bool:
    return (request.POST.get("hint") or request.GET.get("hint")) == "1"


def _table_url(game_id: int, hint: bool, stale: bool = False) -> str:
    query = "&".join(flag for flag, on in (("hint=1", hint), (f"{STALE}=1", stale)) if on)
    return reverse("play-table", args=[game_id]) + ("?" + query if query else "")


def _render_table(request: HttpRequest, hand: Hand, status: int = 200, error: str = "", done: Replay | None = None) -> HttpResponse:
    sheet = selectors.score_sheet(hand.game)
    hint = _hint_on(request)
    context = presenter.table_view(hand, done, sheet=sheet, with_hint=hint)
    if not error and request.method == "GET" and request.GET.get(STALE) == "1":
        error = _stale_message()
    context.update(
        {
            "hint": hint,
            "error": error,
            "piao_choices": PIAO_CHOICES,
            "hint_url": _table_url(hand.game_id, not hint),
            "sheet": sheet,
        }
    )
    return render_page(request, "play/table.html", "table", context, status)


@require_http_methods(["GET", "POST"])
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    """/play/<game>/: the table; a POST is one action (verb, tile, liang_dao) with ``hand`` and ``seen``, the hand and the actions the page showed."""
    game = _game_or_log_in(request, game_id)
    if isinstance(game, HttpResponse):
        return game
    if request.method == "POST":
        form = forms.MoveForm(request.POST)
        if not form.is_valid():
            return _render_table(request, selectors.current_hand(game), status=400, error=next(iter(form.first_errors().values())))
        move = form.cleaned_data
        try:
            hand, changed, done = services.act(player=game.player, game_id=game.pk, seen=move["seen"], choice=move["move"], hand_id=move["hand"], client=client_ip(request))
        except Game.DoesNotExist:
            raise Http404("no such game") from None
        except services.StaleHand as exc:
            return _render_table(request, selectors.current_hand(game), status=409, error=str(exc.message))
        except PlayError as exc:
            return _render_table(request, selectors.current_hand(game), status=400, error=str(exc.message))
        if not wants_fragment(request):
            return HttpResponseRedirect(_table_url(game.pk, _hint_on(request), stale=not changed))
        if not changed:  # a stale tab or a repeat: the table as it is, and why nothing happened
            return _render_table(request, hand, status=409, error=_stale_message())
        return _render_table(request, hand, done=done)
    return _render_table(request, selectors.current_hand(game))


@require_POST
def auto(request: HttpRequest, game_id: int) -> HttpResponse:
    """Save the game's 自动胡 / 自动过 switches (checkboxes ``auto_win``, ``auto_pass``); they may answer the decision on the table at once."""
    game = _game_or_log_in(request, game_id)
    if isinstance(game, HttpResponse):
        return game
    form = forms.AutoForm(request.POST)
    form.is_valid()  # two checkboxes: any value is on or off, nothing to refuse
    try:
        hand = services.set_auto(player=game.player, game_id=game.pk, win=form.cleaned_data["auto_win"], passes=form.cleaned_data["auto_pass"], client=client_ip(request))
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    if wants_fragment(request):
        return _render_table(request, hand)
    return HttpResponseRedirect(_table_url(game.pk, _hint_on(request)))


@require_POST
def next_hand(request: HttpRequest, game_id: int) -> HttpResponse:
    """Deal the next hand (with the 漂 chosen for it) once the current one is over; hands dealt are limited per player and address (429)."""
    game = found(selectors.game_for(_player(request), game_id), "no such game")
    form = forms.NextHandForm(request.POST)
    current = selectors.current_hand(game)
    if not form.is_valid():
        return _render_table(request, current, status=400, error=next(iter(form.first_errors().values())))
    if current.over and form.cleaned_data["number"] == current.number:  # a hand will be dealt (a repeat deals none, and counts none)
        try:
            limits.counted_player(request, "hand", lambda: game.player)
        except limits.TooMany as exc:
            response = _render_table(request, current, status=429, error=exc.message)
            response["Retry-After"] = str(exc.wait)
            return response
    try:
        hand = services.next_hand(player=game.player, game_id=game.pk, client=client_ip(request), **form.cleaned_data)
    except Game.DoesNotExist:
        raise Http404("no such game") from None
    if wants_fragment(request):
        return _render_table(request, hand)
    return HttpResponseRedirect(_table_url(game.pk, _hint_on(request)))


def _review_page(request: HttpRequest, hand: Hand, shared: bool) -> HttpResponse:
    if not hand.over and hand.source != Hand.UPLOAD:  # a hand (or a branch) still at the table (an unfinished upload is reviewed as far as it goes)
        if shared:
            raise Http404("the hand is not over")
        return HttpResponseRedirect(reverse("play-table", args=[hand.game_id]) if hand.game_id is not None else reverse("play-branch", args=[hand.pk]))
    query = request.GET
    reads = selectors.review_reads(hand, query.get("step", ""), query.get("item", ""), shared)
    context = presenter.review_view(hand, reads, shared, open_text=query.get("open", ""), only_text=query.get("only", ""))
    context["here"] = request.get_full_path()
    return render_page(request, "play/review.html", "review", context)


@require_safe
def review(request: HttpRequest, hand_id: int) -> HttpResponse:
    """/play/<hand>/review/?step=N: the hand action by action, each decision judged by rollouts (or the review's progress while its task works)."""
    hand = selectors.hand_for(_player(request), hand_id)
    if hand is None:
        return _not_found(request)
    return _review_page(request, hand, shared=False)


@require_safe
def game_review(request: HttpRequest, game_id: int) -> HttpResponse:
    """/play/<game>/game-review/: every finished hand of the game in one page, the costliest decisions first, each a link into its hand's review."""
    game = found(selectors.game_for(_player(request), game_id), "no such game")
    return render(request, "play/game_review.html", presenter.game_review(game, selectors.finished_hands(game)))


@require_POST
def review_again(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Queue the hand's review again (it failed, or was never worked out); then back to the review page, which shows its progress."""
    try:
        hand = services.request_review(player=_player(request), hand_id=hand_id, client=client_ip(request))
    except Hand.DoesNotExist:
        raise Http404("no such hand") from None
    return HttpResponseRedirect(reverse("play-review", args=[hand.pk]))


@require_POST
def play_on(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Play on from a decision of a finished hand (``step``) with another choice (``move``): the branch is made and its table shown."""
    player = _player(request)
    origin = found(selectors.hand_for(player, hand_id), "no such hand")
    data = request.POST

    def refused(message: str, status: int) -> HttpResponse:
        context = presenter.review_view(origin, selectors.review_reads(origin, data.get("step", ""), "", False), False)
        context.update({"here": reverse("play-review", args=[origin.pk]), "play_on_error": message})
        return render(request, "play/review.html", context, status=status)

    form = forms.PlayOnForm(data)
    if not form.is_valid():
        return refused(next(iter(form.first_errors().values())), 400)
    try:
        limits.counted_player(request, "branch", lambda: player)
        branch = services.branch(player=player, hand_id=origin.pk, step=form.cleaned_data["step"], choice=form.cleaned_data["move"])
    except PlayError as exc:
        return refused(str(exc.message), 400)
    except limits.TooMany as exc:
        response = refused(exc.message, 429)
        response["Retry-After"] = str(exc.wait)
        return response
    return HttpResponseRedirect(reverse("play-branch", args=[branch.pk]))


@require_http_methods(["GET", "POST"])
def branch(request: HttpRequest, hand_id: int) -> HttpResponse:
    """/play/<hand>/branch/: a hand played on from a step of another; a POST is the person's next choice (or ``move=bot``: the strong bot plays the rest)."""
    player = _player(request)
    hand = found(selectors.branch_for(player, hand_id), "no such branch")
    status, error, done = 200, "", None
    if request.method == "POST":
        form = forms.BranchMoveForm(request.POST)
        try:
            if not form.is_valid():
                raise PlayError(*next(iter(form.first_errors().items())))
            hand, done = services.act_branch(player=player, hand_id=hand.pk, seen=form.cleaned_data["seen"], choice=form.cleaned_data["move"])
        except PlayError as exc:
            status, error = 400, str(exc.message)
        else:
            if not wants_fragment(request):
                return HttpResponseRedirect(reverse("play-branch", args=[hand.pk]))
    context = presenter.branch_view(hand, done)
    context["error"] = error
    return render_page(request, "play/branch.html", "table", context, status)


@require_safe
def shared_review(request: HttpRequest, token: str) -> HttpResponse:
    """A review opened by its share link (read-only, for anyone with the link)."""
    return _review_page(request, found(selectors.shared_hand(token), "no such shared hand"), shared=True)


def _sharing(request: HttpRequest, hand_id: int, change: Any, query: str = "") -> HttpResponse:
    """Apply ``change`` (services.share or unshare) to the player's own hand and go back to its review (a 404 for anyone else's)."""
    try:
        hand = change(player=_player(request), hand_id=hand_id)
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
    if not hand.over and hand.source != Hand.UPLOAD:
        raise Http404("the hand is not over")
    response = JsonResponse(hand.record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="kwx-hand-{hand.pk}.json"'
    return response


@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    """Paste or upload a kwx-hand/1 record to review it; a bad one is a 400 naming the action at fault."""
    form = forms.UploadForm(request.POST, request.FILES)  # the record is read and replayed once, by the form
    values = {"record": form.shown()}
    if not form.is_valid():
        return render(request, "play/start.html", _start_context(request, {"record": next(iter(form.first_errors().values()))}, values), status=400)
    try:
        player = limits.counted_player(request, "upload", lambda: player_for(request))
    except limits.TooMany as exc:
        return _too_many(request, exc, "record", values)
    upload = form.cleaned_data
    hand = services.upload(player=player, data=upload["data"], replay=upload["replay"], seat=upload["seat"], client=client_ip(request))
    return HttpResponseRedirect(reverse("play-review", args=[hand.pk]))


@require_POST
def review_item(request: HttpRequest, item_id: int) -> HttpResponse:
    """Answer a review item (a costly decision tried again): right moves it on, wrong brings it back soon."""
    form = forms.ChoiceForm(request.POST)
    try:
        answered = services.answer_review(player=_player(request), item_id=item_id, choice=form.cleaned_data["move"] if form.is_valid() else None)
    except ReviewItem.DoesNotExist:
        raise Http404("no such review item") from None
    item = answered.item
    if answered.correct is None:  # its review is being worked out again: nothing to judge the answer by yet
        return HttpResponseRedirect(reverse("play-review", args=[item.hand_id]))
    url = reverse("play-review", args=[item.hand_id]) + f"?step={item.step}&answered={'right' if answered.correct else 'wrong'}"
    return HttpResponseRedirect(url)

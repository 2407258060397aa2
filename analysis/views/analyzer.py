"""The analyzer page (``/`` and ``/analyze/``): build a hand by tapping tiles, see its waits and values.

The page's state is a ``analysis.board.Board`` read from the query (see that module for the
parameters and the edits). An htmx page shows the plain table first and fetches the EV
columns in a second request (trigger ``ev-load``); a plain request renders them at once.
An edit of a plain request is redirected to the canonical link; an htmx request gets its
region of the page back with ``HX-Push-Url`` set to that link. Each request asks the engine
once (``analyze_hand``) and shows its typed ``Analysis`` through the API's JSON form.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.cache import patch_vary_headers
from django_htmx.http import push_url, replace_url

from accounts.selectors import request_town
from analysis.board import (
    Board,
    apply_edit,
    board_url,
    read_board,
)
from analysis.ev_limits import EVRefused, ev_slot, request_budget
from analysis.presenter import EV_TRIGGER, TYPING_FIELDS, page_context
from analysis.table_page import ADVICE_TRIGGER, table_context
from kwx.hand.ev import (
    ASSUMPTIONS,
    DEFAULT_DISCARD_RATE,
    DEFAULT_LIANG_DAO_DISCARD_RATE,
    DEFAULT_SAMPLES,
    EXACT_MAX_SHANTEN,
)
from kwx.rules import label as rules_label
from kwx_site.htmx import render_page
from kwx_site.text import english


def _limited_context(board: Board, request: HttpRequest, with_ev: bool) -> dict[str, Any]:
    """``page_context``, with the EV figures only inside an EV slot (``ev_limits``); refused, the plain page says why."""
    if not (with_ev and board.ev):
        return page_context(board, base=request.path, with_ev=with_ev)
    try:
        with ev_slot(request) as run:
            return run(page_context, board, base=request.path, with_ev=with_ev, budget=request_budget(request))
    except EVRefused as refused:
        return {**page_context(board, base=request.path, with_ev=False), "ev_pending": False, "ev_refused": refused.message}


def _with_table(context: dict[str, Any], board: Board, request: HttpRequest, with_estimate: bool) -> dict[str, Any]:
    """The page context with the table's part (``analysis.table_page``), outside any EV slot the EV figures held."""
    table = table_context(board.table, board.hand, board.seen, board.rules, board.options, board.base, board.piao, request, with_estimate)
    table["advice_off_url"] = board_url(replace(board, table=replace(board.table, advice=False)), request.path)
    table["advice_after_ev"] = table["advice_pending"] and context.get("ev_pending", False)
    return {**context, **table}


def _board(request: HttpRequest) -> Board:
    """The request's board, an analyzer opened afresh starting from the viewer's town (``request_town``)."""
    town = request_town(request=request)
    return read_board(request.GET, (town.rules, town.options))


def analyzer(request: HttpRequest) -> HttpResponse:
    """The analyzer: full page, or for htmx the region that changed; edits redirect to the canonical link."""
    board, edited = apply_edit(_board(request), request.GET)
    htmx = request.htmx and not request.htmx.history_restore_request
    ev_request = bool(htmx) and request.htmx.trigger == EV_TRIGGER
    advice_request = bool(htmx) and request.htmx.trigger == ADVICE_TRIGGER
    if not htmx and _differs(request.GET, board_url(board, request.path)):
        # a link to redirect: the plain figures say whether it is clean, no EV or estimate is worked out for it
        plain = _with_table(page_context(board, base=request.path, with_ev=False), board, request, with_estimate=False)
        if _clean(plain, board):
            return HttpResponseRedirect(plain["url"], status=303) if edited else HttpResponseRedirect(plain["url"])
    context = _limited_context(board, request, with_ev=(not htmx or ev_request) and not advice_request)
    context = _with_table(context, board, request, with_estimate=not htmx or advice_request)
    url = context["url"]
    clean = _clean(context, board)
    typing = False
    if advice_request:
        partial = "advice"
    elif ev_request:
        partial = "results"
    else:
        typing = bool(htmx) and request.htmx.trigger_name in TYPING_FIELDS
        partial = "live" if typing else "app"
    response = render_page(request, "analysis/analyzer.html", partial, context)
    if ev_request and context["advice_pending"]:  # the estimate waited for the EV figures (one EV slot): fetch it now
        response.content += render_to_string("analysis/_advice.html", {**context, "oob": True}, request).encode()
    if htmx and not ev_request and not advice_request and (clean or not typing):
        (replace_url if typing else push_url)(response, url if clean else False)
    patch_vary_headers(response, ("HX-Trigger",))
    return response


def _clean(context: dict[str, Any], board: Board) -> bool:
    """Whether the page has nothing to say about the input: no error and no notice, the table's included."""
    return not context["errors"] and not board.notice and not board.table.table.errors and not board.table.notice


def _differs(query: QueryDict, url: str) -> bool:
    """Whether the request's query is not already the canonical one."""
    canonical = QueryDict(url.partition("?")[2])
    return sorted(query.lists()) != sorted(canonical.lists())


def ev_help(request: HttpRequest) -> HttpResponse:
    """The assumptions behind the EV columns, in the active language, with the parameters of the link."""
    board = _board(request)
    in_english = english()
    return render(
        request,
        "analysis/ev_help.html",
        {
            "assumptions": [(a.key, a.title_en if in_english else a.title, a.text_en if in_english else a.text) for a in ASSUMPTIONS],
            "board": board,
            "draws_error": board.errors.get("draws", ""),
            "rules_label": rules_label(board.rules, board.rule_set.options, in_english) if board.rule_set is not None else board.rules,
            "rate": DEFAULT_DISCARD_RATE,
            "liang_dao_rate": DEFAULT_LIANG_DAO_DISCARD_RATE,
            "samples": DEFAULT_SAMPLES,
            "exact_max_shanten": EXACT_MAX_SHANTEN,
            "back_url": board_url(replace(board, ev=True)),
        },
    )


urlpatterns = [
    path("", analyzer, name="analyzer"),
    path("analyze/", analyzer, name="analyze"),
    path("analyze/ev-help/", ev_help, name="analyzer-ev-help"),
]

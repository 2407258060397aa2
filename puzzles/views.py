"""Drill, quiz and progress pages. Thin: forms in, services/selectors, templates out.

One template serves each page and its htmx fragment: an htmx answer gets the
``board`` partial, a plain POST (no JavaScript) the whole page with the same feedback.
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.selectors import request_player, request_town
from accounts.services import player_for
from analysis import board
from analysis.discards import from_bank
from kwx.hand.fans import fan
from kwx_site.htmx import render_page, wants_fragment
from kwx_site.text import english, level_name
from play import selectors as play_selectors
from play.models import ReviewItem

from . import selectors, services
from .explain import KIND_NAMES, KIND_PROMPTS, choice_buttons, choice_rows, discard_explanation, table_explanation
from .forms import AnswerForm, ReportForm, ResolveForm
from .generation.themes import THEME_KEYS
from .limits import TooManyReports, counted_reporter
from .models import DrillReport, Puzzle
from .services import AnswerError, answer_puzzle
from .text import DRILL_NAMES, MODES, REPORT_KINDS, SIDES, THEMES, ev_explanation


def _kind(request: HttpRequest) -> str | None:
    """The table drill kind asked for (``?kind=pong``), or None for 何切 puzzles."""
    data = request.POST if request.method == "POST" else request.GET
    kind = data.get("kind")
    return kind if kind in Puzzle.TABLE_KINDS else None


def _mode(request: HttpRequest, kind: str) -> tuple[str, str | None]:
    """The drill mode and theme from the query or form (quiz items: the quiz mode, or review when due)."""
    data = request.POST if request.method == "POST" else request.GET
    if kind == Puzzle.QUIZ:
        return (data["mode"] if data.get("mode") in ("review", DAILY) else "quiz"), None
    mode = data.get("mode", "puzzle")
    theme = data.get("theme") if data.get("theme") in THEME_KEYS else None
    if mode not in selectors.MODES and mode not in ("puzzle", DAILY):
        mode = "puzzle"
    return ("theme" if theme and mode in ("theme", "puzzle") else mode), theme


DAILY = "daily"
"""The mode of the daily drill's page (``?mode=daily``): its answer leads back to today's set on the home page."""


def _next_url(mode: str, theme: str | None, kind: str | None = None) -> str:
    if mode == DAILY:
        return reverse("analyzer") + "#daily"
    if mode == "quiz":
        return reverse("quiz-next")
    query = {"mode": "rated" if mode == "puzzle" else mode} | ({"theme": theme} if theme else {}) | ({"kind": kind} if kind else {})
    return reverse("drills") + "?" + urlencode(query)


def analyzer_url(puzzle: Puzzle) -> str:
    """The analyzer's canonical link of a puzzle: its hand, visible tiles, rules and options, situation (and the EV columns)."""
    return board.analyzer_url(
        puzzle.notation,
        visible=puzzle.visible,
        rules=puzzle.rules,
        options=puzzle.changed_options,
        situation=puzzle.situation,
        ev=puzzle.is_ev,
        draws=puzzle.draws_left if puzzle.is_ev else board.DEFAULT_DRAWS,
    )


def _sidebar(request: HttpRequest, player: Any) -> dict[str, Any]:
    served = selectors.served_themes()
    return {
        "player": player,
        "due": selectors.due_count(player),
        "theme_choices": [THEMES[k] for k in THEME_KEYS if k in served],
        "modes": MODES,
        "kind_choices": [(k, KIND_NAMES[k]) for k in Puzzle.TABLE_KINDS],
    }


def _rules_context(request: HttpRequest, puzzle: Puzzle) -> dict[str, Any]:
    """The rules an item is asked under (its label, linked to the preset's learn page), what they pay beside the multiplier, and the notice
    for a player whose town is another (``selectors.town_notice``)."""
    in_english = english()
    return {
        "rules_label": puzzle.rules_label(in_english),
        "rules_url": reverse("learn-town", args=[puzzle.rules]),
        "rules_cap": puzzle.rule_set.cap,
        "paid_apart": selectors.paid_apart(puzzle.rule_set, english=in_english, dice=puzzle.kind == Puzzle.QUIZ),
        "town_notice": selectors.town_notice(puzzle=puzzle, town=request_town(request=request), english=in_english),
    }


def _puzzle_context(request: HttpRequest, puzzle: Puzzle, mode: str, theme: str | None, player: Any) -> dict[str, Any]:
    kind = puzzle.kind if puzzle.is_table else None
    table = selectors.table_view(puzzle)
    return {
        **_rules_context(request, puzzle),
        "puzzle": puzzle,
        "table": table,
        "hand_tiles": list(table.me.tiles) if table else puzzle.hand_tiles,
        "drawn_tile": table.me.drawn if table else None,
        "kind": kind,
        "kind_name": KIND_NAMES.get(puzzle.kind, ""),
        "kind_prompt": KIND_PROMPTS.get(puzzle.kind, ""),
        "choice_buttons": choice_buttons(puzzle) if kind else [],
        "mode": mode,
        "mode_name": MODES.get(mode, ""),
        "theme": theme,
        "theme_info": THEMES.get(theme) if theme else None,
        "situation_fans": [fan(k) for k in puzzle.situation],
        "side_name": SIDES.get(puzzle.win_side, ""),
        "attempt_id": uuid.uuid4().hex,
        "next_url": _next_url(mode, theme, kind if _kind(request) else None),
        "analyzer_url": analyzer_url(puzzle),
        "puzzle_themes": [THEMES[k] for k in puzzle.theme_list if k in THEMES],
        **_report_context(request, puzzle, _page_url(puzzle, mode, theme, kind)),
        **_sidebar(request, player),
    }


def _page_url(puzzle: Puzzle, mode: str, theme: str | None = None, kind: str | None = None) -> str:
    """The puzzle's own page in its mode (what a report made without JavaScript comes back to)."""
    query = ({"mode": mode} if mode not in ("puzzle", "quiz") else {}) | ({"theme": theme} if theme else {}) | ({"kind": kind} if kind else {})
    return reverse("quiz" if puzzle.kind == Puzzle.QUIZ else "drill", args=[puzzle.pk]) + ("?" + urlencode(query) if query else "")


def _report_context(request: HttpRequest, puzzle: Puzzle, back: str, form: ReportForm | None = None) -> dict[str, Any]:
    """What the report section of a drill's page shows: the form (or its errors), the open reports, a thank-you after a report."""
    reported = request.GET.get(REPORTED) if request.method == "GET" else None
    return {
        "open_reports": selectors.open_reports(puzzle=puzzle),
        "report_kinds": list(REPORT_KINDS.items()),
        "report_back": back,
        "report_form": form,
        "report_max": DrillReport.TEXT_MAX,
        "reported": reported if reported in ("new", "again") else None,
    }


def _feedback(result: Any) -> dict[str, Any]:
    puzzle = result.puzzle
    context: dict[str, Any] = {"result": result, "answer": result.attempt.answer, "correct": result.correct}
    if puzzle.is_table:
        rows = choice_rows(puzzle)
        context["choice_rows"] = rows
        context["best_label"] = " / ".join(r["label"] for r in rows if r["right"])
        context["answer_label"] = next((r["label"] for r in rows if r["answer"] == result.attempt.answer), result.attempt.answer)
        context["explanation"] = table_explanation(puzzle, result.attempt.answer)
        context["confirm_bot"] = level_name(puzzle.verdict.get("margin", {}).get("policy", "strong"))  # the bot that played the figures' deals out
    elif puzzle.kind == Puzzle.DISCARD:
        answer = result.attempt.answer
        if puzzle.is_ev:
            marks = {"accepted": puzzle.accepted, "plain_best": puzzle.ev["plain_best"], "mine": answer}
            context["ev_rows"] = from_bank(puzzle.options, estimates=puzzle.ev["options"], **marks)
            context["plain_rows"] = from_bank(puzzle.options, **marks)
            context["ev_explanation"] = ev_explanation(puzzle)
        else:
            context["discard_rows"] = from_bank(puzzle.options, accepted=puzzle.accepted, mine=answer)
            context["explanation"] = discard_explanation(puzzle, answer)
    else:
        context["breakdown"] = [{"fan": fan(f["key"]), **f} for f in puzzle.options["fans"]]
        context["quiz_money"] = selectors.quiz_money(puzzle=puzzle)
    return context


def _answer_page(request: HttpRequest, puzzle: Puzzle, template: str) -> HttpResponse:
    mode, theme = _mode(request, puzzle.kind)
    player = request_player(request)
    context = _puzzle_context(request, puzzle, mode, theme, player)
    status = 200
    if request.method == "POST":
        field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
        form = AnswerForm({field: request.POST.get(field), "attempt": request.POST.get("attempt"), "mode": mode}, puzzle=puzzle)
        try:
            if not form.is_valid() and form.refusal is not None:
                raise form.refusal
            result = answer_puzzle(player=lambda: player_for(request), puzzle=puzzle, **form.answer())
            context.update(_feedback(result))
            context.update(_sidebar(request, result.player))
        except AnswerError as exc:
            context["error"] = exc.message
            status = 400
    return render_page(request, template, "board", context, status)


@require_http_methods(["GET"])
def drills(request: HttpRequest) -> HttpResponse:
    """/drills/: the next puzzle of the chosen mode (a redirect to its shareable page)."""
    theme = request.GET.get("theme") if request.GET.get("theme") in THEME_KEYS else None
    mode = request.GET.get("mode", "theme" if theme else "rated")
    mode = mode if mode in selectors.MODES and mode != "quiz" else "rated"
    if mode == "theme" and theme is None:
        theme = THEME_KEYS[0]
    player = request_player(request)
    if mode == "review":
        head = selectors.next_in_review(player)
        if isinstance(head, ReviewItem):  # a played hand's costly decision opens in its review
            return redirect(play_selectors.item_url(head))
    kind = _kind(request) if mode in ("rated", "streak") else None
    puzzle = selectors.next_puzzle(player, mode, theme, kind=kind)
    if puzzle is None:
        sidebar = _sidebar(request, player)
        theme_empty = theme is not None and all(t.key != theme for t in sidebar["theme_choices"])
        context = {"mode": mode, "mode_name": MODES[mode], "theme": theme, "theme_empty": theme_empty, "kind": kind, **sidebar}
        return render(request, "puzzles/drill.html", context)
    query = {"mode": mode} | ({"theme": theme} if theme else {}) | ({"kind": kind} if kind else {})
    page = "quiz" if puzzle.kind == Puzzle.QUIZ else "drill"  # a due review card may be a 算番 item
    return redirect(reverse(page, args=[puzzle.pk]) + "?" + urlencode(query))


@require_http_methods(["GET", "POST"])
def drill(request: HttpRequest, pk: int) -> HttpResponse:
    """/drills/<id>/: one 何切 puzzle or table decision; POST a discard (or a choice) to see the explained answer."""
    return _answer_page(request, get_object_or_404(Puzzle, pk=pk, kind__in=Puzzle.DRILL_KINDS), "puzzles/drill.html")


@require_http_methods(["GET"])
def quiz_next(request: HttpRequest) -> HttpResponse:
    """/learn/quiz/: the next 算番 quiz item."""
    player = request_player(request)
    puzzle = selectors.next_puzzle(player, "quiz")
    if puzzle is None:
        return render(request, "puzzles/drill.html", {"mode": "quiz", "mode_name": MODES["quiz"], **_sidebar(request, player)})
    return redirect("quiz", pk=puzzle.pk)


@require_http_methods(["GET", "POST"])
def quiz(request: HttpRequest, pk: int) -> HttpResponse:
    """/learn/quiz/<id>/: a complete hand and how it was won; pick the total multiplier."""
    return _answer_page(request, get_object_or_404(Puzzle, pk=pk, kind=Puzzle.QUIZ), "puzzles/quiz.html")


def _kind_rows(figures: selectors.Progress) -> list[tuple[str, str, str, selectors.Tally, str]]:
    """/progress/'s rows by kind: 何切, each table decision, 算番; each with its link, its tally and the rating it moves (``Player.track_of``)."""
    drill_rating = _("Drill rating %(rating)s") % {"rating": round(figures.rating)}
    quiz_rating = _("算番 rating %(rating)s") % {"rating": round(figures.quiz_rating)}
    rows = [(Puzzle.DISCARD, str(DRILL_NAMES[Puzzle.DISCARD]), reverse("drills") + "?mode=rated", figures.discard, drill_rating)]
    rows += [(k, str(KIND_NAMES[k]), reverse("drills") + f"?mode=rated&kind={k}", figures.kinds[k], drill_rating) for k in Puzzle.TABLE_KINDS]
    rows.append((Puzzle.QUIZ, str(DRILL_NAMES[Puzzle.QUIZ]), reverse("quiz-next"), figures.quiz, quiz_rating))
    return rows


@require_http_methods(["GET"])
def progress(request: HttpRequest) -> HttpResponse:
    """/progress/: the request's own player only: attempts, accuracy, rating chart, themes, streak, reviews."""
    player = request_player(request)
    figures = selectors.progress(player)
    served = selectors.served_themes()
    context = {
        "progress": figures,
        "chart": selectors.rating_chart(figures.history),
        "theme_rows": [(THEMES[k], figures.themes[k]) for k in THEME_KEYS if figures.themes[k].attempts or k in served],
        "kind_rows": _kind_rows(figures),
        "modes": MODES,
        "play": play_selectors.play_summary(player),
        "play_due": play_selectors.due_items(player).count(),
        "play_due_url": play_selectors.first_due_url(player),
    }
    return render(request, "puzzles/progress.html", context)


REPORTED = "reported"
"""The query flag of a drill's page after a report sent without JavaScript (post, redirect, get): ``new`` or ``again``."""


def _back_to(puzzle: Puzzle, asked: str | None) -> str:
    """Where a report made without JavaScript comes back to: the puzzle's own page as the form named it (its mode kept), never elsewhere."""
    own = _page_url(puzzle, "puzzle")
    if not asked:
        return own
    parts = urlsplit(asked)
    if parts.scheme or parts.netloc or parts.path != own:
        return own
    query = [(k, v) for k, v in parse_qsl(parts.query) if k in ("mode", "theme", "kind")]
    return own + ("?" + urlencode(query) if query else "")


@require_http_methods(["GET", "POST"])
def report(request: HttpRequest, pk: int) -> HttpResponse:
    """/drills/<id>/report/: report a bad drill or quiz item. GET: the form alone; POST: stored (one open report per player and kind),
    then back to the drill's page (htmx: the report section in place); refused words are a 400 naming the field, too many reports a 429."""
    puzzle = get_object_or_404(Puzzle, pk=pk)
    back = _back_to(puzzle, request.POST.get("next") if request.method == "POST" else request.GET.get("next"))
    context: dict[str, Any] = {"puzzle": puzzle, "page_url": back, "standalone": not wants_fragment(request), **_report_context(request, puzzle, back)}
    status = 200
    if request.method == "POST":
        form = ReportForm(request.POST)
        context["report_form"] = form
        if not form.is_valid():
            status = 400
        else:
            try:
                player = counted_reporter(request, lambda: player_for(request))
            except TooManyReports as refused:
                context["report_refused"] = refused.message
                response = render_page(request, "puzzles/report.html", "report", context, 429)
                response["Retry-After"] = str(refused.wait)
                return response
            result = services.report_drill(player=player, puzzle=puzzle, **form.cleaned_data)
            state = "new" if result.new else "again"
            if not wants_fragment(request):
                return redirect(f"{back}{'&' if '?' in back else '?'}{REPORTED}={state}#report")
            context.update(reported=state, report_form=None, open_reports=selectors.open_reports(puzzle=puzzle), oob=True)
    return render_page(request, "puzzles/report.html", "report", context, status)


def _staff(request: HttpRequest) -> None:
    """Only staff may see or resolve reports: anyone else gets a 404 (the page does not exist for them)."""
    if not (request.user.is_authenticated and request.user.is_staff):
        raise Http404("not found")


def _reports_context() -> dict[str, Any]:
    """The staff page's drills with their names and their reports' kinds in the active language."""
    names = {**DRILL_NAMES, **KIND_NAMES}
    drills = [
        {
            "drill": d,
            "kind_name": names.get(d.puzzle.kind, d.puzzle.kind),
            "by_kind": [(REPORT_KINDS[kind], n) for kind, n in d.by_kind],
            "reports": [(r, REPORT_KINDS[r.kind]) for r in d.reports],
        }
        for d in selectors.reported_drills()
    ]
    return {"drills": drills}


@require_http_methods(["GET"])
def reports(request: HttpRequest) -> HttpResponse:
    """/drills/reports/ (staff only): the drills with open reports, the most reported first, each with its reports."""
    _staff(request)
    return render_page(request, "puzzles/reports.html", "reports", _reports_context())


@require_POST
def resolve(request: HttpRequest) -> HttpResponse:
    """POST /drills/reports/resolve/ (staff only): mark a drill's open reports resolved (or one of them); htmx gets the list back."""
    _staff(request)
    form = ResolveForm(request.POST)
    if not form.is_valid():
        context = {**_reports_context(), "error": " ".join(str(e) for errors in form.errors.values() for e in errors)}
        return render_page(request, "puzzles/reports.html", "reports", context, 400)
    services.resolve_reports(**form.cleaned_data)
    if not wants_fragment(request):
        return redirect("drill-reports")
    return render_page(request, "puzzles/reports.html", "reports", _reports_context())

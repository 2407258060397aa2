"""``/api/v1/puzzles/…`` and ``/api/v1/progress/``: the drills over HTTP.

The player is the request's own (account or anonymous session); no URL names a
player, so no one can read or change another's progress. Answers are idempotent
per client attempt id and throttled.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import request_player
from accounts.services import player_for
from kwx.errors import printable
from kwx.rules import record_options
from kwx_site.api_errors import ErrorSerializer, error_response
from kwx_site.limits import CounterThrottle
from kwx_site.text import english

from . import selectors
from .explain import choice_buttons
from .forms import AnswerForm
from .generation.themes import THEME_KEYS
from .models import Puzzle
from .services import AnswerError, AnswerResult, answer_puzzle


class AnswerThrottle(CounterThrottle):
    """At most ``rate`` answers per player: the account, else the client address."""

    scope = "puzzle_answer"
    rate = "60/min"


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """What a client needs to pose a puzzle, without its answer: with the rules it is asked under (``rules``, its options as a record stores them, its label)."""
    body: dict[str, Any] = {
        "id": puzzle.pk,
        "key": puzzle.key,
        "kind": puzzle.kind,
        "hand": puzzle.hand,
        "melds": puzzle.melds,
        "notation": puzzle.notation,
        "visible": puzzle.visible,
        "rules": puzzle.rules,
        "rule_options": record_options(puzzle.rules, puzzle.rule_set),
        "rules_label": puzzle.rules_label(english()),
        "situation": puzzle.situation,
        "themes": puzzle.theme_list,
        "rating": round(puzzle.rating),
    }
    if puzzle.kind == Puzzle.QUIZ:
        body.update({"win": puzzle.win_tile, "side": puzzle.win_side, "choices": puzzle.options["choices"]})
    elif puzzle.is_table:
        body.update({"turn": puzzle.turn, "wall_left": puzzle.wall_left, "table": puzzle.table, "choices": [c["answer"] for c in choice_buttons(puzzle)]})
    else:
        body.update({"turn": puzzle.turn, "wall_left": puzzle.wall_left})
        if puzzle.is_ev:
            body["draws_left"] = puzzle.draws_left
    return body


def result_json(result: AnswerResult) -> dict[str, Any]:
    """The answer's outcome: right or not, the accepted answers, the option table (or fan breakdown), ratings."""
    puzzle = result.puzzle
    return {
        "id": puzzle.pk,
        "attempt": result.attempt.attempt_id,
        "answer": result.attempt.answer,
        "correct": result.correct,
        "best": [int(a) for a in puzzle.accepted] if puzzle.kind == Puzzle.QUIZ else puzzle.accepted,
        "options": puzzle.options["fans"] if puzzle.kind == Puzzle.QUIZ else puzzle.options,
        **({"verdict": puzzle.verdict} if puzzle.is_table else {}),
        "rating": result.rating_json(),
        "streak": {"current": result.player.streak, "best": result.player.best_streak},
        "replay": result.replay,
        **({"ev": {"draws_left": puzzle.draws_left, **puzzle.ev}} if puzzle.is_ev else {}),
    }


ANSWER_FIELDS = frozenset({"discard", "choice", "attempt", "mode"})


class AnswerRequestSerializer(serializers.Serializer):
    discard = serializers.CharField(required=False, help_text="何切: the tile to discard, e.g. 4p.")
    choice = serializers.CharField(
        required=False,
        help_text="算番 quiz: the total multiplier picked (8); a table drill: one of its choices (pong, pass, kong, declare, hidden, or a tile).",
    )
    attempt = serializers.UUIDField(help_text="A client-made UUID (hyphens optional): the same id never counts twice.")
    mode = serializers.ChoiceField(choices=["rated", "theme", "review", "streak", "quiz", "puzzle"], required=False)


class NextPuzzleView(APIView):
    """The next puzzle for a mode (rated, theme, review, streak, quiz)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("mode", OpenApiTypes.STR, enum=list(selectors.MODES)),
            OpenApiParameter("theme", OpenApiTypes.STR, enum=list(THEME_KEYS)),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=list(Puzzle.TABLE_KINDS), description="Rated or streak: a table drill of this kind."),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer},
        summary="Next puzzle",
    )
    def get(self, request: Request) -> Response:
        theme = request.query_params.get("theme")  # an empty theme is refused too, as the schema says
        mode = request.query_params.get("mode", "theme" if theme else "rated")
        if mode not in selectors.MODES:
            return error_response("mode", _('Unknown mode "%(mode)s": use %(modes)s.') % {"mode": mode[:20], "modes": ", ".join(selectors.MODES)})
        if theme is not None and theme not in THEME_KEYS:
            return error_response("theme", _('Unknown theme "%(theme)s": use %(themes)s.') % {"theme": theme[:30], "themes": ", ".join(THEME_KEYS)})
        if mode == "theme" and theme is None:
            return error_response("theme", _("The theme mode needs a theme."))
        kind = request.query_params.get("kind")
        if kind is not None and kind not in Puzzle.TABLE_KINDS:
            return error_response("kind", _('Unknown kind "%(kind)s": use %(kinds)s.') % {"kind": kind[:20], "kinds": ", ".join(Puzzle.TABLE_KINDS)})
        puzzle = selectors.next_puzzle(request_player(request), mode, theme, kind=kind)
        if puzzle is None and mode == "theme" and theme not in selectors.served_themes():
            return error_response("theme", _('No puzzle carries the theme "%(theme)s" now.') % {"theme": theme}, status.HTTP_404_NOT_FOUND)
        if puzzle is None:
            return error_response("mode", _("No puzzle for this mode right now (nothing due for review?)."), status.HTTP_404_NOT_FOUND)
        return Response(puzzle_json(puzzle))


@extend_schema(exclude=True)  # the documented path takes a whole number; this only names what is wrong
class BadPuzzleIdView(APIView):
    """Any other text where a puzzle id belongs: a 404 that names the field ``id``."""

    def post(self, request: Request, pk: str) -> Response:
        """Refuse the id."""
        return error_response("id", _("A puzzle id is a whole number, not “%(id)s”.") % {"id": printable(pk[:40])}, status.HTTP_404_NOT_FOUND)

    get = post


class AnswerView(APIView):
    """Answer a puzzle once per attempt id; the rating moves on the first try at a puzzle only."""

    throttle_classes = [AnswerThrottle]

    @extend_schema(request=AnswerRequestSerializer, responses={200: OpenApiTypes.OBJECT, 400: ErrorSerializer, 404: ErrorSerializer, 429: ErrorSerializer}, summary="Answer a puzzle")
    def post(self, request: Request, pk: int) -> Response:
        puzzle = Puzzle.objects.filter(pk=pk).first()
        if puzzle is None:
            return error_response("id", _("There is no puzzle %(id)d.") % {"id": pk}, status.HTTP_404_NOT_FOUND)
        body = request.data
        if not isinstance(body, dict):
            return error_response("body", _("The request body must be a JSON object."))
        field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
        unknown = sorted(set(body) - {field, "attempt", "mode"})
        if unknown:
            name = printable(unknown[0][:40])
            if unknown[0] in ANSWER_FIELDS:
                return error_response(name, _("This puzzle is answered with %(field)s, not %(name)s.") % {"field": field, "name": name})
            return error_response(name, _('Unknown field "%(name)s".') % {"name": name})
        form = AnswerForm({**body, "mode": body.get("mode", "quiz" if puzzle.kind == Puzzle.QUIZ else "rated")}, puzzle=puzzle)
        if not form.is_valid() and form.refusal is not None:
            return error_response(form.refusal.field, str(form.refusal.message))
        try:
            result = answer_puzzle(player=lambda: player_for(request), puzzle=puzzle, **form.answer())
        except AnswerError as exc:
            return error_response(exc.field, str(exc.message))
        return Response(result_json(result))


class ProgressView(APIView):
    """The requesting player's own progress."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="Your progress")
    def get(self, request: Request) -> Response:
        return Response(selectors.progress(request_player(request)).as_json())

"""What the drills take in, checked: an answer to one puzzle (the page's form and the API's body alike)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from kwx import EngineError
from kwx.errors import printable
from kwx.hand.notation import parse_tile
from kwx.hand.tiles import TILE_IDS

from .models import Attempt, DrillReport, Puzzle
from .services import AnswerError


def normalise_answer(puzzle: Puzzle, answer: Any) -> str:
    """The answer as stored: a tile id held in the hand, or a multiplier among the quiz's choices."""
    if not isinstance(answer, (str, int)) or isinstance(answer, bool) or str(answer).strip() == "":
        field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
        raise AnswerError(field, _("Give one answer: a tile such as 4p, or a multiplier such as 8."))
    text = str(answer).strip()[:12]
    if puzzle.is_table:
        if text not in puzzle.choices:
            raise AnswerError("choice", _("Pick one of the choices: %(choices)s.") % {"choices": ", ".join(puzzle.choices)})
        return text
    if puzzle.kind == Puzzle.QUIZ:
        choices = [str(c) for c in puzzle.options["choices"]]
        if text.lstrip("×x") not in choices:
            raise AnswerError("choice", _("Pick one of the choices: %(choices)s.") % {"choices": ", ".join(choices)})
        return text.lstrip("×x")
    try:
        tile = TILE_IDS[parse_tile(text, "discard")]
    except EngineError as exc:
        raise AnswerError("discard", _('"%(text)s" is not a tile: write it like 4p, 7s or Z.') % {"text": printable(text)}) from exc
    if tile not in puzzle.hand_tiles:
        raise AnswerError("discard", _("%(tile)s is not in this hand.") % {"tile": tile})
    return tile


ATTEMPT_ID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.IGNORECASE)
"""A UUID, with or without its hyphens (what ``crypto.randomUUID()`` or ``uuid4().hex`` make)."""


def check_attempt_id(attempt_id: Any) -> str:
    """The client's attempt id, checked: a UUID (32 hex digits, hyphens optional), nothing else."""
    if not isinstance(attempt_id, str) or not ATTEMPT_ID.fullmatch(attempt_id.strip()):
        raise AnswerError("attempt", _("The attempt id must be a UUID, such as 3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3a."))
    return attempt_id.strip()


class AnswerForm(forms.Form):
    """An answer to ``puzzle``: its answer field (``discard`` for a 何切 puzzle, else ``choice``), ``attempt`` (a UUID) and ``mode``.

    Values are taken as sent (a JSON body's number stays a number); ``cleaned_data`` holds
    ``answer``, ``attempt_id`` and ``mode`` as ``services.answer_puzzle`` takes them, and
    ``refusal`` the first problem (an ``AnswerError`` naming its field), checked in that order.
    """

    attempt = forms.Field(required=False)
    mode = forms.Field(required=False)

    def __init__(self, data: Mapping[str, Any], *, puzzle: Puzzle) -> None:
        super().__init__(data)
        self.puzzle = puzzle
        self.answer_field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
        self.fields[self.answer_field] = forms.Field(required=False)
        self.refusal: AnswerError | None = None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        try:
            cleaned["answer"] = normalise_answer(self.puzzle, cleaned.get(self.answer_field))
            cleaned["attempt_id"] = check_attempt_id(cleaned.get("attempt"))
            mode = cleaned.get("mode")
            if not isinstance(mode, str) or mode not in dict(Attempt.MODES):
                modes = ", ".join(dict(Attempt.MODES))
                raise AnswerError("mode", _('Unknown mode "%(mode)s": use %(modes)s.') % {"mode": printable(str(mode)[:20]), "modes": modes})
        except AnswerError as exc:
            self.refusal = exc
            self.add_error(exc.field if exc.field in self.fields else None, str(exc.message))
        return cleaned

    def answer(self) -> dict[str, str]:
        """The checked answer as ``services.answer_puzzle``'s keywords."""
        return {key: self.cleaned_data[key] for key in ("answer", "attempt_id", "mode")}


class ReportForm(forms.Form):
    """A report that a drill is wrong: what is wrong (``kind``) and the player's own words (``text``, needed for "something else")."""

    kind = forms.ChoiceField(
        choices=DrillReport.KINDS,
        error_messages={"required": _("Say what is wrong: pick one of the choices."), "invalid_choice": _("Say what is wrong: pick one of the choices.")},
    )
    text = forms.CharField(
        required=False,
        strip=True,
        max_length=DrillReport.TEXT_MAX,
        error_messages={"max_length": _("Your words may be at most %(limit_value)d characters (you wrote %(show_value)d).")},
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("kind") == DrillReport.OTHER and not cleaned.get("text"):
            self.add_error("text", _("Say in a few words what is wrong."))
        return cleaned


class ResolveForm(forms.Form):
    """Staff mark reports resolved: the drill (``drill``, its id) and, to resolve only one, the report (``report``)."""

    drill = forms.ModelChoiceField(queryset=Puzzle.objects.all(), error_messages={"required": _("Name the drill."), "invalid_choice": _("No such drill.")})
    report = forms.IntegerField(required=False, min_value=1, error_messages={"invalid": _("The report must be a report's number.")})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        return {"puzzle": cleaned.get("drill"), "report_id": cleaned.get("report")}

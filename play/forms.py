"""What the play pages take in, checked: the start form, a move, the next hand, an uploaded record.

Each form's ``cleaned_data`` holds the values the services take (typed: a ``Choice``, whole
numbers, a record read and replayed once); its errors name the field and say what is wrong,
in the words the pages have always used.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.forms import TownForm
from analysis import records
from kwx.errors import printable
from kwx.hand.tiles import KIND_OF_ID
from kwx.numbers import read_whole
from kwx.rules import PRESETS
from kwx.table import seats
from kwx.table.seats import PERSON, Choice
from kwx.table.settlement import MAX_BASE, PIAO_CHOICES
from kwx.table.table import Action

from .services import BOT_PLAYS, LEVELS, MAX_UPLOAD


class PlayForm(forms.Form):
    """A play form: every field read as text (a missing one is ``""``), checked by its ``clean_<field>``."""

    def first_errors(self) -> dict[str, str]:
        """Each refused field's first message, as the pages show them."""
        return {field: str(errors[0]) for field, errors in self.errors.items()}


def optional_text(**kwargs: Any) -> forms.CharField:
    """A text field the form reads itself (never required: an absent one is empty)."""
    return forms.CharField(required=False, **kwargs)


def whole_or_none(value: Any) -> int | None:
    """A posted whole number, or None for anything else (a page's count or id that cannot be read)."""
    return read_whole(str(value or "").strip())


def check_piao(value: Any) -> int:
    """漂 as one of 0, 1, 2, 5."""
    number = whole_or_none(value)
    if number is None or number not in PIAO_CHOICES:
        raise ValidationError(_("漂 must be 0, 1, 2 or 5."))
    return number


def parse_choice(move: Any) -> Choice:
    """The person's choice from a form's ``move``: ``pass`` (过) or ``verb tile`` with ``ld`` for 亮倒, then ``kou`` and the triplets kept face down (半亮) (raises ValidationError)."""
    words = str(move or "").split()
    if words == [seats.PASS]:
        return Choice(None)
    rest = words[2:]
    kou_words = rest[2:] if rest[:2] == ["ld", "kou"] else []
    if len(words) < 2 or words[0] not in ("discard", "pong", "kong", "win") or not (rest in ([], ["ld"]) or (words[0] == "discard" and 1 <= len(kou_words) <= 4)):
        raise ValidationError(_("Choose one of the offered actions."))
    if any(word not in KIND_OF_ID for word in [words[1], *kou_words]):
        raise ValidationError(_("Choose a tile of your hand."))
    return Choice(Action(PERSON, words[0], KIND_OF_ID[words[1]], bool(rest), frozenset(KIND_OF_ID[t] for t in kou_words)))


class StartForm(PlayForm):
    """/play/: the bots' level, the rules (a preset and its room switches, as ``{% town_picker embedded=True %}`` posts them), the base stake and 漂.

    ``cleaned_data["options"]`` holds the room switches turned (read by ``accounts.forms.TownForm``,
    the picker's own reader: a switch of a preset the form no longer shows is left out).
    """

    level = optional_text()
    rules = optional_text()
    base = optional_text()
    piao = optional_text()

    def clean_level(self) -> str:
        level: str = self.cleaned_data["level"]
        if level not in LEVELS:
            raise ValidationError(_("Choose the bots' level: basic, companion, strong or judge."))
        return level

    def clean_rules(self) -> str:
        rules: str = self.cleaned_data["rules"]
        if rules not in PRESETS:
            raise ValidationError(_("Choose one of the rule presets."))
        return rules

    def clean_base(self) -> int:
        number = whole_or_none(self.cleaned_data["base"])
        if number is None or not 1 <= number <= MAX_BASE:
            raise ValidationError(_("The base stake must be a whole number from 1 to %(limit)d.") % {"limit": MAX_BASE})
        return number

    def clean_piao(self) -> int:
        return check_piao(self.cleaned_data["piao"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "rules" in cleaned:
            town = TownForm(self.data)
            if town.is_valid():
                cleaned["options"] = town.cleaned_data["switches"]
            else:
                self.add_error("rules", next(iter(town.errors.values()))[0])
        return cleaned


class ChoiceForm(PlayForm):
    """A choice at the table (or a review item tried again): ``move``."""

    move = optional_text()

    def clean_move(self) -> Choice:
        return parse_choice(self.cleaned_data["move"])


class MoveForm(ChoiceForm):
    """One action at the table: the choice, and the page it was made on (``hand``, and ``seen``: how many actions it showed).

    A count or hand that cannot be read is None: the services treat it as a page that is not the
    table as it is (nothing is played), as for any stale page.
    """

    seen = optional_text()
    hand = optional_text()

    def clean_seen(self) -> int | None:
        return whole_or_none(self.cleaned_data["seen"])

    def clean_hand(self) -> int | None:
        return whole_or_none(self.cleaned_data["hand"])


class PlayOnForm(ChoiceForm):
    """Play on from a step of a finished hand: the step (a count that cannot be read is None: the service names the range) and the other choice."""

    step = optional_text()

    def clean_step(self) -> int | None:
        return whole_or_none(self.cleaned_data["step"])


class BranchMoveForm(PlayForm):
    """The person's next choice in a branch (``move``, or ``bot``: the strong bot plays the rest) and how many actions the page showed."""

    seen = optional_text()
    move = optional_text()

    def clean_seen(self) -> int | None:
        return whole_or_none(self.cleaned_data["seen"])

    def clean_move(self) -> Choice | None:
        move = self.cleaned_data["move"]
        return None if move.strip() == BOT_PLAYS else parse_choice(move)


class NextHandForm(PlayForm):
    """The next hand of a game: the number of the hand the page showed over, and the 漂 chosen for the next."""

    number = optional_text()
    piao = optional_text()

    def clean_number(self) -> int | None:
        return whole_or_none(self.cleaned_data["number"])

    def clean_piao(self) -> int:
        return check_piao(self.cleaned_data["piao"])


class AutoForm(PlayForm):
    """The game's 自动胡 / 自动过 switches: a checkbox each (ticked sends 1; absent is off)."""

    auto_win = forms.BooleanField(required=False)
    auto_pass = forms.BooleanField(required=False)


class UploadForm(PlayForm):
    """A pasted (``record``) or uploaded (``file``) kwx-hand/1 record and the seat to review it from; the record is read and replayed once, here.

    ``cleaned_data`` holds ``data`` (the record as JSON data), ``replay`` (its replay) and ``seat``.
    """

    record = optional_text(strip=False)
    file = forms.FileField(required=False)
    seat = optional_text()

    def raw(self) -> str | bytes:
        """The record as sent: the file's bytes (one past the limit, so the reader can say it is too long), else the pasted text."""
        file = self.files.get("file")
        if file is not None:
            data: bytes = file.read(MAX_UPLOAD + 1)
            file.seek(0)
            return data
        return str(self.data.get("record", ""))

    def shown(self) -> str:
        """The record as the form shows it again after a refusal."""
        raw = self.raw()
        return (raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw)[:MAX_UPLOAD]

    def clean_seat(self) -> int:
        text = str(self.cleaned_data["seat"] or "0").strip()
        if text not in ("0", "1", "2"):
            raise ValidationError(_("Choose the seat to review: 0, 1 or 2."))
        return int(text)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        raw = self.raw()
        if not raw.strip():
            self.add_error("record", _("Paste a kwx-hand/1 record (JSON) or choose a file."))
            return cleaned
        try:
            cleaned["data"], cleaned["replay"] = records.read_record(raw, whole="record")
        except records.RecordRefused as exc:
            message: Any = exc.message
            if exc.action is not None:
                message = _("Action %(index)d (%(action)s): %(problem)s") % {
                    "index": exc.action,
                    "action": _action_text(raw, exc.action),
                    "problem": message,
                }
            self.add_error("record", message)
        return cleaned


def _action_text(text: str | bytes, index: int) -> str:
    """The faulty action as it was written (short; a character that cannot be shown as its code point)."""
    try:
        return printable(json.dumps(json.loads(text)["actions"][index], ensure_ascii=False))[:80]
    except (ValueError, KeyError, IndexError, TypeError):
        return "?"

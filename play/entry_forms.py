"""What the enter page takes in (/play/enter/), checked: the rules and switches, who dealt, the dice, your tiles, the moves, and a tap.

``EnterForm.cleaned_data`` holds an ``entry`` (a ``play.entry.Entry``) with the tap or button applied
to its moves; the errors name the field and say what is wrong.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.forms import TownForm
from kwx.hand.tiles import KIND_OF_ID
from kwx.rules import PRESETS, record_options

from .entry import Entry
from .forms import PlayForm, optional_text, whole_or_none

MAX_MOVES = 6_000
"""Characters of the moves: a whole hand written out is under 1,000."""
CLAIMS = ("R:pong", "R:kong", "R:win", "L:pong", "L:kong", "L:win", "I:pong", "I:kong", "I:win")
"""The claim buttons: who (R 下家, L 上家, I you) and what, on the tile on offer (or your win on your draw)."""


class EnterForm(PlayForm):
    """The whole entry as the page posts it: every field, plus at most one of ``tap`` (a palette tile), ``claim`` (a claim button) or ``undo``."""

    rules = optional_text()
    dealer = optional_text()
    dice1 = optional_text()
    dice2 = optional_text()
    hand = optional_text(max_length=200)
    moves = optional_text(max_length=MAX_MOVES, strip=False)
    tap = optional_text()
    claim = optional_text()
    undo = optional_text()
    declare = forms.BooleanField(required=False)
    shown = optional_text(max_length=80)

    def clean_dealer(self) -> int:
        text = str(self.cleaned_data["dealer"] or "0").strip()
        if text not in ("0", "1", "2"):
            raise ValidationError(_("Choose who dealt: you, 下家 or 上家."))
        return int(text)

    def clean_tap(self) -> int | None:
        text = self.cleaned_data["tap"].strip()
        if not text:
            return None
        if text not in KIND_OF_ID:
            raise ValidationError(_("Tap a tile of the palette."))
        return KIND_OF_ID[text]

    def clean_claim(self) -> str:
        text: str = self.cleaned_data["claim"].strip()
        if text and text not in CLAIMS:
            raise ValidationError(_("Choose one of the claim buttons."))
        return text

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        dice = (whole_or_none(cleaned.get("dice1")), whole_or_none(cleaned.get("dice2")))
        if any(d is not None and not 1 <= d <= 6 for d in dice) or (dice[0] is None) != (dice[1] is None):
            self.add_error("dice1", _("The dice are two numbers from 1 to 6 (needed where the rules play 上楼)."))
        if "rules" not in cleaned or "dealer" not in cleaned:
            return cleaned
        town = TownForm(self.data)
        switches: dict[str, Any] = {}
        if town.is_valid():
            switches = town.cleaned_data["switches"]
        else:
            self.add_error("rules", next(iter(town.errors.values()))[0])
        rules = cleaned["rules"]
        options = tuple(sorted(record_options(rules, PRESETS[rules].switched(switches)).items()))
        thrown = (dice[0], dice[1]) if dice[0] is not None and dice[1] is not None else None
        cleaned["entry"] = Entry(rules, options, cleaned["dealer"], cleaned.get("hand", "").strip(), cleaned.get("moves", ""), thrown)
        return cleaned

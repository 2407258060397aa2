"""The account forms: sign-up with an optional e-mail address, the account's e-mail address, and the town picked."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext, gettext_lazy

from kwx import EngineError
from kwx.rules import PRESETS, OptionValue, read_option_text

EMAIL_HELP = gettext_lazy("Only used to send you a link if you forget your password.")


class SignupForm(UserCreationForm):
    """Django's sign-up form (username, password twice) and an optional e-mail address for password resets."""

    email = forms.EmailField(label=gettext_lazy("E-mail (optional)"), required=False, help_text=EMAIL_HELP)

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class EmailForm(forms.ModelForm):
    """The account's e-mail address (may be left empty)."""

    class Meta:
        model = get_user_model()
        fields = ["email"]
        labels = {"email": gettext_lazy("E-mail")}
        help_texts = {"email": EMAIL_HELP}


class TownForm(forms.Form):
    """A town picked: a preset and the room switches of it that were changed (town-rules.md §3.3).

    ``shown`` names the preset whose switches the form showed: when the preset was changed in the
    same submit, those switches belong to the old preset and are left out (the new one starts
    from its own values). A switch left at its preset's value is not kept.
    """

    rules = forms.ChoiceField(choices=lambda: [(key, key) for key in PRESETS])  # read when asked: a preset added later is a choice too
    shown = forms.CharField(required=False, max_length=40)

    def clean(self) -> dict[str, Any]:
        """The preset and the switches changed (``switches``), each read as a link writes it and checked."""
        data = super().clean()
        rules = data.get("rules")
        if rules is None:
            return data
        chosen = PRESETS[rules]
        switches: dict[str, OptionValue] = {}
        if data.get("shown") in ("", rules):
            for key in chosen.room:
                if key in self.data:
                    raw = self.data.getlist(key)[-1] if hasattr(self.data, "getlist") else self.data[key]
                    try:
                        value = read_option_text(key, str(raw)[:40])
                    except EngineError as exc:
                        self.add_error(None, exc.translated(gettext))
                        continue
                    if value != chosen.values.value(key):
                        switches[key] = value
        data["switches"] = switches
        return data

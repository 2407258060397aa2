"""The account forms: sign-up with an optional e-mail address, and the account's e-mail address."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy

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

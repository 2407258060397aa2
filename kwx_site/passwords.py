"""Password validators whose messages the site translates itself.

Django 5.2 changed the too-short message's msgid (``%d`` for ``%(min_length)d``) and
its Chinese catalog has no translation for the new one, so the Chinese sign-up said
"This password is too short" in English. This validator says it in the site's words.
"""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's minimum length check with a message from the site's own catalog."""

    def get_error_message(self) -> str:
        """The refusal, in the active language."""
        return ngettext(
            "This password is too short: it must have at least %(min_length)d character.",
            "This password is too short: it must have at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}

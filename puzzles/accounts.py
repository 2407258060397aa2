"""Password reset by e-mail (Django's views in the site's templates) and the account's e-mail address.

A reset mail goes out through ``EMAIL_BACKEND`` (the console by default, see
docs/deploy.md), in the language of the page that asked for it. Asking is limited
per client address (as log-in and sign-up are) and per e-mail address, and the page
after asking says the same whether or not an account has that address.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from kwx_site.limits import hit

from .views import EMAIL_HELP, too_many

MAILS_PER_ADDRESS = 3
"""Reset mails to one e-mail address per ``MAIL_WINDOW`` seconds (more asks get the same page, no mail)."""
MAIL_WINDOW = 3600


class PasswordResetView(auth_views.PasswordResetView):
    """/accounts/password/reset/: ask for a reset link by e-mail."""

    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return too_many(request, "reset") or super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        address = form.cleaned_data["email"].strip().casefold()
        if not hit("auth-reset-mail", address, MAILS_PER_ADDRESS, MAIL_WINDOW):
            return redirect(self.get_success_url())  # the same page as a sent mail: nothing tells what is known
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """/accounts/reset/<uid>/<token>/: choose a new password; then the player is logged in (their progress follows)."""

    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("password_reset_complete")


class EmailForm(forms.ModelForm):
    """The account's e-mail address (may be left empty)."""

    class Meta:
        model = get_user_model()
        fields = ["email"]
        labels = {"email": gettext_lazy("E-mail")}
        help_texts = {"email": EMAIL_HELP}


@login_required
@require_http_methods(["GET", "POST"])
def email(request: HttpRequest) -> HttpResponse:
    """/accounts/email/: set the address a reset link goes to."""
    form = EmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your e-mail address was saved.") if form.cleaned_data["email"] else _("Your e-mail address was removed."))
        return redirect("progress")
    return render(request, "registration/email_form.html", {"form": form})

"""The account pages: sign-up, log-in and log-out, password change and reset by e-mail, the e-mail address, the town.

Django's auth views, in the site's templates (``accounts/templates/accounts``). Log-in,
sign-up and reset asks are limited per client address (log-in also per account and address); a
reset mail goes out through ``EMAIL_BACKEND`` (the console by default, see
docs/deploy.md), in the language of the page that asked for it, is limited per (asking address,
e-mail address) and per e-mail address, and the page after asking says the same whether or not
an account has that address (a refused ask says it was refused, whoever the address belongs to).
"""

from __future__ import annotations

import math
import time
import unicodedata
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from kwx_site.htmx import render_page, wants_fragment
from kwx_site.limits import client_ip, hit, over_until

from .forms import EmailForm, SignupForm, TownForm
from .services import choose_rules, player_for

AUTH_LIMIT = 10
"""Sign-up and reset-ask posts allowed per client address, and log-in posts per (account, address), in ``AUTH_WINDOW`` seconds."""
LOGIN_ADDRESS_LIMIT = 30
"""Log-in posts allowed per client address, whatever the accounts, in ``AUTH_WINDOW`` seconds."""
AUTH_WINDOW = 300


def login_account(username: Any) -> str:
    """Whom a log-in post is for, as the log-in form reads it: the user id when the name is an account's, else the name.

    The form strips the name and takes its NFKC form (``UsernameField``), and the backend looks
    that up exactly: so a look-alike (fullwidth ``ａ``) is the same account. A name that is
    no account is keyed by its casefolded NFKC form.
    """
    name = unicodedata.normalize("NFKC", username.strip()) if isinstance(username, str) else ""
    model = get_user_model()
    longest = model._meta.get_field(model.USERNAME_FIELD).max_length or 150
    if name and "\x00" not in name and len(name) <= longest:
        found = model._default_manager.filter(**{model.USERNAME_FIELD: name}).values_list("pk", flat=True).first()
        if found is not None:
            return f"user-{found}"
    return "name-" + name.casefold()


def too_many(request: HttpRequest, scope: str) -> HttpResponse | None:
    """A 429 page once this client address posted to ``scope`` too often in the window (for log-in: ``LOGIN_ADDRESS_LIMIT``
    in all, or ``AUTH_LIMIT`` for one account).

    Log-in tries count per (account, address), never per account alone: wrong passwords sent
    from elsewhere cannot lock the owner out (docs/deploy.md says why). Every post counts,
    atomically, in the limits table (``kwx_site.limits``), so concurrent posts cannot all slip
    under the limit and nothing else written can evict a count.
    """
    if request.method != "POST":
        return None
    address = client_ip(request)
    address_ok = hit(f"auth-{scope}", address, LOGIN_ADDRESS_LIMIT if scope == "login" else AUTH_LIMIT, AUTH_WINDOW)
    account_ok = True
    username = request.POST.get("username", "")
    if scope == "login" and isinstance(username, str) and username.strip():
        account_ok = hit("auth-login-account", f"{login_account(username)}|{address}", AUTH_LIMIT, AUTH_WINDOW)
    if not (address_ok and account_ok):
        context = {"minutes": AUTH_WINDOW // 60, "for_account": address_ok}
        return render(request, "accounts/too_many.html", context, status=429)
    return None


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """/accounts/signup/: make an account; the session's progress moves into it."""
    limited = too_many(request, "signup")
    if limited:
        return limited
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s: your drills are saved to your account.") % {"name": user.get_username()})
        return redirect(safe_next(request) or "progress")
    return render(request, "accounts/signup.html", {"form": form})


@require_safe
def logged_out(request: HttpRequest) -> HttpResponse:
    """/accounts/logged-out/: where log-out lands, saying so (what stays in the account, how to log in again)."""
    return render(request, "accounts/logged_out.html")


def safe_next(request: HttpRequest) -> str | None:
    """The ``next`` of the query or form when it points into this site (as the log-in view checks it), else None."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return target if allowed else None


class LoginView(auth_views.LoginView):
    """/accounts/login/ with a per-address limit on attempts."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return too_many(request, "login") or super().dispatch(request, *args, **kwargs)


class PasswordChangeView(auth_views.PasswordChangeView):
    """/accounts/password/: change the password (logged-in only)."""

    template_name = "accounts/password_change_form.html"

    def form_valid(self, form: Any) -> HttpResponse:
        messages.success(self.request, _("Your password was changed."))
        return super().form_valid(form)

    def get_success_url(self) -> str:
        return reverse("progress")


MAILS_PER_ASKER = 3
"""Reset mails one client address may ask for one e-mail address per ``MAIL_WINDOW`` seconds."""
MAILS_PER_ADDRESS = 10
"""Reset mails to one e-mail address per ``MAIL_WINDOW`` seconds from all client addresses together (no mail-bombing)."""
MAIL_WINDOW = 3600


class PasswordResetView(auth_views.PasswordResetView):
    """/accounts/password/reset/: ask for a reset link by e-mail."""

    template_name = "accounts/password_reset_form.html"
    email_template_name = "accounts/password_reset_email.txt"
    subject_template_name = "accounts/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return too_many(request, "reset") or super().dispatch(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        """Send the mail unless a limit says no; then say so (the limits count every ask, account or not, so nothing tells what is known)."""
        address = form.cleaned_data["email"].strip().casefold()
        until = over_until("auth-reset-mail-asker", f"{client_ip(self.request)}|{address}", MAILS_PER_ASKER, MAIL_WINDOW)
        mine = until is not None
        if not mine:
            until = over_until("auth-reset-mail", address, MAILS_PER_ADDRESS, MAIL_WINDOW)
        if until is not None:
            minutes = max(1, math.ceil((until - time.time()) / 60))
            context = {"refused": True, "mine": mine, "minutes": minutes, "asks": MAILS_PER_ASKER, "timeout_hours": settings.PASSWORD_RESET_TIMEOUT // 3600}
            response = render(self.request, "accounts/password_reset_done.html", context, status=429)
            response["Retry-After"] = str(minutes * 60)
            return response
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """/accounts/reset/<uid>/<token>/: choose a new password; then the player is logged in (their progress follows)."""

    template_name = "accounts/password_reset_confirm.html"
    post_reset_login = True
    post_reset_login_backend = "django.contrib.auth.backends.ModelBackend"
    success_url = reverse_lazy("password_reset_complete")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    """/accounts/password/reset/sent/: the same page whether or not a mail went out, with how long a link works."""

    template_name = "accounts/password_reset_done.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return super().get_context_data(**kwargs) | {"timeout_hours": settings.PASSWORD_RESET_TIMEOUT // 3600}


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    """/accounts/reset/done/: the new password is set."""

    template_name = "accounts/password_reset_complete.html"


@login_required
@require_http_methods(["GET", "POST"])
def email(request: HttpRequest) -> HttpResponse:
    """/accounts/email/: set the address a reset link goes to."""
    form = EmailForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your e-mail address was saved.") if form.cleaned_data["email"] else _("Your e-mail address was removed."))
        return redirect("progress")
    return render(request, "accounts/email_form.html", {"form": form})


@require_http_methods(["GET", "POST"])
def town(request: HttpRequest) -> HttpResponse:
    """/town/: the player's town (the rules the site applies for them), picked once and changed in one tap.

    A plain POST stores it (``choose_rules``) and goes back to ``next`` (a page of this site), or
    shows this page again; an htmx POST (a select or toggle changed) answers the picker itself,
    with ``HX-Trigger: kwx:town`` so a page that shows figures may fetch them again.
    """
    back = safe_next(request)
    if request.method == "POST":
        form = TownForm(request.POST)
        if form.is_valid():
            player = player_for(request)
            assert player is not None
            choose_rules(player=player, rules=form.cleaned_data["rules"], options=form.cleaned_data["switches"])
            if not wants_fragment(request):
                return redirect(back or reverse("town"))
            response = render_page(request, "accounts/town.html", "picker", {"next": back or "", "saved": True})
            response["HX-Trigger"] = "kwx:town"
            return response
        return render_page(request, "accounts/town.html", "picker", {"next": back or "", "form_errors": form.errors.get("__all__") or form.errors.get("rules")}, status=400)
    return render_page(request, "accounts/town.html", None, {"next": back or ""})

"""Access: nobody reads or changes another player's progress, sheets or account, and every
state-changing page form refuses a POST without its CSRF token."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from settlement.models import ScoreSheet
from settlement.services import Owner, create_sheet
from tests.puzzles.factories import discard_puzzle

pytestmark = pytest.mark.django_db


def page_paths() -> list[str]:
    """Every page URL of the site (not the API), path parameters filled with 1."""
    paths: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern):
                paths.append("/" + re.sub(r"<(?:\w+:)?\w+>", "1", route).lstrip("^").rstrip("$"))

    walk(get_resolver().url_patterns, "")
    return [p for p in paths if not p.startswith(("/api/", "/healthz/"))]


def test_the_site_has_the_pages_we_expect():
    paths = page_paths()
    for expected in ("/", "/drills/", "/learn/", "/settle/", "/progress/", "/accounts/login/", "/i18n/setlang/"):
        assert expected in paths


@pytest.mark.parametrize("path", page_paths())
def test_every_page_refuses_a_post_without_csrf_token(path):
    client = Client(enforce_csrf_checks=True)
    response = client.post(path, {"anything": "1"})
    assert response.status_code in (403, 405), (path, response.status_code)


@pytest.fixture
def owner_with_data(django_user_model):
    """Player A: an account with an answered puzzle and a score sheet."""
    user = django_user_model.objects.create_user("alice", password="a-long-password-1")
    client = Client()
    client.force_login(user)
    puzzle = discard_puzzle("34556p123789sZZZ")
    response = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", {"discard": "3p", "attempt": str(uuid.uuid4())}, content_type="application/json")
    assert response.status_code == 200
    sheet = create_sheet(Owner(user_id=user.pk), ["甲", "乙", "丙"])
    return user, sheet


@pytest.fixture(params=["anonymous", "other player"])
def intruder(request, django_user_model):
    client = Client()
    if request.param == "other player":
        client.force_login(django_user_model.objects.create_user("bob", password="b-long-password-1"))
    return client


def test_progress_is_never_someone_elses(owner_with_data, intruder):
    assert intruder.get("/api/v1/progress/").json()["attempts"] == 0
    page = intruder.get("/progress/")
    assert page.status_code == 200 and "alice" not in page.content.decode()


def test_sheets_are_not_readable_or_changeable_by_others(owner_with_data, intruder):
    _, sheet = owner_with_data
    base = f"/settle/sheets/{sheet.pk}"
    for path in (f"{base}/", f"{base}.csv", f"{base}/edit/", f"{base}/hands/new/"):
        assert intruder.get(path).status_code == 404, path
    assert intruder.post(f"{base}/delete/").status_code == 404
    assert intruder.post(f"{base}/hands/new/", {"result": "draw", "action": "save"}).status_code == 404
    assert ScoreSheet.objects.filter(pk=sheet.pk).exists()
    assert ScoreSheet.objects.get(pk=sheet.pk).hands.count() == 0


def test_account_pages_need_the_account(owner_with_data):
    anonymous = Client()
    response = anonymous.get("/accounts/password/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = anonymous.post("/accounts/password/", {"old_password": "x", "new_password1": "y", "new_password2": "y"})
    assert response.status_code == 302
    user, _ = owner_with_data
    user.refresh_from_db()
    assert user.check_password("a-long-password-1")


def test_oversized_form_posts_are_refused_without_a_server_error(client):
    response = client.post("/settle/", {"name_0": "x" * 70_000})
    assert response.status_code == 413  # by its Content-Length, before it is read (RequestGuardMiddleware)
    assert ScoreSheet.objects.count() == 0


@pytest.mark.parametrize("url", ["/analyze/?hand=4556p%00", "/drills/?theme=%00", "/api/v1/analyze/?hand=%00", "/play/shared/%00/"])
def test_a_nul_in_the_address_is_a_400_before_any_view(url):
    response = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en").get(url)
    assert response.status_code == 400 and "NUL" in response.content.decode()

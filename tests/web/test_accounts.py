"""Sign up, log in, log out, change password; anonymous progress moves into the account."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Player
from accounts.views import LOGIN_ADDRESS_LIMIT
from puzzles.models import Attempt
from tests.puzzles.factories import aid, discard_puzzle

pytestmark = pytest.mark.django_db
PASSWORD = "tiles-and-dragons-42"


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast tests; same flows


def _drill(client, attempt="a1"):
    puzzle = discard_puzzle("34556p123789sZZZ")
    client.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid(attempt), "mode": "rated"})
    return puzzle


def test_signup_keeps_the_sessions_progress():
    client = Client()
    _drill(client)
    r = client.post("/accounts/signup/", {"username": "ann", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302
    player = Player.objects.get(user__username="ann")
    assert player.attempts.count() == 1 and player.rating > 1500
    assert Player.objects.filter(merged_into__isnull=True).count() == 1  # the session's player is now a pointer to the account


def test_login_merges_the_session_into_the_account():
    user = User.objects.create_user("bob", password=PASSWORD)
    account = Player.objects.create(user=user)
    client = Client()
    _drill(client, "x1")
    _drill(client, "x2")
    r = client.post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    assert r.status_code == 302
    assert account.attempts.count() == 2 and Player.objects.filter(merged_into__isnull=True).count() == 1
    assert client.get("/api/v1/progress/").json()["attempts"] == 2


def test_logging_in_twice_does_not_double_count():
    User.objects.create_user("cy", password=PASSWORD)
    client = Client()
    _drill(client)
    client.post("/accounts/login/", {"username": "cy", "password": PASSWORD})
    client.post("/accounts/logout/")
    client.post("/accounts/login/", {"username": "cy", "password": PASSWORD})
    assert Attempt.objects.count() == 1


def test_logout_is_post_only_and_forgets_the_user():
    User.objects.create_user("di", password=PASSWORD)
    client = Client()
    client.login(username="di", password=PASSWORD)
    assert client.get("/accounts/logout/").status_code == 405
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


def test_change_password():
    User.objects.create_user("ed", password=PASSWORD)
    client = Client()
    assert client.get("/accounts/password/").status_code == 302  # log in first
    client.login(username="ed", password=PASSWORD)
    page = client.get("/accounts/password/").content.decode()
    assert 'name="old_password"' in page
    r = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": "new-" + PASSWORD, "new_password2": "new-" + PASSWORD})
    assert r.status_code == 302
    assert User.objects.get(username="ed").check_password("new-" + PASSWORD)


def test_forms_are_styled_pages_with_csrf():
    for url in ("/accounts/login/", "/accounts/signup/"):
        html = Client().get(url).content.decode()
        assert "csrfmiddlewaretoken" in html and "drills.css" in html and 'class="auth card"' in html


def test_bad_signup_shows_errors_in_place():
    r = Client().post("/accounts/signup/", {"username": "fy", "password1": "a", "password2": "b"})
    assert r.status_code == 200 and 'class="error"' in r.content.decode() and not User.objects.exists()


def test_too_many_logins_from_one_address_get_a_429():
    client = Client()
    codes = [client.post("/accounts/login/", {"username": f"nobody{i}", "password": "x"}).status_code for i in range(LOGIN_ADDRESS_LIMIT + 1)]
    assert codes[:LOGIN_ADDRESS_LIMIT] == [200] * LOGIN_ADDRESS_LIMIT and codes[LOGIN_ADDRESS_LIMIT] == 429
    page = client.post("/accounts/login/", {"username": "nobody", "password": "x"}).content.decode()
    assert "你的地址" in page and "这个账号" not in page


def test_too_many_signups_from_one_address_get_a_429_that_says_why():
    client = Client()
    posts = [client.post("/accounts/signup/", {"username": "fy", "password1": "a", "password2": "b"}) for _ in range(11)]
    assert [p.status_code for p in posts[:10]] == [200] * 10 and posts[10].status_code == 429
    assert "5" in posts[10].content.decode() and not User.objects.exists()


def test_one_account_cannot_see_anothers_progress():
    for name in ("gu", "hu"):
        User.objects.create_user(name, password=PASSWORD)
    gu = Client()
    gu.login(username="gu", password=PASSWORD)
    _drill(gu)
    hu = Client()
    hu.login(username="hu", password=PASSWORD)
    assert gu.get("/api/v1/progress/").json()["attempts"] == 1
    assert hu.get("/api/v1/progress/").json()["attempts"] == 0
    assert 'data-testid="attempts">0<' in hu.get("/progress/").content.decode()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "https:evil.example", "javascript:alert(1)", "/\\evil.example"])
def test_signup_never_redirects_off_the_site(target):
    r = Client().post(f"/accounts/signup/?next={target}", {"username": "ivy", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and r.url == "/progress/"
    assert User.objects.filter(username="ivy").exists()


def test_signup_follows_a_next_on_the_site():
    r = Client().post("/accounts/signup/?next=/drills/%3Fmode%3Dstreak", {"username": "jo", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and r.url == "/drills/?mode=streak"


def test_sign_up_from_a_page_comes_back_to_it_as_log_in_does():
    """Issue 38 item 7: the menu's "Sign up" carried no ``next`` (log in did), so an account made from a page landed on /progress/."""
    client = Client()
    page = client.get("/learn/fans/?x=1").content.decode()
    assert 'href="/accounts/signup/?next=/learn/fans/%3Fx%3D1"' in page and 'href="/accounts/login/?next=/learn/fans/%3Fx%3D1"' in page
    form = client.get("/accounts/signup/?next=/learn/fans/%3Fx%3D1").content.decode()
    assert 'action="/accounts/signup/?next=/learn/fans/%3Fx%3D1"' in form
    assert 'href="/accounts/login/?next=/learn/fans/%3Fx%3D1"' in form  # switching to log in keeps the place, and back
    assert 'href="/accounts/signup/?next=/learn/fans/%3Fx%3D1"' in client.get("/accounts/login/?next=/learn/fans/%3Fx%3D1").content.decode()
    assert "next=/accounts/" not in form  # an account page never sends you back to itself
    r = client.post("/accounts/signup/?next=/learn/fans/%3Fx%3D1", {"username": "kai", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and r.url == "/learn/fans/?x=1"


def test_a_short_password_is_refused_in_chinese():
    r = Client().post("/accounts/signup/", {"username": "ann", "password1": "k5x-9", "password2": "k5x-9"})
    html = r.content.decode()
    assert r.status_code == 200 and "密码太短：至少要 8 个字符。" in html and "too short" not in html
    english = Client().post("/accounts/signup/", {"username": "ann", "password1": "k5x-9", "password2": "k5x-9"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "This password is too short: it must have at least 8 characters." in english.content.decode()


def test_a_cookie_kept_from_before_the_log_in_never_writes_into_the_account_nor_reads_it():
    """Session fixation (issue 26 finding 6): someone holding the anonymous cookie the victim logged in with."""
    user = User.objects.create_user("vic", password=PASSWORD)
    account = Player.objects.create(user=user, rating=1800)
    victim = Client()
    _drill(victim, "v1")
    attacker = Client()
    attacker.cookies.load({name: morsel.value for name, morsel in victim.cookies.items()})  # a copy, taken before the log-in
    assert victim.post("/accounts/login/", {"username": "vic", "password": PASSWORD}).status_code == 302
    account.refresh_from_db()
    rating, attempts = account.rating, account.attempts.count()
    puzzle = discard_puzzle("34556p123789sZZZ")
    answer = attacker.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", {"discard": "3p", "attempt": aid("f1")}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["rating"]["before"] == 1500  # a new anonymous player, not the account
    attacker.post(f"/drills/{puzzle.pk}/", {"discard": "3p", "attempt": aid("f2"), "mode": "rated"})
    attacker.post("/play/", {"level": "basic", "rules": "standard", "base": "1", "piao": "0"})
    account.refresh_from_db()
    assert (account.rating, account.attempts.count()) == (rating, attempts)
    assert not account.games.exists() and not account.hands.exists()
    assert victim.get("/api/v1/progress/").json()["attempts"] == attempts  # the victim's own session is untouched

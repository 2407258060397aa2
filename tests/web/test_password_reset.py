"""Password reset by e-mail (the locmem mail backend), the account's e-mail address, and their limits."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.views import MAILS_PER_ADDRESS, MAILS_PER_ASKER
from puzzles.models import Player
from tests.puzzles.factories import aid, discard_puzzle

pytestmark = pytest.mark.django_db
PASSWORD = "tiles-and-dragons-42"
NEW = "new-winds-and-dragons-7"


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    assert settings.EMAIL_BACKEND == "django.core.mail.backends.locmem.EmailBackend"  # pytest-django's, not the console


@pytest.fixture
def ann():
    user = User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)
    Player.objects.create(user=user, rating=1720, best_streak=9)
    return user


def _link(message) -> str:
    return re.search(r"http://testserver(/accounts/reset/[^/\s]+/[^/\s]+/)", message.body).group(1)


def test_a_reset_link_by_mail_sets_a_new_password_and_keeps_the_progress(ann):
    client = Client()
    assert "忘记密码？" in client.get("/accounts/login/").content.decode()
    r = client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert r.status_code == 302 and r.url == "/accounts/password/reset/sent/"
    assert "请查收邮件" in client.get(r.url).content.decode()
    (message,) = mail.outbox
    assert message.to == ["ann@example.org"] and message.subject == "你的 kwx 密码" and "ann，你好" in message.body
    opened = client.get(_link(message))
    assert opened.status_code == 302 and opened.url.endswith("/set-password/")  # Django moves the token into the session
    form = client.get(opened.url).content.decode()
    assert 'name="new_password1"' in form and 'class="auth card"' in form
    done = client.post(opened.url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done.url == "/accounts/reset/done/"
    assert "你已用新密码登录为 ann" in client.get(done.url).content.decode()
    ann.refresh_from_db()
    assert ann.check_password(NEW) and not ann.check_password(PASSWORD)
    assert Player.objects.get(user=ann).rating == 1720  # nothing lost
    again = Client().get(_link(message), follow=True).content.decode()
    assert "这个链接已失效" in again  # a link works once


def test_the_mail_and_pages_follow_the_language_of_the_request(ann):
    client = Client()
    r = client.post("/accounts/password/reset/", {"email": "ann@example.org"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Check your e-mail" in client.get(r.url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    (message,) = mail.outbox
    assert message.subject == "Your kwx password" and message.body.startswith("Hello ann,")
    short = client.post(client.get(_link(message)).url, {"new_password1": "k5x-9", "new_password2": "k5x-9"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "This password is too short" in short.content.decode()


def test_an_unknown_address_gets_the_same_page_and_no_mail(ann):
    r = Client().post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert r.status_code == 302 and r.url == "/accounts/password/reset/sent/" and mail.outbox == []


def test_three_asks_from_elsewhere_do_not_silence_the_owners_own_ask(ann):
    stranger = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(MAILS_PER_ASKER):
        assert stranger.post("/accounts/password/reset/", {"email": "ANN@example.org"}).status_code == 302
    owner = Client(REMOTE_ADDR="192.0.2.1")
    assert owner.post("/accounts/password/reset/", {"email": "ann@example.org"}).status_code == 302
    assert len(mail.outbox) == MAILS_PER_ASKER + 1


def test_an_ask_over_a_limit_sends_nothing_and_the_page_says_so(ann):
    client = Client(REMOTE_ADDR="203.0.113.9", HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(MAILS_PER_ASKER):
        client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    refused = client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "no mail was sent" in refused.content.decode() and len(mail.outbox) == MAILS_PER_ASKER
    unknown = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert unknown.status_code == 302  # another address: its own count, and no account is told apart
    for n in range(MAILS_PER_ADDRESS - MAILS_PER_ASKER):
        assert Client(REMOTE_ADDR=f"10.0.0.{n}").post("/accounts/password/reset/", {"email": "ann@example.org"}).status_code == 302
    flooded = Client(REMOTE_ADDR="192.0.2.1", HTTP_ACCEPT_LANGUAGE="en").post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert flooded.status_code == 429 and "too often" in flooded.content.decode()
    assert len(mail.outbox) == MAILS_PER_ADDRESS  # a mailbox gets at most this many an hour, however many ask


def test_too_many_reset_asks_from_one_address_get_a_429(ann):
    client = Client()
    codes = [client.post("/accounts/password/reset/", {"email": f"x{n}@example.org"}).status_code for n in range(11)]
    assert codes[:10] == [302] * 10 and codes[10] == 429


def test_signing_up_with_an_e_mail_makes_the_account_resettable():
    client = Client()
    discard = discard_puzzle("34556p123789sZZZ")
    client.post(f"/drills/{discard.pk}/", {"discard": "3p", "attempt": aid("a1"), "mode": "rated"})
    r = client.post("/accounts/signup/", {"username": "bo", "email": "bo@example.org", "password1": PASSWORD, "password2": PASSWORD})
    assert r.status_code == 302 and User.objects.get(username="bo").email == "bo@example.org"
    Client().post("/accounts/password/reset/", {"email": "bo@example.org"})
    assert len(mail.outbox) == 1
    assert Client().post("/accounts/signup/", {"username": "cy", "password1": PASSWORD, "password2": PASSWORD}).status_code == 302


def test_an_account_sets_its_e_mail_address():
    User.objects.create_user("di", password=PASSWORD)
    client = Client()
    assert client.get("/accounts/email/").status_code == 302  # log in first
    client.login(username="di", password=PASSWORD)
    assert "还没有填电子邮箱" in client.get("/accounts/password/").content.decode()
    bad = client.post("/accounts/email/", {"email": "not-an-address"})
    assert bad.status_code == 200 and 'class="error"' in bad.content.decode()
    assert client.post("/accounts/email/", {"email": "di@example.org"}).status_code == 302
    assert User.objects.get(username="di").email == "di@example.org"
    assert "重设链接会发到 di@example.org" in client.get("/accounts/password/").content.decode()

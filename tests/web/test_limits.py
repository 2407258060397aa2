"""Limits: the client address comes from the trusted proxy hop only, and counts are atomic and not evictable."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client, RequestFactory

from accounts.views import AUTH_LIMIT, LOGIN_ADDRESS_LIMIT
from kwx_site.limits import client_ip
from kwx_site.models import RateCounter
from puzzles.models import Player
from tests.concurrency import run_together
from tests.puzzles.factories import discard_puzzle

PASSWORD = "tiles-and-dragons-42"


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _windows_stand_still(stopped_clock):
    """No limit's window ends while a loaded machine works through a test's requests."""


def _request(remote="10.0.0.1", forwarded=None):
    extra = {"REMOTE_ADDR": remote} | ({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {})
    return RequestFactory().get("/", **extra)


def test_without_trusted_proxies_the_address_is_the_peer(settings):
    settings.TRUSTED_PROXY_HOPS = 0
    assert client_ip(_request("10.0.0.1", "1.2.3.4")) == "10.0.0.1"


def test_behind_one_proxy_only_the_address_it_appended_counts(settings):
    settings.TRUSTED_PROXY_HOPS = 1
    assert client_ip(_request("10.0.0.9", "6.6.6.6, 203.0.113.5")) == "203.0.113.5"
    assert client_ip(_request("10.0.0.9", "203.0.113.5")) == "203.0.113.5"
    assert client_ip(_request("10.0.0.9")) == "10.0.0.9"


def test_behind_two_proxies_the_outer_proxys_view_counts(settings):
    settings.TRUSTED_PROXY_HOPS = 2
    assert client_ip(_request("10.0.0.9", "6.6.6.6, 203.0.113.5, 198.51.100.1")) == "203.0.113.5"


def test_drf_uses_the_same_hop_count(settings):
    from django.conf import settings as live

    assert live.REST_FRAMEWORK["NUM_PROXIES"] == live.TRUSTED_PROXY_HOPS


@pytest.mark.django_db
def test_a_rotating_forwarded_for_does_not_lift_the_answer_limit(settings):
    settings.TRUSTED_PROXY_HOPS = 1
    puzzle = discard_puzzle("34556p123789sZZZ")
    codes = []
    for i in range(65):  # a new cookie-less client each time, a made-up address in front of the proxy's
        r = Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{i}, 203.0.113.5").post(f"/api/v1/puzzles/{puzzle.pk}/answer/", {"discard": "3p", "attempt": str(uuid.uuid4())}, content_type="application/json")
        codes.append(r.status_code)
    assert codes[:60] == [200] * 60 and set(codes[60:]) == {429}


@pytest.mark.django_db
def test_log_in_limits_count_each_client_behind_the_proxy(settings):
    settings.TRUSTED_PROXY_HOPS = 1
    noisy = Client(REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="203.0.113.5")
    for i in range(LOGIN_ADDRESS_LIMIT + 1):
        noisy.post("/accounts/login/", {"username": f"nobody{i}", "password": "x"})
    other = Client(REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="203.0.113.77")
    assert noisy.post("/accounts/login/", {"username": "z", "password": "x"}).status_code == 429
    assert other.post("/accounts/login/", {"username": "z2", "password": "x"}).status_code == 200


@pytest.mark.django_db
def test_one_account_is_limited_per_address_and_wrong_passwords_from_elsewhere_do_not_lock_its_owner_out():
    User.objects.create_user("bob", password=PASSWORD)
    codes = [Client(REMOTE_ADDR=f"203.0.113.{i}").post("/accounts/login/", {"username": "bob", "password": f"guess{i}"}).status_code for i in range(30)]
    assert codes == [200] * 30  # thirty addresses, one wrong password each
    guesser = Client(REMOTE_ADDR="198.51.100.7")
    assert [guesser.post("/accounts/login/", {"username": "bob", "password": f"g{i}"}).status_code for i in range(AUTH_LIMIT)] == [200] * AUTH_LIMIT
    late = guesser.post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    assert late.status_code == 429 and "_auth_user_id" not in guesser.session
    assert "这个账号" in late.content.decode()  # says which limit
    owner = Client(REMOTE_ADDR="192.0.2.1")
    assert owner.post("/accounts/login/", {"username": "bob", "password": PASSWORD}).status_code == 302
    assert owner.session["_auth_user_id"] == str(User.objects.get(username="bob").pk)


@pytest.mark.django_db
@pytest.mark.parametrize("look_alike", ["carol3f1ａ", " carol3f1a ", "ｃａｒｏｌ３ｆ１ａ"])
def test_a_name_the_form_reads_as_the_same_account_counts_for_it(look_alike):
    from accounts.views import login_account

    carol = User.objects.create_user("carol3f1a", password=PASSWORD)
    assert login_account(look_alike) == login_account("carol3f1a") == f"user-{carol.pk}"  # the counter is the account's
    client = Client(REMOTE_ADDR="198.51.100.8")
    for i in range(AUTH_LIMIT):
        client.post("/accounts/login/", {"username": "carol3f1a", "password": f"guess{i}"})
    late = client.post("/accounts/login/", {"username": look_alike, "password": PASSWORD})
    assert late.status_code == 429 and "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_nul_in_a_username_is_a_form_error_and_its_counter_key_is_plain_text():
    response = Client(raise_request_exception=False).post("/accounts/login/", {"username": "a\x00b", "password": "x"})
    assert response.status_code == 200
    assert all(key.isprintable() for key in RateCounter.objects.values_list("key", flat=True))


@pytest.mark.django_db
def test_filling_the_cache_does_not_reset_the_log_in_lock_out():
    client = Client()
    for i in range(LOGIN_ADDRESS_LIMIT):
        client.post("/accounts/login/", {"username": f"nobody{i}", "password": "x"})
    for i in range(1000):  # e.g. answer-throttle entries of many sessions
        cache.set(f"throttle_filler_{i}", "x")
    assert client.post("/accounts/login/", {"username": "nobody", "password": "x"}).status_code == 429


@pytest.mark.django_db(transaction=True)
def test_concurrent_sign_ups_stop_at_the_limit():
    def sign_up(i):
        Client().post("/accounts/signup/", {"username": f"racer{i}", "password1": PASSWORD, "password2": PASSWORD})

    errors = run_together([lambda i=i: sign_up(i) for i in range(30)])
    assert not errors
    assert User.objects.count() == 10


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{"discard": "9s"}, {"discard": "3p", "attempt": ""}, {"discard": "", "attempt": "x"}])
def test_a_refused_anonymous_answer_makes_no_player_and_no_session(body):
    puzzle = discard_puzzle("34556p123789sZZZ")
    client = Client()
    api = client.post(f"/api/v1/puzzles/{puzzle.pk}/answer/", body, content_type="application/json")
    page = client.post(f"/drills/{puzzle.pk}/", body)
    assert api.status_code == page.status_code == 400
    assert not Player.objects.exists() and not Session.objects.exists()
    assert "sessionid" not in client.cookies

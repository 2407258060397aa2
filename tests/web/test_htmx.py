"""Every htmx view decides fragment or page the same way (kwx_site.htmx): an htmx request gets its fragment,
an htmx history restore (the browser's cache of the page was gone) and a plain request the whole page, and
each answer says it depends on ``HX-Request`` so no cache serves one for the other."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Player
from settlement.services import create_sheet
from tests.conftest import ROOT
from tests.puzzles.factories import aid, discard_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
RESTORE = HTMX | {"HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}
KONG_TYPES = {f"kong_type_{i}": "an_gang" for i in range(4)}
HAND = {"piao_0": "0", "piao_1": "0", "piao_2": "0", "result": "self_draw", "winner": "0", "hand": "4556p123s789sZZZ", "tile": "5p", **KONG_TYPES}


@dataclass(frozen=True)
class Fragment:
    """A page's URL, and the htmx request its page makes for a fragment (method, URL, form data)."""

    page: str
    method: str
    url: str
    data: dict[str, str]


def _memorise(client: Client) -> Fragment:
    return Fragment("/learn/koujue/memorise/", "get", "/learn/koujue/memorise/?n=1&reveal=1", {})


def _calculator(client: Client) -> Fragment:
    setup = {"name_0": "甲", "name_1": "乙", "name_2": "丙", "base": "1", "rules": "standard"}
    return Fragment("/settle/", "post", "/settle/", setup | HAND)


def _sheet_hand(client: Client) -> Fragment:
    client.force_login(_user())
    sheet = create_sheet(player=Player.objects.get_or_create(user=_user())[0], players=["甲", "乙", "丙"])
    url = f"/settle/sheets/{sheet.pk}/hands/new/"
    return Fragment(url, "post", url, HAND | {"token": "t1"})


def _drill(client: Client) -> Fragment:
    url = f"/drills/{discard_puzzle('34556p123789sZZZ').pk}/"
    return Fragment(url, "post", url, {"discard": "3p", "attempt": aid("htmx-drill")})


def _quiz(client: Client) -> Fragment:
    url = f"/learn/quiz/{quiz_puzzle('4556p123789sZZZ', '5p').pk}/"
    return Fragment(url, "post", url, {"choice": "1", "attempt": aid("htmx-quiz")})


def _play_table(client: Client) -> Fragment:
    started = client.post("/play/", {"level": "basic", "rules": "standard", "base": "1", "piao": "0"})
    url = started["Location"]
    return Fragment(url, "get", url, {})


def _play_review(client: Client) -> Fragment:
    record = json.loads((ROOT / "tests" / "vectors" / "hands.json").read_text(encoding="utf-8"))["cases"][0]["record"]
    uploaded = client.post("/play/upload/", {"record": json.dumps(record), "seat": "0"})
    url = uploaded["Location"]
    return Fragment(url, "get", url + "?step=3", {})


def _user():
    user, _ = get_user_model().objects.get_or_create(username="htmx-sheets")
    return user


VIEWS: dict[str, Callable[[Client], Fragment]] = {
    "learn-memorise": _memorise,
    "settle": _calculator,
    "settle-hand": _sheet_hand,
    "drill": _drill,
    "quiz": _quiz,
    "play-table": _play_table,
    "play-review": _play_review,
}


def _varies(response) -> bool:
    return "hx-request" in {v.strip().lower() for v in response.get("Vary", "").split(",")}


@pytest.mark.parametrize("name", VIEWS)
def test_a_history_restore_gets_the_whole_page(client, name):
    view = VIEWS[name](client)
    plain, restored = client.get(view.page), client.get(view.page, **RESTORE)
    assert plain.status_code == restored.status_code == 200
    assert "<html" in restored.content.decode() and "<html" in plain.content.decode()
    assert _varies(plain) and _varies(restored)


@pytest.mark.parametrize("name", VIEWS)
def test_the_fragment_answer_is_a_fragment_that_varies_on_hx_request(client, name):
    view = VIEWS[name](client)
    response = getattr(client, view.method)(view.url, view.data, **HTMX)
    assert response.status_code in (200, 400), response.content[:300]
    assert "<html" not in response.content.decode() and response.content.strip()
    assert _varies(response)

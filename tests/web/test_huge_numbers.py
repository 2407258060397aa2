"""Numbers longer than Python reads (over 4,300 digits) are refused naming the field, never a 500 (issue 26, finding 3)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from play.models import Game, Hand
from tests.conftest import VECTORS
from tests.play.helpers import move_for

pytestmark = pytest.mark.django_db
HUGE = "1" + "0" * 5000
START = {"level": "basic", "rules": "standard", "base": "1", "piao": "0"}
SETTLE = {"players": ["甲", "乙", "丙"], "result": "self_draw", "winners": [{"player": "甲", "hand": "4556p123789sZZZ", "tile": "5p"}]}


@pytest.fixture
def client():
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize("field", ["base", "piao"])
def test_the_start_form_names_the_field(client, field):
    response = client.post("/play/", START | {field: HUGE})
    assert response.status_code == 400
    assert f'id="{field}-error"' in response.content.decode() or "漂" in response.content.decode()
    assert not Game.objects.exists()


def _game(client) -> Game:
    assert client.post("/play/", START).status_code == 302
    return Game.objects.get()


def test_a_table_post_with_a_huge_seen_changes_nothing(client):
    game = _game(client)
    hand = game.hands.get()
    before = hand.record
    response = client.post(f"/play/{game.pk}/", {"seen": HUGE, "hand": hand.pk, "move": move_for(hand)})
    assert response.status_code in (200, 302)
    assert Hand.objects.get(pk=hand.pk).record == before


def test_the_next_hand_names_the_piao(client):
    game = _game(client)
    response = client.post(f"/play/{game.pk}/next/", {"number": "1", "piao": HUGE})
    assert response.status_code == 400 and "漂" in response.content.decode()


@pytest.mark.parametrize("base", [HUGE, None, "-" + HUGE, "--5"], ids=["text", "number", "negative-text", "two-minus"])
def test_the_settle_api_names_the_base(client, base):
    body = json.dumps(SETTLE | {"base": base}) if base is not None else json.dumps(SETTLE)[:-1] + f', "base": {HUGE}}}'
    response = client.post("/api/v1/settle/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "base"


def test_the_analyze_api_names_draws_left(client):
    response = client.get("/api/v1/analyze/", {"hand": "4556p123789sZZZ", "depth": "ev", "draws_left": HUGE})
    assert response.status_code == 400 and response.json()["error"]["field"] == "draws_left"


def test_a_review_step_or_item_of_any_length_is_read_as_the_end(client):
    record = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))["cases"][0]["record"]
    assert client.post("/play/upload/", {"record": json.dumps(record), "seat": "0"}).status_code == 302
    hand = Hand.objects.get()
    assert client.get(f"/play/{hand.pk}/review/", {"step": HUGE, "item": HUGE}).status_code == 200


@pytest.mark.parametrize("query", [{"tdel": "r0." + HUGE}, {"remove_meld": HUGE}])
def test_analyzer_edits_with_a_huge_index_do_nothing(client, query):
    response = client.get("/analyze/", {"hand": "46p11s[555p][FFF][BBB]", "r0": "5p", **query})
    assert response.status_code in (200, 302, 303)

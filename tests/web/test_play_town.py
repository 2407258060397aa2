"""/play/ under a town (issue 35 item 6), through the whole stack: the start form with the player's town and the town
picker, a town game stored with every option, a 孝感 hand played to its end and replayed by the API to the same nets,
the dice of 上楼, a 半亮 declaration seen from another seat, and a review judged under the town's rules."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from kwx.hand.tiles import TILE_IDS
from kwx.rules import PRESETS
from kwx.table import advice
from kwx.table.record import Record
from kwx.table.selfplay import seeded_deal
from play import services
from play.models import Game, Hand
from tests.play.helpers import KouBot, keys_hand, run_queued_tasks
from tests.web.test_play import current, play_hand

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
HTMX = {"HTTP_HX_REQUEST": "true"}


def town_start(client: Client, rules: str, **switches: str) -> Game:
    """Sit down under ``rules`` with the switches as the embedded picker posts them."""
    response = client.post("/play/", {"level": "basic", "rules": rules, "shown": rules, "base": "1", "piao": "0", **switches})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def test_the_start_form_defaults_to_the_players_town_with_the_town_picker(client):
    client.post("/town/", {"rules": "xiaogan", "shown": "xiaogan", "next": "/play/"})
    body = client.get("/play/", **EN).content.decode()
    picker = body.split('id="town-picker"', 1)[1]
    assert '<option value="xiaogan" selected>' in picker and 'name="shu_kan"' in picker  # its room switches
    assert 'id="town-save"' in body and 'hx-get="/play/"' in body


def test_changing_the_rules_shows_that_towns_switches_with_htmx_and_without_javascript(client):
    fragment = client.get("/play/?rules=suizhou&shown=standard&piao=2", **HTMX, **EN)
    text = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in text and text.lstrip().startswith('<div id="town-box"')
    assert '<option value="suizhou" selected>' in text and 'name="mai_ma"' in text and '<option value="2" selected>' in text
    looked = client.post("/play/", {"level": "basic", "rules": "shiyan_town", "shown": "standard", "base": "1", "piao": "0", "look": "1"}, **EN)
    assert looked.status_code == 200 and '<option value="shiyan_town" selected>' in looked.content.decode()
    assert not Game.objects.exists()  # looking starts nothing


def test_piao_is_not_asked_where_the_rules_play_none(client):
    text = client.get("/play/?rules=xiaogan&shown=xiaogan&piao_mode=off", **HTMX, **EN).content.decode()
    assert 'id="piao-off"' in text and 'id="piao"' not in text


def test_a_game_under_a_changed_town_stores_every_option_and_names_its_rules(client):
    game = town_start(client, "xiaogan", cap="8")
    values = PRESETS["xiaogan"].switched({"cap": 8})
    assert game.options == values.as_dict()
    page = client.get(f"/play/{game.pk}/").content.decode()
    assert "孝感（改）" in page.split('id="rules-label">', 1)[1][:20]


def test_a_xiaogan_hand_played_to_its_end_is_stored_and_replays_to_the_same_nets(client):
    game = town_start(client, "xiaogan")
    hand = play_hand(client, game)
    record = client.get(f"/play/{hand.pk}/record.json")
    answer = client.post("/api/v1/hands/replay/", record.content, content_type="application/json")
    assert answer.status_code == 200, answer.content[:500]
    body = answer.json()
    assert body["nets"] == hand.nets and body["options"] == game.options
    page = client.get(f"/play/{game.pk}/", **EN).content.decode()
    payments = page.split('id="payments"', 1)[1].split("</ul>", 1)[0]
    assert all(f"pl-kind-{p['kind']}" in payments for p in body["payments"])


def test_a_shiyan_town_hand_shows_its_dice(client, monkeypatch):
    seed = next(s for s in range(1, 100) if len(set(seeded_deal(s, 0).dice)) == 1)  # a double: 上楼
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    game = town_start(client, "shiyan_town")
    dice = current(game).record["dice"]
    assert dice == list(seeded_deal(seed, current(game).record["dealer"]).dice) and dice[0] == dice[1]
    shown = client.get(f"/play/{game.pk}/", **EN).content.decode().split('id="dice"', 1)[1].split("</p>", 1)[0]
    assert re.findall(r'class="pl-die">(\d)<', shown) == [str(d) for d in dice] and "上楼: a double" in shown


def test_a_half_declaration_shows_backs_to_the_other_seats_and_its_log_names_no_tile(client):
    done = keys_hand(1, 1, "yingcheng", "basic", second=KouBot())  # seed 1: 下家 declares at action 37, keeping 9s face down
    declared = next(i for i, a in enumerate(done.actions) if a.kou)
    game = town_start(client, "yingcheng")
    hand = current(game)
    Hand.objects.filter(pk=hand.pk).update(record=Record(done.record.header, done.actions[: declared + 1]).to_json(), seed=None)
    page = client.get(f"/play/{game.pk}/", **EN).content.decode()
    right = page.split('aria-label="下家 (right)"', 1)[1].split("</section>", 1)[0]
    kept = TILE_IDS[next(iter(done.actions[declared].kou))]
    assert right.count('class="pl-kou"') == 1 and right.split('class="pl-kou"', 1)[1].count("back.svg") == 3
    assert f"/{kept}.svg" not in right.split('class="pl-kou"', 1)[0]  # the revealed part does not show the kept triplet
    log = page.split('id="action-log"', 1)[1].split("</ol>", 1)[0]
    assert "1 triplet kept face down (扣牌)" in log


def test_the_review_of_a_xiaogan_hand_is_worked_out_under_its_rules(client, django_capture_on_commit_callbacks, settings, monkeypatch):
    settings.REVIEW_POLICY = "basic"
    game = town_start(client, "xiaogan")
    hand = play_hand(client, game, capture=django_capture_on_commit_callbacks)
    settled = []
    real = advice.settle_table
    monkeypatch.setattr(advice, "settle_table", lambda state, *a, **k: settled.append(state.rules) or real(state, *a, **k))
    run_queued_tasks()
    hand.refresh_from_db()
    assert hand.review_state == Hand.DONE and hand.review["decisions"]
    assert settled and {(r.preset.key, r.options) for r in settled} == {("xiaogan", game.values)}  # every rollout settled in 孝感's money
    review = client.get(f"/play/{hand.pk}/review/")
    assert review.status_code == 200

"""/play/enter/: a hand played elsewhere entered from your seat by keys and by taps, checked move by move, saved and reviewed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from play.entry import TOKEN, tokens_of
from play.models import Hand
from tests.play.helpers import run_queued_tasks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once")]
HAND = "1123p456p789p55pZ"
MOVES = "+5p -Z R-F L-9p +3s -3s"


def post(client: Client, **fields: str):
    return client.post("/play/enter/", {"rules": "standard", "dealer": "0", "hand": HAND, "moves": "", **fields})


def fault(page: str) -> str:
    found = re.search(r'id="entry-fault">([^<]*)<', page)
    return found.group(1).strip() if found else ""


def moves_of(page: str) -> str:
    return re.search(r'<textarea id="moves"[^>]*>([^<]*)</textarea>', page, re.S).group(1).strip()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_page_without_javascript_draws_the_form_and_the_palette(client, language):
    client.cookies["django_language"] = language
    page = client.get("/play/enter/").content.decode()
    assert 'action="/play/enter/"' in page and 'method="post"' in page
    assert page.count('name="tap"') == 21 and 'id="save"' in page and 'name="claim"' in page
    assert ("从你的座位录入一手牌" in page) == (language == "zh-hans") and ("Enter a hand from your seat" in page) == (language == "en")


def test_every_key_the_help_shows_is_one_the_reader_takes(client):
    page = client.get("/play/enter/").content.decode()
    help_ = re.search(r'<details class="en-keys" id="entry-keys">(.*?)</details>', page, re.S).group(1)
    keys = [token for kbd in re.findall(r"<kbd>([^<]*)</kbd>", help_) for token in tokens_of(kbd)]
    assert {"R+", "L+5p", "R-5p", "-5p!", "Rh5p=222s555s888s99pFF", "m7s"} <= set(keys)
    assert [key for key in keys if TOKEN.fullmatch(key) is None] == []


def test_keys_are_checked_and_the_table_drawn_as_far_as_they_go(client):
    response = post(client, moves=MOVES)
    page = response.content.decode()
    assert response.status_code == 200 and not fault(page)
    assert page.count('class="pl-river"') == 3  # every seat's river on the table partial
    assert 'id="entry-next"' in page and "tiles/F.svg" in page and "tiles/9p.svg" in page
    assert "disabled" not in re.search(r'<button[^>]*id="save"[^>]*>', page).group(0)


def test_the_first_illegal_move_is_named_with_its_tile_and_the_rest_not_read(client):
    client.cookies["django_language"] = "en"
    response = post(client, moves="+5p -Z R-F R-9p L-1s")
    page = response.content.decode()
    assert response.status_code == 400
    assert fault(page) == "Move 4 (R-9p): It is not seat 1&#x27;s turn to discard."
    assert "disabled" in re.search(r'<button[^>]*id="save"[^>]*>', page).group(0)
    assert fault(post(client, moves="+5p -Z R-1p L-1p +1p").content.decode()) == "Move 5 (+1p): A fifth 1p: there are only four of each kind."
    page = post(client, moves="+5p -Z R-1p L-1p +3s -3s R-1p").content.decode()
    assert fault(page) == "Move 7 (R-1p): Seat 1 cannot hold 1 1p: seat 0 has seen 4 of the four."


def test_a_bad_hand_names_the_hand(client):
    client.cookies["django_language"] = "en"
    page = post(client, hand="1123p", moves="+5p").content.decode()
    assert re.search(r'id="hand-error"[^>]*>You were dealt 4 tiles', page)


def test_taps_enter_the_hand_then_the_natural_move(client):
    page = client.post("/play/enter/", {"rules": "standard", "dealer": "0", "hand": "1123p456p789p55", "moves": "", "tap": "Z"}).content.decode()
    assert 'value="1123p456p789p55Z"' in page  # a tile to the hand while it is short
    page = post(client, tap="5p").content.decode()
    assert moves_of(page) == "+5p"  # the dealer's draw
    page = post(client, moves="+5p", tap="Z").content.decode()
    assert moves_of(page) == "+5p -Z"  # then its discard
    page = post(client, moves="+5p -Z", tap="F").content.decode()
    assert moves_of(page) == "+5p -Z R-F"  # then 下家's discard, its draw filled in
    page = post(client, moves="+5p -Z R-F L-9p", claim="I:pong").content.decode()
    assert "needs two 9p" in fault(page) or "9p" in fault(page)
    page = post(client, moves="+5p -Z R-F L-1p", claim="I:pong").content.decode()
    assert moves_of(page) == "+5p -Z R-F L-1p p" and not fault(page)
    page = post(client, moves="+5p -Z R-F L-1p p", undo="1").content.decode()
    assert moves_of(page) == "+5p -Z R-F L-1p"


def test_htmx_answers_the_entry_fragment(client):
    page = client.post("/play/enter/", {"rules": "standard", "dealer": "0", "hand": HAND, "moves": MOVES}, headers={"HX-Request": "true"}).content.decode()
    assert page.lstrip().startswith('<form id="entry"') and "<html" not in page


def test_saving_stores_a_one_seat_record_in_the_hands_list_and_its_review_opens(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, moves=MOVES + " R-B L-B +2s -2s R-F L-9s +8p -8p", save="1")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert response["Location"] == f"/play/{hand.pk}/review/"
    assert hand.source == Hand.UPLOAD and hand.seat == 0 and hand.record["seat"] == 0 and hand.record["hands"][1:] == [None, None]
    assert hand.review_state == Hand.QUEUED and not hand.over
    client.cookies["django_language"] = "en"
    listed = client.get("/play/").content.decode()
    assert f'<a href="/play/{hand.pk}/review/">Entered hand {hand.pk}</a>' in listed and 'href="/play/enter/"' in listed
    run_queued_tasks()
    hand.refresh_from_db()
    assert hand.review_state == Hand.DONE and hand.review["decisions"]
    client.cookies["django_language"] = "en"
    page = client.get(f"/play/{hand.pk}/review/?step=8").content.decode()
    assert "a hand you entered, from your seat" in page and 'id="open-switch"' not in page
    assert "tiles/back.svg" in page  # the others' hands stay face down


def test_a_win_whose_tiles_were_not_shown_is_saved_without_money(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, moves="+5p -Z R-F L-9p +3s -3s Rh3s", save="1")
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.over and hand.result == "discard" and hand.nets is None and hand.next_dealer == 1
    client.cookies["django_language"] = "en"
    page = client.get(f"/play/{hand.pk}/review/?step={hand.action_count}").content.decode()
    assert 'id="money-unknown"' in page and "the winner's tiles were not entered" in page


def test_the_rules_default_to_the_player_s_town(client):
    assert client.post("/town/", {"rules": "xiaogan", "shown": "xiaogan"}).status_code == 302
    page = client.get("/play/enter/").content.decode()
    assert re.search(r'<option value="xiaogan" selected', page)

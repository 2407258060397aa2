"""The play table as a player meets it (issue 25): the newest actions first, kong money in the scores when it is paid,
the waits of a hidden ready hand with their copies left, why a discard of a winning tile could not be won on, the turn
order, and a hint that stays at the table."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from kwx.hand.notation import parse_tiles
from kwx.hand.tiles import KIND_OF_ID
from kwx.table.record import DEFAULT_PLAYERS, Header, Record
from kwx.table.table import Action
from play.models import Game, Hand
from tests.play.helpers import move_for
from tests.web.test_play import current, play_hand, start

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}

HANDS = ("234p678p11s345s78s", "111p999pBBBZZ22s", "555p66p123s44s999s")
"""You wait on 6s and 9s with a hand worth ×1 (屁胡); 上家, the dealer, holds three 9s and draws the fourth."""
ACTIONS = (
    (2, "draw", "9s"),
    (2, "kong", "9s"),  # 暗杠: you and 下家 pay 上家 2 each, now; every 9s is out, so your 9s wait is dead
    (2, "draw", "7p"),
    (2, "discard", "7p"),
    (0, "draw", "9p"),
    (0, "discard", "9p"),
    (1, "draw", "6s"),
    (1, "discard", "6s"),  # your winning tile, but a ×1 hand may not win on a discard
    (2, "draw", "2p"),
    (2, "discard", "2p"),
    (0, "draw", "B"),
)


def crafted(client: Client, actions=ACTIONS) -> Game:
    """A game of the client's whose hand is the record above (shown, not played on: it has no seed)."""
    game = start(client)
    hand = current(game)
    Hand.objects.filter(pk=hand.pk).update(record=crafted_record(actions).to_json(), seed=None)
    return game


def crafted_record(actions=ACTIONS) -> Record:
    """The record of ``HANDS`` with ``actions``: (seat, verb, tile), or (seat, "discard", tile, "ld") for a discard that declares 亮倒."""
    return Record(
        Header("standard", (), 1, (0, 0, 0), DEFAULT_PLAYERS, 2, tuple(parse_tiles(h, "h") for h in HANDS)),
        tuple(Action(a[0], a[1], KIND_OF_ID[a[2]], liang_dao=a[3:] == ("ld",)) for a in actions),
    )


REVEALED = (
    (2, "draw", "7p"),
    (2, "discard", "7p", "ld"),  # 上家 reveals 555p66p123s44s999s: wins on 6p and 4s (you hold one of each, 上家 two: one copy of each left)
    (0, "draw", "9p"),
    (0, "discard", "9p", "ld"),  # you reveal your ×1 hand (屁胡): 亮倒 makes every win ×2, so a discard may be won on
    (1, "draw", "3p"),
    (1, "discard", "3p"),
    (2, "draw", "2p"),
    (2, "discard", "2p"),
    (0, "draw", "B"),
)
"""Both you and 上家 declare 亮倒; your turn again."""


def section(body: str, start: str, end: str) -> str:
    return body.split(start, 1)[1].split(end, 1)[0]


def test_the_log_is_newest_first_with_kong_money_and_why_your_winning_tile_could_not_be_won_on(client):
    game = crafted(client)
    body = client.get(f"/play/{game.pk}/", **EN).content.decode()
    lines = re.findall(r"<li[^>]*>(.*?)</li>", section(body, 'id="action-log"', "</ol>"), re.S)
    assert len(lines) == 11
    assert lines[0].startswith("You: draw (摸)") and lines[1].startswith("上家 (left): discard (打)")  # the newest at hand
    kong = next(line for line in lines if "kong (杠)" in line)
    assert "喜钱 kong money: You → 上家 (left) 2 · 下家 (right) → 上家 (left) 2" in kong
    six = next(line for line in lines if line.startswith("下家 (right): discard (打)"))
    assert "is your winning tile, but you cannot win on it: 屁胡 only by self-draw" in six
    assert sum("cannot win on it" in line for line in lines) == 1
    assert "You → 上家 (left) 2 · 下家 (right) → 上家 (left) 2" in section(body, 'id="kong-money"', "</p>")


def test_kong_money_reaches_the_scores_when_it_is_paid(client):
    game = crafted(client)
    body = client.get(f"/play/{game.pk}/", **EN).content.decode()
    scores = re.findall(r'<span class="pl-score">(-?\d+)</span>', body)
    assert scores == ["4", "-2", "-2"]  # 上家, 下家, then you: the kong's money before the hand ends
    before = client.get(f"/play/{crafted(client, ACTIONS[:1]).pk}/", **EN).content.decode()
    assert re.findall(r'<span class="pl-score">(-?\d+)</span>', before) == ["0", "0", "0"] and 'id="kong-money"' not in before


def test_a_hidden_ready_hand_shows_its_waits_with_the_copies_left_a_dead_one_marked(client):
    game = crafted(client)
    body = client.get(f"/play/{game.pk}/", **EN).content.decode()
    waits = section(body, 'id="own-waits"', "</p>")
    six, nine = section(waits, 'data-tile="6s"', "</span>\n"), waits.split('data-tile="9s"', 1)[1]
    assert "3 left" in six and "空听" not in six.split('data-tile="9s"')[0]
    assert "0 left" in nine and "空听" in nine
    assert waits.count("self-draw only") == 2  # a ×1 hand (屁胡) wins only by self-draw
    early = client.get(f"/play/{crafted(client, ACTIONS[:4]).pk}/", **EN).content.decode()
    assert "4 left" in section(early, 'id="own-waits"', "</p>").split('data-tile="6s"', 1)[1]


def test_after_your_liang_dao_a_pinghu_wait_is_no_longer_self_draw_only(client):
    """Issue 38 item 2: the waits under the hand were valued without the seat's 亮倒, so a 屁胡 wait said "self-draw only"."""
    game = crafted(client, REVEALED)
    body = client.get(f"/play/{game.pk}/", **EN).content.decode()
    waits = section(body, 'id="own-waits"', "</p>")
    assert re.findall(r'data-tile="(\w+)"', waits) == ["6s", "9s"]
    assert "self-draw only" not in waits and "仅自摸" not in client.get(f"/play/{game.pk}/").content.decode().split('id="own-waits"')[1].split("</p>")[0]
    before = client.get(f"/play/{crafted(client, REVEALED[:2]).pk}/", **EN).content.decode()  # before your 亮倒 the same waits are ×1
    assert section(before, 'id="own-waits"', "</p>").count("self-draw only") == 2


def test_a_revealed_opponents_waits_show_the_copies_you_have_not_seen(client):
    """Issue 38 item 6: a 亮倒 hand's winning tiles had no live counts (your own had)."""
    game = crafted(client, REVEALED)
    body = client.get(f"/play/{game.pk}/", **EN).content.decode()
    left = section(body, 'aria-label="上家 (left)"', "</section>")
    waits = section(left, 'class="pl-waits"', "</p>")
    shown = re.findall(r'data-tile="(\w+)">.*?(\d+) left', waits, re.S)
    assert shown == [("6p", "1"), ("4s", "1")]  # 上家 holds two of each, you one: one copy of each is still live
    assert "空听" not in waits


def test_the_turn_order_marks_who_plays_and_the_last_discard_stays_marked(client):
    game = crafted(client)
    body = client.get(f"/play/{game.pk}/", **EN).content.decode()
    order = section(body, 'id="turn-order"', "</p>")
    assert re.findall(r'class="pl-order-seat[^"]*"[^>]*>(?:▶ )?([^<]+)<', order) == ["You", "下家 (right)", "上家 (left)"]
    assert re.search(r'aria-current="true">▶ You<', order)
    left = section(body, 'aria-label="上家 (left)"', "</section>")
    assert left.count('class="pl-last"') == 1 and "2p.svg" in section(left, 'class="pl-last"', "</span>")  # your turn: nothing on offer, the last discard still marked


def test_the_hint_stays_at_the_table_and_its_assumptions_link_goes_somewhere(client):
    game = crafted(client)
    body = client.get(f"/play/{game.pk}/?hint=1", **EN).content.decode()
    hint = section(body, 'class="card pl-hint"', "</form>")
    assert "discard-link" not in hint
    href = re.search(r'<a href="([^"]*)" id="ev-assumptions"', hint).group(1)
    assert href.startswith("/analyze/") and "?" in href
    assert client.get(href.replace("&amp;", "&")).status_code == 200


def test_the_hint_stays_on_for_the_next_hand(client):
    game = start(client)
    hand = play_hand(client, game)
    page = client.get(f"/play/{game.pk}/?hint=1").content.decode()
    form = section(page, 'class="pl-next"', "</form>")
    assert '<input type="hidden" name="hint" value="1">' in form
    response = client.post(f"/play/{game.pk}/next/", {"number": hand.number, "piao": "0", "hint": "1"})
    assert response.status_code == 302 and response["Location"].endswith("?hint=1")


STALE_WORDS = "Nothing was played: the table had moved on since that page was shown"


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_move_from_a_stale_tab_says_nothing_was_played_and_changes_nothing(client, htmx):
    game = start(client)
    hand = current(game)
    body = {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)}
    client.post(f"/play/{game.pk}/", body)
    after = current(game).record
    headers = {**EN, "HTTP_HX_REQUEST": "true"} if htmx else EN
    again = client.post(f"/play/{game.pk}/", body, **headers)  # the other tab, still at the old count
    assert current(game).record == after
    if htmx:
        assert again.status_code == 409 and STALE_WORDS in again.content.decode() and 'id="table"' in again.content.decode()
    else:
        assert again.status_code == 302 and again["Location"] == f"/play/{game.pk}/?stale=1"
        page = client.get(again["Location"], **EN).content.decode()
        assert STALE_WORDS in page and 'role="alert"' in page
    assert STALE_WORDS not in client.get(f"/play/{game.pk}/", **EN).content.decode()


def test_a_logged_out_visitor_on_their_games_page_is_asked_to_log_in_and_log_out_says_so(client, django_user_model):
    django_user_model.objects.create_user("kim", password="a long enough password 25")
    assert client.post("/accounts/login/", {"username": "kim", "password": "a long enough password 25"}).status_code == 302
    game = start(client)
    hand = current(game)
    out = client.post("/accounts/logout/", **EN)
    assert out.status_code == 302
    confirmation = client.get(out["Location"], **EN)
    assert confirmation.status_code == 200 and "You are logged out" in confirmation.content.decode()
    for url in (f"/play/{game.pk}/", f"/play/{hand.pk}/review/"):
        page = client.get(url, **EN)
        assert page.status_code == 404
        text = page.content.decode()
        assert "If it is one of your account's games or hands, log in" in text and f'href="/accounts/login/?next={url}"' in text
    posted = client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": "pass"}, **EN)
    assert posted.status_code == 404 and current(game).record == hand.record
    back = client.post(f"/accounts/login/?next=/play/{game.pk}/", {"username": "kim", "password": "a long enough password 25", "next": f"/play/{game.pk}/"})
    assert back["Location"] == f"/play/{game.pk}/" and client.get(back["Location"]).status_code == 200


def test_a_logged_out_visitor_gets_the_same_answer_for_an_accounts_game_or_hand_as_for_a_missing_id(client, django_user_model):
    """Issue 37: a 403 for an account's ids and a 404 for the rest told a logged-out visitor which ids were accounts'."""
    import re

    django_user_model.objects.create_user("ona", password="a long enough password 25")
    owner = Client()
    owner.post("/accounts/login/", {"username": "ona", "password": "a long enough password 25"})
    game = start(owner)
    hand = current(game)
    anonymous = start(Client())
    missing = max(game.pk, anonymous.pk) + 1000
    token = re.compile(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"')  # masked afresh for every answer

    def answer(url):
        page = client.get(url, **EN)
        return page.status_code, token.sub("", page.content.decode().replace(url, "URL"))

    for kind, ids in (("/play/{}/", (game.pk, anonymous.pk, missing)), ("/play/{}/review/", (hand.pk, current(anonymous).pk, missing + 5000))):
        answers = {answer(kind.format(i)) for i in ids}
        assert len(answers) == 1, kind  # the account's, a session's and a missing one: one answer
        ((status, _),) = answers
        assert status == 404


def test_an_anonymous_game_and_another_accounts_game_stay_not_found(client, django_user_model):
    anonymous = start(Client())
    assert client.get(f"/play/{anonymous.pk}/").status_code == 404  # a session's game: nobody to log in as
    django_user_model.objects.create_user("lee", password="a long enough password 25")
    owner = Client()
    owner.post("/accounts/login/", {"username": "lee", "password": "a long enough password 25"})
    theirs = start(owner)
    django_user_model.objects.create_user("max", password="a long enough password 25")
    client.post("/accounts/login/", {"username": "max", "password": "a long enough password 25"})
    assert client.get(f"/play/{theirs.pk}/").status_code == 404  # logged in as someone else
    assert client.get("/play/999999/").status_code == 404


def test_the_auto_switches_are_kept_with_the_game_and_answer_what_they_cover(client):
    from kwx.table import seats
    from kwx.table.view import view_for

    both = seats.Auto(win=True, passes=True)
    covered = None
    for _ in range(12):  # find a decision the switches cover, playing as the basic bot would
        game = start(client)
        hand = current(game)
        while not hand.over:
            if seats.auto_choice(view_for(seats.replayed(hand.kwx_record).final, 0), both) is not None:
                covered = hand
                break
            client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)})
            hand = current(game)
        if covered:
            break
    assert covered is not None
    response = client.post(f"/play/{game.pk}/auto/", {"auto_win": "1", "auto_pass": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.auto_win and game.auto_pass
    after = current(game)
    assert after.action_count > covered.action_count  # the switches answered the decision on the table at once
    page = client.get(f"/play/{game.pk}/", **EN).content.decode()
    assert 'id="auto-win" checked' in page and 'id="auto-pass" checked' in page
    hand = after
    while not hand.over:  # from now on the table never asks what the switches answer
        view = view_for(seats.replayed(hand.kwx_record).final, 0)
        assert seats.auto_choice(view, both) is None
        client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)})
        hand = current(game)
    client.post(f"/play/{game.pk}/next/", {"number": hand.number, "piao": "0"})
    assert 'id="auto-win" checked' in client.get(f"/play/{game.pk}/").content.decode()  # kept for the next hand
    client.post(f"/play/{game.pk}/auto/", {"auto_win": "1"})
    game.refresh_from_db()
    assert game.auto_win and not game.auto_pass

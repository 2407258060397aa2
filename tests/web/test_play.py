"""The play pages through the whole stack: a hand played by plain form posts (no JavaScript) and by htmx, reviews, access."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import Player
from kwx.bots.companion import CompanionBot
from kwx.bots.judge import BoostedJudgeBot, JudgeBot
from kwx.table.record import replay
from kwx.table.seats import PERSON
from kwx.table.view import view_for
from kwx_site.text import LEVEL_DESCRIPTIONS
from play.models import Game, Hand, ReviewItem
from play.services import LEVELS
from tests.conftest import VECTORS
from tests.play.helpers import SHORT_DEALS, move_for, run_queued_tasks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once"), pytest.mark.deals(SHORT_DEALS)]


START = {"level": "basic", "rules": "standard", "base": "1", "piao": "0"}


def start(client: Client, **extra: str) -> Game:
    response = client.post("/play/", START | extra)
    assert response.status_code == 302
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def current(game: Game) -> Hand:
    return game.hands.order_by("-number").first()


def play_hand(client: Client, game: Game, htmx: bool = False, capture=None) -> Hand:
    """Answer every decision through the table form until the hand's settlement shows (``capture``: run what each request leaves for its commit, the review's enqueue)."""
    from contextlib import nullcontext

    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    hand = current(game)
    for _ in range(200):
        if hand.over:
            break
        page = client.get(f"/play/{game.pk}/")
        seen = re.search(r'name="seen" value="(\d+)"', page.content.decode()).group(1)
        assert int(seen) == hand.action_count
        move = move_for(hand)
        assert f'value="{move}"' in page.content.decode()  # the page offers exactly that button
        assert f'name="hand" value="{hand.pk}"' in page.content.decode()
        with capture(execute=True) if capture else nullcontext():
            response = client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": seen, "move": move}, **headers)
        if htmx:
            assert response.status_code == 200 and 'id="table"' in response.content.decode()
            assert "<html" not in response.content.decode()
        else:
            assert response.status_code == 302 and response["Location"] == f"/play/{game.pk}/"
        hand = current(game)
    assert hand.over
    return hand


def test_start_page_offers_levels_rules_base_and_piao(client):
    body = client.get("/play/").content.decode()
    for name in ('name="level" value="basic"', 'name="level" value="strong"', 'name="rules"', 'name="base"', 'name="piao"'):
        assert name in body
    with translation.override("zh-hans"):
        chinese = [translation.gettext(LEVEL_DESCRIPTIONS[level]) for level in LEVELS]
    for level, description in zip(LEVELS, chinese):  # each level's radio button says how it plays, in the page's language
        assert f'value="{level}"' in body and description != LEVEL_DESCRIPTIONS[level] and html.escape(description, quote=False) in body
    assert "最强" in body and "高手" in body
    english = client.get("/play/", headers={"accept-language": "en"}).content.decode()
    assert all(html.escape(LEVEL_DESCRIPTIONS[level], quote=False) in english for level in LEVELS)


def test_a_whole_hand_without_javascript_ends_in_its_settlement_and_opens_its_review(client, django_capture_on_commit_callbacks):
    game = start(client)
    hand = play_hand(client, game, capture=django_capture_on_commit_callbacks)
    page = client.get(f"/play/{game.pk}/").content.decode()
    assert 'id="next-hand"' in page and f"/play/{hand.pk}/review/" in page
    review = client.get(f"/play/{hand.pk}/review/")
    assert review.status_code == 200 and 'id="review-status"' in review.content.decode() and 'id="review-refresh"' in review.content.decode()
    run_queued_tasks()
    review = client.get(f"/play/{hand.pk}/review/")
    assert review.status_code == 200 and 'id="review-status"' not in review.content.decode() and "pl-declist" in review.content.decode()
    step = client.get(f"/play/{hand.pk}/review/?step=5")
    assert step.status_code == 200 and 'id="step-next"' in step.content.decode()
    nxt = client.post(f"/play/{game.pk}/next/", {"number": hand.number, "piao": "2"})
    assert nxt.status_code == 302 and game.hands.count() == 2 and current(game).record["piao"][0] == 2


@pytest.mark.parametrize(("level", "name", "bot"), [("companion", "陪练", CompanionBot), ("judge", "裁判", JudgeBot), ("boosted", "高手", BoostedJudgeBot)])
def test_a_level_one_plays_a_whole_hand_against(client, level, name, bot):
    body = client.get("/play/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert f'name="level" value="{level}"' in body and name in body
    game = start(client, level=level)
    assert game.level == level
    hand = play_hand(client, game, htmx=True)
    done = replay(hand.record)
    asked = 0
    for state, action in zip(done.states, done.actions):  # states[i] is the table before action i
        if action.seat != PERSON and state.phase in ("act", "pong") and state.turn == action.seat:
            assert bot().act(view_for(state, action.seat)) == action  # the bots' every own-turn move is that level's bot's
            asked += 1
    assert asked > 0


def test_a_whole_hand_by_htmx_gets_the_table_partial_each_time(client):
    game = start(client, level="strong")
    play_hand(client, game, htmx=True)


def test_a_double_submitted_action_counts_once(client):
    game = start(client)
    hand = current(game)
    body = {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)}
    first = client.post(f"/play/{game.pk}/", body)
    after = current(game).record
    second = client.post(f"/play/{game.pk}/", body)
    assert first.status_code == second.status_code == 302
    assert current(game).record == after


def test_an_illegal_move_is_a_400_that_says_so_and_changes_nothing(client):
    game = start(client)
    hand = current(game)
    response = client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": "kong Z"})
    if response.status_code == 302:  # kong Z happened to be legal; nothing to check
        return
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert current(game).record == hand.record
    junk = client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": "<script>"})
    assert junk.status_code == 400


def test_the_table_never_shows_the_seed_nor_a_bots_hidden_tiles(client):
    game = start(client)
    hand = current(game)
    body = client.get(f"/play/{game.pk}/").content.decode()
    assert str(hand.seed) not in body
    assert client.get(f"/play/{hand.pk}/record.json").status_code == 404  # no record before the end


def test_hints_show_the_analyzer_discard_table_on_the_persons_turn(client):
    game = start(client)
    hand = current(game)
    for _ in range(60):
        from kwx.table import seats

        state = seats.replayed(hand.kwx_record).final
        if state.phase in ("act", "pong") and state.turn == 0 and not state.seats[0].liang_dao:
            break
        client.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)})
        hand = current(game)
    body = client.get(f"/play/{game.pk}/?hint=1").content.decode()
    assert '<table class="discards">' in body and "hx-target" not in body.split('<table class="discards">')[1].split("</table>")[0] and 'name="hint" value="1"' in body


def test_nobody_else_reads_or_changes_a_hand_and_a_share_link_opens_the_review(client):
    game = start(client)
    hand = play_hand(client, game)
    other = Client()
    other.get("/play/")
    for url in (f"/play/{game.pk}/", f"/play/{hand.pk}/review/", f"/play/{hand.pk}/record.json"):
        assert other.get(url).status_code == 404, url
    before = current(game).record
    assert other.post(f"/play/{game.pk}/", {"hand": hand.pk, "seen": hand.action_count, "move": "pass"}).status_code == 404
    assert other.post(f"/play/{game.pk}/next/", {"number": 1, "piao": "0"}).status_code == 404
    assert other.post(f"/play/{hand.pk}/share/").status_code == 404
    assert other.post(f"/play/{hand.pk}/review/again/").status_code == 404
    assert current(game).record == before and game.hands.count() == 1
    assert client.get("/play/999999/").status_code == 404 and client.get("/play/999999/review/").status_code == 404
    assert other.get("/play/shared/not-a-token/").status_code == 404
    client.post(f"/play/{hand.pk}/share/")
    token = Hand.objects.get(pk=hand.pk).share_token
    shared = other.get(f"/play/shared/{token}/?step=3")
    assert shared.status_code == 200 and "Make a share link" not in shared.content.decode()
    assert client.get(f"/play/{hand.pk}/record.json").status_code == 200


def test_a_pasted_record_is_reviewed_and_a_bad_one_names_the_action(client):
    game = start(client)
    hand = play_hand(client, game)
    ok = client.post("/play/upload/", {"record": json.dumps(hand.record), "seat": "0"})
    assert ok.status_code == 302 and "/review/" in ok["Location"]
    bad = dict(hand.record, actions=hand.record["actions"][:2] + [{"seat": 0, "pong": "5p"}])
    response = client.post("/play/upload/", {"record": json.dumps(bad), "seat": "0"})
    assert response.status_code == 400
    assert re.search(r"(Action|动作|第) ?2", response.content.decode())


def test_costly_decisions_become_review_items_that_open_the_review_at_their_step(client, django_capture_on_commit_callbacks):
    from play.review_work import store_review

    game = start(client)
    hand = play_hand(client, game, capture=django_capture_on_commit_callbacks)
    run_queued_tasks()
    hand.refresh_from_db()
    costly = [d for d in hand.review["decisions"] if d["costly"]]
    assert ReviewItem.objects.filter(hand=hand).count() == len(costly)
    if not costly:  # no clearly costly decision this hand: mark one as the review would
        hand.review["decisions"][0]["costly"] = True
        store_review(hand=hand, figures=hand.review)
        costly = [hand.review["decisions"][0]]
    for item in ReviewItem.objects.filter(hand=hand):
        page = client.get(f"/play/{hand.pk}/review/?step={item.step}&item={item.pk}").content.decode()
        assert f"/play/items/{item.pk}/" in page
        decision = next(d for d in costly if d["step"] == item.step)
        bot = decision["best"]
        move = "pass" if bot["verb"] == "pass" else f"{bot['verb']} {bot['tile']}" + (" ld" if bot["liang_dao"] else "")
        due = item.due
        answered = client.post(f"/play/items/{item.pk}/", {"move": move})
        assert answered.status_code == 302 and "answered=right" in answered["Location"]
        item.refresh_from_db()
        assert item.due > due


def test_progress_shows_hands_rates_and_the_bots_figures_on_the_same_walls(client):
    assert 'data-testid="play-me"' not in client.get("/progress/").content.decode()
    game = start(client)
    play_hand(client, game)
    hand = current(game)
    page = client.get("/progress/").content.decode()
    assert 'data-testid="play-me"' in page and 'data-testid="play-bot"' in page
    me = re.search(r'data-testid="play-me">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<td>([^<]*)</td>", me)
    assert cells[0] == "1" and float(cells[4]) == hand.nets[0]
    assert cells[1] == ("100%" if hand.outcome["won"] else "0%") and cells[2] == ("100%" if hand.outcome["dealt_in"] else "0%")
    bot = re.findall(r"<td>([^<]*)</td>", re.search(r'data-testid="play-bot">(.*?)</tr>', page, re.S).group(1))
    assert float(bot[4]) == hand.bot_result["net"]


def test_a_due_costly_decision_is_served_by_the_drills_review_queue(client, django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    game = start(client)
    hand = play_hand(client, game, capture=django_capture_on_commit_callbacks)
    run_queued_tasks()
    hand.refresh_from_db()
    decision = hand.review["decisions"][0]
    item = ReviewItem.objects.filter(hand=hand).first()
    if item is None:  # no costly decision this hand: schedule one as the review would
        from play.review_work import store_review

        hand.review["decisions"][0]["costly"] = True
        store_review(hand=hand, figures=hand.review)
        item = ReviewItem.objects.get(hand=hand, step=decision["step"])
    ReviewItem.objects.filter(pk=item.pk).update(due=timezone.now() - timedelta(minutes=1))
    queue = client.get("/drills/?mode=review")
    assert queue.status_code == 302 and queue["Location"] == f"/play/{hand.pk}/review/?step={item.step}&item={item.pk}"
    assert "pl-progress" in client.get("/progress/").content.decode()
    other = Client()
    other.get("/play/")
    assert other.post(f"/play/items/{item.pk}/", {"move": "pass"}).status_code == 404


def test_a_share_link_is_revoked_by_its_owner_only(client):
    game = start(client)
    hand = play_hand(client, game)
    client.post(f"/play/{hand.pk}/share/")
    token = Hand.objects.get(pk=hand.pk).share_token
    assert Client().get(f"/play/shared/{token}/").status_code == 200
    assert Client().post(f"/play/{hand.pk}/unshare/").status_code == 404  # not the owner's session
    assert Hand.objects.get(pk=hand.pk).share_token == token
    review = client.get(f"/play/{hand.pk}/review/").content.decode()
    assert f"/play/{hand.pk}/unshare/" in review
    assert client.get(f"/play/{hand.pk}/unshare/").status_code == 405
    assert client.post(f"/play/{hand.pk}/unshare/").status_code == 302
    assert Hand.objects.get(pk=hand.pk).share_token is None
    assert Client().get(f"/play/shared/{token}/").status_code == 404


@pytest.mark.parametrize("token, status", [("%00", 400), ("a%00b", 400), ("%F0%9F%98%80", 404), ("x" * 40, 404), ("a.b", 404)])
def test_a_share_token_that_cannot_be_one_is_refused_before_the_database(token, status):
    assert Client(raise_request_exception=False).get(f"/play/shared/{token}/").status_code == status


def test_an_unfinished_uploaded_record_is_reviewed_as_far_as_it_goes(client):
    game = start(client)
    hand = play_hand(client, game)
    part = dict(hand.record, actions=hand.record["actions"][:12])
    response = client.post("/play/upload/", {"record": json.dumps(part), "seat": "0"})
    assert response.status_code == 302
    uploaded = Hand.objects.get(source=Hand.UPLOAD)
    assert not uploaded.over
    review = client.get(response["Location"])
    assert review.status_code == 200 and 'id="unfinished"' in review.content.decode()
    assert client.get(f"/play/{uploaded.pk}/review/?step=3").status_code == 200
    assert client.get(f"/play/{uploaded.pk}/record.json").json() == part
    client.post(f"/play/{uploaded.pk}/share/")
    assert Client().get(f"/play/shared/{Hand.objects.get(pk=uploaded.pk).share_token}/").status_code == 200


@pytest.mark.parametrize("htmx", [False, True], ids=["form", "htmx"])
def test_a_move_from_the_previous_hands_page_is_not_played_on_the_next(client, htmx):
    game = start(client)
    first = play_hand(client, game)
    client.post(f"/play/{game.pk}/next/", {"number": first.number, "piao": "0"})
    second = current(game)
    while second.over:  # the bots may end a hand before the person's first decision
        client.post(f"/play/{game.pk}/next/", {"number": second.number, "piao": "0"})
        second = current(game)
    before = second.record
    stale = {"hand": first.pk, "seen": second.action_count, "move": move_for(second)}  # an old tab, at the same count
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"} if htmx else {"HTTP_ACCEPT_LANGUAGE": "en"}
    response = client.post(f"/play/{game.pk}/", stale, **headers)
    assert response.status_code == 409
    assert "earlier hand: nothing was played" in response.content.decode()
    assert Hand.objects.get(pk=second.pk).record == before
    missing = client.post(f"/play/{game.pk}/", {"seen": second.action_count, "move": move_for(second)})
    assert missing.status_code == 409 and Hand.objects.get(pk=second.pk).record == before
    fresh = client.post(f"/play/{game.pk}/", {"hand": second.pk, "seen": second.action_count, "move": move_for(second)})
    assert fresh.status_code == 302 and Hand.objects.get(pk=second.pk).action_count > second.action_count


@pytest.mark.parametrize("what", ["game", "upload"])
def test_new_games_and_uploads_are_limited_per_player_and_per_address(what, settings):
    from play import limits

    settings.TRUSTED_PROXY_HOPS = 1
    record = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))["cases"][0]["record"]

    def make(client):
        if what == "game":
            return client.post("/play/", START, HTTP_ACCEPT_LANGUAGE="en")
        return client.post("/play/upload/", {"record": json.dumps(record), "seat": "0"}, HTTP_ACCEPT_LANGUAGE="en")

    one = Client(HTTP_X_FORWARDED_FOR="198.51.100.1")
    codes = [make(one).status_code for _ in range(limits.PER_PLAYER[what] + 1)]
    assert codes == [302] * limits.PER_PLAYER[what] + [429]
    refused = make(one)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0 and "try again in" in refused.content.decode()
    made = Game.objects.count() if what == "game" else Hand.objects.filter(source=Hand.UPLOAD).count()
    assert made == limits.PER_PLAYER[what]
    players = Player.objects.count()
    for _ in range(limits.PER_ADDRESS[what] - limits.PER_PLAYER[what] - 2):  # a new cookie each time: a new player
        assert make(Client(HTTP_X_FORWARDED_FOR="198.51.100.1")).status_code == 302
    assert make(Client(HTTP_X_FORWARDED_FOR="198.51.100.1")).status_code == 429
    assert Player.objects.count() == players + limits.PER_ADDRESS[what] - limits.PER_PLAYER[what] - 2  # the refused one made no player
    assert make(Client(HTTP_X_FORWARDED_FOR="198.51.100.2")).status_code == 302  # another address


def test_your_games_say_which_time_zone_their_times_are_in(client):
    """Issue 38 item 8: "Your games" showed China time with no zone; a visitor elsewhere could not tell. The time says its offset and
    carries the moment for the page's script to write in the visitor's own zone."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    game = start(client)
    Game.objects.filter(pk=game.pk).update(created=datetime(2026, 12, 4, 12, 16, tzinfo=ZoneInfo("UTC")))
    page = client.get("/play/").content.decode()
    assert '<time datetime="2026-12-04T20:16+08:00" data-local>2026-12-04 20:16 UTC+8</time>' in page

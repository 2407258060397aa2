"""Issue 37 through the pages: a stuck review says so and may be queued again; hands dealt are limited like games; the
review queue knows the address that queued a review."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from play import limits, selectors, services
from play.models import Hand
from tests.play.helpers import run_queued_tasks
from tests.web.test_play import current, start
from tests.web.test_play_review import uploaded

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once")]
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_a_lost_review_says_so_and_its_button_queues_it_again(client, django_capture_on_commit_callbacks):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    assert "review-lost" not in client.get(f"/play/{hand.pk}/review/", **EN).content.decode()  # queued, its task in the queue
    DBTaskResult.objects.all().delete()  # the task lost
    Hand.objects.filter(pk=hand.pk).update(review_beat=timezone.now() - timedelta(seconds=selectors.LOST_AFTER + 1))
    page = client.get(f"/play/{hand.pk}/review/", **EN).content.decode()
    assert "no worker has it in its queue" in page and 'id="review-again"' in page and "every 2s" not in page  # no polling of a review that will not move
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(f"/play/{hand.pk}/review/again/")
    assert again.status_code == 302 and DBTaskResult.objects.filter(args_kwargs__args__0=hand.pk, status="READY").count() == 1
    page = client.get(f"/play/{hand.pk}/review/", **EN).content.decode()
    assert "review-lost" not in page and 'id="review-again"' not in page and "every 2s" in page
    run_queued_tasks()
    assert Hand.objects.get(pk=hand.pk).review_state == Hand.DONE


def test_a_stalled_review_says_its_worker_has_probably_stopped_and_offers_to_queue_it_again(client, django_capture_on_commit_callbacks, settings):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    settings.TASK_LEASE = 600
    Hand.objects.filter(pk=hand.pk).update(review_state=Hand.RUNNING, review_total=9, review_done=4, review_beat=timezone.now())
    page = client.get(f"/play/{hand.pk}/review/", **EN).content.decode()
    assert "review-stalled" not in page and 'id="review-again"' not in page
    Hand.objects.filter(pk=hand.pk).update(review_beat=timezone.now() - timedelta(seconds=selectors.STALLED_AFTER + 1))
    page = client.get(f"/play/{hand.pk}/review/", **EN).content.decode()
    assert "the worker working it out has probably stopped" in page and "at most 10 minutes after it started" in page
    assert 'id="review-again"' in page and "every 2s" in page  # it may still come back: the page keeps asking
    shared = services.share(player=hand.player, hand_id=hand.pk)
    assert 'id="review-again"' not in Client().get(f"/play/shared/{shared.share_token}/", **EN).content.decode()


def test_a_review_remembers_a_keyed_hash_of_the_address_that_queued_it(client, django_capture_on_commit_callbacks):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    assert hand.review_client == services.client_key("127.0.0.1") and "127.0.0.1" not in hand.review_client


def test_hands_dealt_are_limited_per_player_and_a_refusal_deals_nothing(client, monkeypatch, django_capture_on_commit_callbacks):
    """Issue 37: one visitor ended 20 hands of one game in 62 s; the games limit did not count hands."""
    monkeypatch.setitem(limits.PER_PLAYER, "hand", 2)
    game = start(client)

    def end_and_next(expect: int):
        hand = current(game)
        Hand.objects.filter(pk=hand.pk).update(over=True, next_dealer=0)  # as if played out
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/play/{game.pk}/next/", {"number": hand.number, "piao": "0"}, **EN)
        assert response.status_code == expect
        return response

    end_and_next(302)
    end_and_next(302)
    refused = end_and_next(429)
    assert 1 <= int(refused["Retry-After"]) <= limits.WINDOW and "Too many hands dealt" in refused.content.decode()
    assert game.hands.count() == 3  # nothing dealt, nothing lost: the hand over stays as it was
    again = client.post(f"/play/{game.pk}/next/", {"number": current(game).number - 1, "piao": "0"})  # a stale repeat: counted as nothing, changes nothing
    assert again.status_code == 302 and game.hands.count() == 3


def test_hands_dealt_are_limited_per_address_too(monkeypatch):
    monkeypatch.setitem(limits.PER_ADDRESS, "hand", 1)
    visitors = [Client(REMOTE_ADDR="10.8.0.1") for _ in range(2)]  # two cookies, one address
    codes = []
    for visitor in visitors:
        game = start(visitor)
        hand = current(game)
        Hand.objects.filter(pk=hand.pk).update(over=True, next_dealer=0)
        codes.append(visitor.post(f"/play/{game.pk}/next/", {"number": hand.number, "piao": "0"}).status_code)
    assert codes == [302, 429]
    other = Client(REMOTE_ADDR="10.8.0.2")
    game = start(other)
    Hand.objects.filter(pk=current(game).pk).update(over=True, next_dealer=0)
    assert other.post(f"/play/{game.pk}/next/", {"number": 1, "piao": "0"}).status_code == 302

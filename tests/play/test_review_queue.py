"""Issue 37: the review queue serves players (and client addresses) in turn, played hands first; a server start queues
no branch; a review marked queued whose task was lost, or whose worker stopped, does not stay so for ever."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.models import Player
from kwx import hand_review
from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from kwx_site.priorities import OFFLINE_PRIORITY
from play import forms, selectors, services
from play.models import Hand

from .helpers import SHORT_DEALS, move_for, run_queued_tasks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once"), pytest.mark.deals(SHORT_DEALS)]
"""A hand played here is test_play's short first hand: its review is worked out once a run."""
TASK = "play.tasks.review_hand"


def record_text(seed: int) -> str:
    return json.dumps(play(seeded_deal(seed, 0), [BasicBot(), StrongBot(), StrongBot()]).record.to_json())


RECORDS = {}


def uploaded(capture, player: Player, client: str, seed: int = 5) -> Hand:
    """An upload of a finished hand from ``client``'s address, its review enqueued as the request's commit does."""
    if seed not in RECORDS:
        RECORDS[seed] = record_text(seed)
    form = forms.UploadForm({"record": RECORDS[seed], "seat": "0"})
    assert form.is_valid(), form.errors
    with capture(execute=True):
        return services.upload(player=player, data=form.cleaned_data["data"], replay=form.cleaned_data["replay"], client=client)


def played(capture, player: Player, client: str) -> Hand:
    """A hand played here to its end from ``client``'s address."""
    with capture(execute=True):
        game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0, client=client)
    hand = game.hands.get()
    while not hand.over:
        with capture(execute=True):
            hand, _changed, _done = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(move_for(hand)), hand_id=hand.pk, client=client)
    return hand


def claim_order() -> list[int]:
    """The hands of the ready review tasks in the order a worker claims them (priority, then first in)."""
    return [task.args_kwargs["args"][0] for task in DBTaskResult.objects.ready().filter(task_path=TASK)]


def test_players_are_served_in_turn_not_first_in_first_out(django_capture_on_commit_callbacks):
    """Player A uploaded three records, then B one: the worker served A's three first."""
    a, b = Player.objects.create(), Player.objects.create()
    a1, a2, a3 = (uploaded(django_capture_on_commit_callbacks, a, "10.7.0.1", seed) for seed in (5, 6, 7))
    b1 = uploaded(django_capture_on_commit_callbacks, b, "10.7.0.2")
    assert claim_order() == [a1.pk, b1.pk, a2.pk, a3.pk]


def test_one_address_is_one_turn_whatever_its_players(django_capture_on_commit_callbacks):
    """A visitor who drops its cookie is a new player each time, but the same address."""
    c, d, e = Player.objects.create(), Player.objects.create(), Player.objects.create()
    c1, c2 = (uploaded(django_capture_on_commit_callbacks, c, "10.7.1.1", seed) for seed in (5, 6))
    d1 = uploaded(django_capture_on_commit_callbacks, d, "10.7.1.1")  # the same address: its third in the queue
    e1 = uploaded(django_capture_on_commit_callbacks, e, "10.7.1.2")
    assert claim_order() == [c1.pk, e1.pk, c2.pk, d1.pk]
    assert Hand.objects.get(pk=d1.pk).review_client not in ("", "10.7.1.1")  # a keyed hash, not the address


def test_a_played_hand_comes_before_an_upload_of_the_same_turn(django_capture_on_commit_callbacks):
    first = uploaded(django_capture_on_commit_callbacks, Player.objects.create(), "10.7.2.1")
    hand = played(django_capture_on_commit_callbacks, Player.objects.create(), "10.7.2.2")
    assert claim_order() == [hand.pk, first.pk]


def test_a_flood_stays_ahead_of_offline_work_and_others_still_come_first(django_capture_on_commit_callbacks):
    flooder = Player.objects.create()
    record = json.loads(record_text(5))
    Hand.objects.bulk_create([Hand(player=flooder, source=Hand.UPLOAD, record=record, over=True, review_state=Hand.QUEUED) for _ in range(80)])
    last = uploaded(django_capture_on_commit_callbacks, flooder, "10.7.3.1")
    other = uploaded(django_capture_on_commit_callbacks, Player.objects.create(), "10.7.3.2")
    priorities = dict(DBTaskResult.objects.values_list("args_kwargs__args__0", "priority"))
    assert priorities[last.pk] == services.REVIEW_FLOOR > OFFLINE_PRIORITY
    assert priorities[other.pk] == services.REVIEW_TOP - 1  # an upload, first of its player and address
    assert claim_order() == [other.pk, last.pk]


def test_a_server_start_queues_no_branch(django_capture_on_commit_callbacks):
    """docs/play.md: a branch is reviewed only when its player asks; every start queued them all."""
    player = Player.objects.create()
    origin = played(django_capture_on_commit_callbacks, player, "10.7.4.1")
    run_queued_tasks()
    step = hand_review.decision_points(origin.kwx_record, origin.seat)[0].step
    taken = hand_review.chosen_at(services.seats.replayed(origin.kwx_record, origin.seed), step, origin.seat)
    branch = services.branch(player=player, hand_id=origin.pk, step=step, choice=forms.parse_choice("pass" if taken is None else f"{taken.verb} {taken.tile}"))
    with django_capture_on_commit_callbacks(execute=True):
        branch, _done = services.act_branch(player=player, hand_id=branch.pk, seen=branch.action_count, choice=None)  # the bot plays it out
    assert branch.over and branch.review_state == Hand.NOT_ASKED
    old = Hand.objects.create(player=player, source=Hand.UPLOAD, record=origin.record, over=True)  # a hand from before reviews were tasks
    with django_capture_on_commit_callbacks(execute=True):
        call_command("enqueue_reviews", verbosity=0)
    assert Hand.objects.get(pk=branch.pk).review_state == Hand.NOT_ASKED
    assert Hand.objects.get(pk=old.pk).review_state == Hand.QUEUED and claim_order() == [old.pk]
    with django_capture_on_commit_callbacks(execute=True):
        services.request_review(player=player, hand_id=branch.pk, client="10.7.4.1")  # its player asks
    assert Hand.objects.get(pk=branch.pk).review_state == Hand.QUEUED and claim_order() == [old.pk, branch.pk]


def lose_task(hand: Hand, quiet: float = selectors.LOST_AFTER + 1) -> Hand:
    """The hand's task gone from the queue (an enqueue that failed unseen, a table pruned) and its last sign of life ``quiet`` seconds ago."""
    DBTaskResult.objects.filter(args_kwargs__args__0=hand.pk).delete()
    Hand.objects.filter(pk=hand.pk).update(review_beat=timezone.now() - timedelta(seconds=quiet))
    return Hand.objects.get(pk=hand.pk)


def test_a_queued_review_whose_task_was_lost_is_queued_again_by_a_start_and_by_asking(django_capture_on_commit_callbacks):
    player = Player.objects.create()
    hand = lose_task(uploaded(django_capture_on_commit_callbacks, player, "10.7.5.1"))
    assert hand.review_state == Hand.QUEUED and selectors.review_lost(hand) and claim_order() == []
    with django_capture_on_commit_callbacks(execute=True):
        call_command("enqueue_reviews", verbosity=0)
    assert claim_order() == [hand.pk]
    with django_capture_on_commit_callbacks(execute=True):
        call_command("enqueue_reviews", verbosity=0)  # its task is there now: nothing more
        services.request_review(player=player, hand_id=hand.pk)  # and asking again changes nothing
    assert claim_order() == [hand.pk]
    lose_task(hand)
    with django_capture_on_commit_callbacks(execute=True):
        services.request_review(player=player, hand_id=hand.pk)  # the player's "Try again"
    assert claim_order() == [hand.pk]
    run_queued_tasks()
    assert Hand.objects.get(pk=hand.pk).review_state == Hand.DONE


def test_a_review_just_queued_is_not_taken_as_lost_before_its_task_is_enqueued(django_capture_on_commit_callbacks):
    """The hand's transaction commits a moment before its task is enqueued: a start in between must not queue it twice."""
    hand = lose_task(uploaded(django_capture_on_commit_callbacks, Player.objects.create(), "10.7.6.1"), quiet=0)
    assert not selectors.review_lost(hand)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("enqueue_reviews", verbosity=0)
    assert claim_order() == []


def test_a_running_review_without_progress_is_stalled_and_may_be_queued_again(django_capture_on_commit_callbacks):
    player = Player.objects.create()
    hand = uploaded(django_capture_on_commit_callbacks, player, "10.7.7.1")
    DBTaskResult.objects.update(status="RUNNING", started_at=timezone.now())  # a worker took it, then was killed
    Hand.objects.filter(pk=hand.pk).update(review_state=Hand.RUNNING, review_beat=timezone.now())
    hand.refresh_from_db()
    assert not selectors.review_stalled(hand) and not selectors.review_status(hand)["may_ask"]
    with django_capture_on_commit_callbacks(execute=True):
        services.request_review(player=player, hand_id=hand.pk)  # working: asking changes nothing
    assert claim_order() == []
    Hand.objects.filter(pk=hand.pk).update(review_beat=timezone.now() - timedelta(seconds=selectors.STALLED_AFTER + 1))
    hand.refresh_from_db()
    status = selectors.review_status(hand)
    assert status["stalled"] and status["pending"] and status["may_ask"]
    with django_capture_on_commit_callbacks(execute=True):
        services.request_review(player=player, hand_id=hand.pk)
    assert claim_order() == [hand.pk]


def test_a_review_beats_while_its_processes_work_and_at_each_decision(django_capture_on_commit_callbacks, monkeypatch):
    hand = uploaded(django_capture_on_commit_callbacks, Player.objects.create(), "10.7.8.1")
    old = timezone.now() - timedelta(hours=1)
    Hand.objects.filter(pk=hand.pk).update(review_beat=old)
    beats = []
    real = hand_review.review_points

    def watched(record, seat, points, method, jobs=1, give_way=None, beat=None):
        Hand.objects.filter(pk=hand.pk).update(review_beat=old)
        beat()  # what kwx.processes.as_done calls while no decision comes
        beats.append(Hand.objects.get(pk=hand.pk).review_beat)
        yield from real(record, seat, points, method, jobs, give_way, beat)

    monkeypatch.setattr(hand_review, "review_points", watched)
    run_queued_tasks()
    hand.refresh_from_db()
    assert beats and beats[0] > old and hand.review_state == Hand.DONE and hand.review_beat >= beats[0]

"""The review as a background task: queued when a hand ends, run by the worker, idempotent, resumable, failing visibly."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from accounts.models import Player
from kwx import hand_review
from kwx_site.management.commands.db_worker import LeasedWorker
from play import forms, review_work, services
from play.models import Hand, ReviewItem
from tests.conftest import review_worked_out_once

from .helpers import move_for, run_queued_tasks, upload

pytestmark = [pytest.mark.django_db, pytest.mark.deals(13)]
"""The games here deal from seed 13 on: a short first hand (4 decisions at a table of basic play), reviewed in full by each test."""
TASK = "play.tasks.review_hand"


@pytest.fixture(autouse=True)
def _fast_reviews(settings):
    """The reviews here play out with the fast bot: these tests are about the task (queued, stored, resumed, failing), not the judge's play."""
    settings.REVIEW_POLICY = "strong"


def finished_hand(capture, level: str = "basic") -> Hand:
    player = Player.objects.create()
    with capture(execute=True):
        game = services.start_game(player=player, level=level, rules="standard", base=1, piao=0)
    hand = game.hands.get()
    while not hand.over:
        with capture(execute=True):
            hand, _changed, _done = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(move_for(hand)), hand_id=hand.pk)
    return hand


def uploaded_hand(capture, seed: int = 24) -> Hand:
    """A finished hand of a few decisions (5) from a fixed wall, uploaded (its review queued the same way)."""
    from kwx.bots.basic import BasicBot
    from kwx.bots.strong import StrongBot
    from kwx.table.selfplay import play, seeded_deal

    done = play(seeded_deal(seed, 0), [BasicBot(), StrongBot(), StrongBot()])
    with capture(execute=True):
        return upload(Player.objects.create(), json.dumps(done.record.to_json()), 0)


def expected(hand: Hand, settings) -> dict:
    """The review worked out here, straight through, each decision once a run: what the task must have stored."""
    method = hand_review.Method(settings.REVIEW_POLICY, settings.REVIEW_WORK)
    return review_worked_out_once(hand_review.Reviewed.from_json(hand.record), hand.seat, method)


def test_a_finished_hand_queues_its_review_when_it_commits_and_the_worker_stores_it(django_capture_on_commit_callbacks, settings):
    hand = finished_hand(django_capture_on_commit_callbacks)
    assert hand.review_state == Hand.QUEUED and hand.review is None
    queued = DBTaskResult.objects.get()
    assert (queued.status, queued.task_path, queued.args_kwargs["args"]) == ("READY", TASK, [hand.pk])
    run_queued_tasks()
    hand.refresh_from_db()
    queued.refresh_from_db()
    assert queued.status == "SUCCESSFUL" and hand.review_state == Hand.DONE
    assert hand.review == json.loads(json.dumps(expected(hand, settings)))
    assert (hand.review_done, hand.review_total) == (len(hand.review["decisions"]),) * 2
    costly = {d["step"] for d in hand.review["decisions"] if d["costly"]}
    assert set(ReviewItem.objects.filter(hand=hand).values_list("step", flat=True)) == costly


def test_a_hand_not_over_queues_nothing(django_capture_on_commit_callbacks):
    player = Player.objects.create()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    if not hand.over:
        assert hand.review_state == Hand.NOT_ASKED and not DBTaskResult.objects.exists()


def test_storing_twice_and_running_twice_change_nothing(django_capture_on_commit_callbacks, settings):
    hand = finished_hand(django_capture_on_commit_callbacks)
    run_queued_tasks()
    hand.refresh_from_db()
    figures = hand.review
    figures["decisions"][0]["costly"] = True  # at least one item to keep
    review_work.store_review(hand=hand, figures=figures)
    items = list(ReviewItem.objects.filter(hand=hand).values_list("pk", "step", "due", "card"))
    review_work.store_review(hand=hand, figures=figures, now=timezone.now() + timedelta(days=3))
    assert list(ReviewItem.objects.filter(hand=hand).values_list("pk", "step", "due", "card")) == items
    assert review_work.work_review(hand_id=hand.pk, policy=settings.REVIEW_POLICY, work_per_choice=settings.REVIEW_WORK) == "reviewed already"
    hand.refresh_from_db()
    assert hand.review == figures


def test_a_run_cut_short_is_taken_up_where_it_stopped_with_the_same_figures(django_capture_on_commit_callbacks, settings):
    hand = uploaded_hand(django_capture_on_commit_callbacks)
    total = len(hand_review.decision_points(hand.kwx_record, hand.seat))
    assert total >= 3
    args = {"hand_id": hand.pk, "policy": settings.REVIEW_POLICY, "work_per_choice": settings.REVIEW_WORK}
    review_work.work_review(**args, decisions=1)
    hand.refresh_from_db()
    assert (hand.review_state, hand.review_done, hand.review_total) == (Hand.RUNNING, 1, total)
    first = hand.review["decisions"][0]
    first["mean"] = 123.0  # a stored decision is taken as it is, not worked out again
    Hand.objects.filter(pk=hand.pk).update(review=hand.review)
    review_work.work_review(**args)
    hand.refresh_from_db()
    assert hand.review_state == Hand.DONE and hand.review["decisions"][0]["mean"] == 123.0
    straight = json.loads(json.dumps(expected(hand, settings)))
    assert hand.review["decisions"][1:] == straight["decisions"][1:]


def test_figures_of_another_method_are_not_taken_up(django_capture_on_commit_callbacks, settings):
    hand = uploaded_hand(django_capture_on_commit_callbacks)
    args = {"hand_id": hand.pk, "policy": settings.REVIEW_POLICY}
    review_work.work_review(**args, work_per_choice=settings.REVIEW_WORK + 1, decisions=1)
    review_work.work_review(**args, work_per_choice=settings.REVIEW_WORK)
    hand.refresh_from_db()
    assert hand.review == json.loads(json.dumps(expected(hand, settings)))


def test_a_failing_review_says_so_and_asking_again_queues_it_once(django_capture_on_commit_callbacks, monkeypatch):
    hand = finished_hand(django_capture_on_commit_callbacks)

    def broken(*args, **kwargs):
        raise RuntimeError("broken rollouts")

    with monkeypatch.context() as patch:  # only this patch undone afterwards (undo() would also undo the suite's fixtures)
        patch.setattr(hand_review, "review_point", broken)
        run_queued_tasks()
    hand.refresh_from_db()
    assert hand.review_state == Hand.FAILED and DBTaskResult.objects.get().status == "FAILED"
    with django_capture_on_commit_callbacks(execute=True):
        services.request_review(player=hand.player, hand_id=hand.pk)
        services.request_review(player=hand.player, hand_id=hand.pk)  # a repeat changes nothing
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    run_queued_tasks()
    hand.refresh_from_db()
    assert hand.review_state == Hand.DONE
    with pytest.raises(Hand.DoesNotExist):
        services.request_review(player=Player.objects.create(), hand_id=hand.pk)


def test_a_queue_that_refuses_the_task_leaves_a_failed_review_to_try_again(django_capture_on_commit_callbacks, monkeypatch):
    from django_tasks_db.backend import DatabaseBackend

    def refuse(*args, **kwargs):
        raise OSError("queue down")

    monkeypatch.setattr(DatabaseBackend, "enqueue", refuse)
    hand = finished_hand(django_capture_on_commit_callbacks)
    hand.refresh_from_db()
    assert hand.review_state == Hand.FAILED and not DBTaskResult.objects.exists()


def test_uploads_and_old_hands_are_queued_and_enqueue_reviews_queues_each_once(django_capture_on_commit_callbacks):
    hand = finished_hand(django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        uploaded = upload(hand.player, json.dumps(hand.record), 1)
    assert uploaded.review_state == Hand.QUEUED and DBTaskResult.objects.count() == 2
    Hand.objects.filter(pk=hand.pk).update(review_state=Hand.NOT_ASKED)  # a hand from before reviews were tasks
    DBTaskResult.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("enqueue_reviews", verbosity=0)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("enqueue_reviews", verbosity=0)
    assert [r.args_kwargs["args"] for r in DBTaskResult.objects.all()] == [[hand.pk]]


@task()
def stop_the_worker() -> None:
    """A task during which the worker is stopped by force (a second Ctrl+C)."""
    raise SystemExit(1)


def test_the_worker_puts_back_tasks_past_their_lease_and_those_its_forced_stop_cut_short():
    old = DBTaskResult.objects.create(args_kwargs={"args": [1], "kwargs": {}}, task_path=TASK, backend_name="default", status="RUNNING", started_at=timezone.now() - timedelta(seconds=700))
    fresh = DBTaskResult.objects.create(args_kwargs={"args": [2], "kwargs": {}}, task_path=TASK, backend_name="default", status="RUNNING", started_at=timezone.now())
    worker = LeasedWorker(lease=600, queue_names=["default"], interval=0, batch=True, backend_name="default", startup_delay=False, max_tasks=None, worker_id="w", excluded_queue_names=[])
    assert worker.reclaim() == 1
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert (old.status, fresh.status) == ("READY", "RUNNING")
    stopped = stop_the_worker.enqueue()
    DBTaskResult.objects.exclude(pk=stopped.id).delete()
    row = DBTaskResult.objects.get()
    row.claim("w")
    worker.run_task(row)
    row.refresh_from_db()
    assert row.status == "READY"


def test_the_review_task_gives_way_to_the_hosts_ev_requests(django_capture_on_commit_callbacks, settings, monkeypatch):
    from analysis.ev_limits import flight_path
    from kwx.processes import GiveWay

    hand = finished_hand(django_capture_on_commit_callbacks)
    seen = []
    real = review_work.work_review
    monkeypatch.setattr(review_work, "work_review", lambda **kw: seen.append(kw["give_way"]) or real(**kw))
    run_queued_tasks()
    assert seen == [GiveWay(str(flight_path()))]
    hand.refresh_from_db()
    assert hand.review_state == Hand.DONE


def test_a_task_worker_runs_below_the_web_requests(tmp_path):
    """``TASK_NICE``: the worker lowers its own priority at start (its review processes inherit it)."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    script = "import os; from kwx.processes import lower_priority; print(lower_priority(7), lower_priority(3), os.getpriority(os.PRIO_PROCESS, 0))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    start = os.getpriority(os.PRIO_PROCESS, 0)
    assert out == [str(max(7, start)), str(max(7, start)), str(max(7, start))]  # raised to 7, never lowered again


def test_the_worker_command_takes_its_nice_value_from_task_nice(settings, monkeypatch):
    from kwx_site.management.commands import db_worker

    asked = []
    monkeypatch.setattr(db_worker, "lower_priority", asked.append)
    settings.TASK_NICE = 12
    run_queued_tasks()
    assert asked == [12]

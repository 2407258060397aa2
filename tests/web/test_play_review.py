"""The review page before, during and after its task: nothing computed or stored on a GET, progress polled by htmx, a failed review tried again, figures that agree."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from kwx import hand_review
from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from play import review_work
from play.models import Hand, ReviewItem
from play.templatetags.review_figures import MINUS
from tests.play.helpers import run_queued_tasks

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reviews_worked_out_once")]
WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b", re.I)


def uploaded(client: Client, capture, seed: int = 5) -> Hand:
    """A finished hand of a fixed wall pasted by the client's visitor (its review queued as for a hand played here)."""
    done = play(seeded_deal(seed, 0), [BasicBot(), StrongBot(), StrongBot()])
    with capture(execute=True):
        response = client.post("/play/upload/", {"record": json.dumps(done.record.to_json()), "seat": "0"})
    assert response.status_code == 302
    return Hand.objects.order_by("-pk").first()


def writes_during(job) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        job()
    return [q["sql"] for q in queries.captured_queries if WRITES.match(q["sql"])]


def get(client: Client, url: str, htmx: bool = False):
    response = client.get(url, HTTP_HX_REQUEST="true") if htmx else client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_no_get_of_a_review_writes_anything_before_during_or_after_its_task(client, django_capture_on_commit_callbacks, settings):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    url = f"/play/{hand.pk}/review/"
    client.post(f"/play/{hand.pk}/share/")
    shared = f"/play/shared/{Hand.objects.get(pk=hand.pk).share_token}/"

    def every_get():
        for path in (url, url + "?step=3", shared):
            get(client, path)
            get(client, path, htmx=True)

    rows = lambda: (list(Hand.objects.values()), list(DBTaskResult.objects.values()), list(ReviewItem.objects.values()))
    for stage in ("queued", "running", "done"):
        if stage == "running":
            review_work.work_review(hand_id=hand.pk, policy=settings.REVIEW_POLICY, work_per_choice=settings.REVIEW_WORK, decisions=1)
        if stage == "done":
            run_queued_tasks()
        before = rows()
        assert writes_during(every_get) == [], stage
        assert rows() == before, stage
    Hand.objects.filter(pk=hand.pk).update(review_state=Hand.NOT_ASKED, review=None)  # a hand from before reviews were tasks
    assert writes_during(every_get) == []
    assert Hand.objects.get(pk=hand.pk).review is None


def test_while_its_task_works_the_page_polls_its_fragment_and_shows_the_progress(client, django_capture_on_commit_callbacks, settings):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    url = f"/play/{hand.pk}/review/?step=2"
    queued = get(client, url)
    assert 'hx-trigger="every 2s"' in queued and f'hx-get="{url}"' in queued and 'id="review-refresh"' in queued and f'href="{url}"' in queued
    assert "pl-decision" not in queued and "review-progress" not in queued  # no worker has started it yet
    review_work.work_review(hand_id=hand.pk, policy=settings.REVIEW_POLICY, work_per_choice=settings.REVIEW_WORK, decisions=2)
    total = len(hand_review.decision_points(hand.kwx_record, hand.seat))
    fragment = get(client, url, htmx=True)
    assert "<html" not in fragment and fragment.lstrip().startswith('<div id="review"') and 'hx-trigger="every 2s" hx-target="#review"' in fragment
    assert f'<progress id="review-progress" value="2" max="{total}">' in fragment
    run_queued_tasks()
    done = get(client, url, htmx=True)
    assert "hx-trigger" not in done and "review-status" not in done and "pl-declist" in done


def test_a_failed_review_says_so_and_offers_to_try_again_by_post(client, django_capture_on_commit_callbacks, monkeypatch):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    with monkeypatch.context() as patch:  # only this patch undone afterwards (undo() would also undo the suite's fixtures)
        patch.setattr(hand_review, "review_point", lambda *a, **k: 1 / 0)
        run_queued_tasks()
    page = get(client, f"/play/{hand.pk}/review/")
    assert 'id="review-again"' in page and "hx-trigger" not in page and f'action="/play/{hand.pk}/review/again/"' in page
    assert client.get(f"/play/{hand.pk}/review/again/").status_code == 405
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(f"/play/{hand.pk}/review/again/")
        client.post(f"/play/{hand.pk}/review/again/")  # a double submit queues it once
    assert again.status_code == 302 and again["Location"] == f"/play/{hand.pk}/review/"
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    assert 'hx-trigger="every 2s"' in get(client, f"/play/{hand.pk}/review/")
    Client().get("/play/")
    assert Client().post(f"/play/{hand.pk}/review/again/").status_code == 404


def _cells(page: str, row_class: str) -> list[str]:
    row = re.search(rf'<tr class="[^"]*{row_class}[^"]*">(.*?)</tr>', page, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_decision_s_figures_agree_wherever_they_are_shown_and_its_columns_are_named_apart(client, django_capture_on_commit_callbacks, language):
    client.cookies["django_language"] = language
    hand = uploaded(client, django_capture_on_commit_callbacks)
    run_queued_tasks()
    hand.refresh_from_db()
    decision = next((d for d in hand.review["decisions"] if not d["same"] and round(d["cost"], 2)), None)
    assert decision is not None
    page = get(client, f"/play/{hand.pk}/review/?step={decision['step']}")
    titles = [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', page.split('class="pl-options"')[1].split("</thead>")[0], re.S)]
    assert len(titles) == len(set(titles)) == 4
    text = re.sub(r"<[^>]+>", "", re.search(r'<strong id="decision-cost">(.*?)</strong>', page, re.S).group(1)).strip()
    assert _cells(page, "pl-mine")[2].startswith(text)
    listed = re.search(rf'<li value="{decision["step"]}">(.*?)</li>', page, re.S).group(1)
    assert re.search(rf'<span class="badge[^"]*">{re.escape(text)}</span>', listed)
    assert f"{MINUS}0.00" not in page and "-0.0" not in page
    for row in (r for r in decision["options"] if r["shanten"] == 0):
        assert all(f"tiles/{w['tile']}.svg" in page for w in row["waits"])


def test_a_review_item_asks_again_without_showing_the_old_answer(client, django_capture_on_commit_callbacks):
    hand = uploaded(client, django_capture_on_commit_callbacks)
    run_queued_tasks()
    hand.refresh_from_db()
    decision = next(d for d in hand.review["decisions"] if not d["same"])
    decision["costly"] = True
    review_work.store_review(hand=hand, figures=hand.review)
    item = ReviewItem.objects.get(hand=hand, step=decision["step"])
    page = get(client, f"/play/{hand.pk}/review/?step={item.step}&item={item.pk}")
    asked = page.split('id="dec-h"')[1].split("</section>")[0]
    assert f"/play/items/{item.pk}/" in asked and "pl-mine" not in page and "pl-declist" not in page and "pl-taken" not in page
    values = re.findall(r'name="move" value="([^"]+)"', asked)
    assert len(values) == len(decision["options"])
    order = {"discard": 0, "kong": 1, "pong": 2, "win": 3, "pass": 4}
    keys = [(order[v.split()[0]], v) for v in values]
    assert [k[0] for k in keys] == sorted(k[0] for k in keys)  # in the table's order, not best first

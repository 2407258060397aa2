"""In Chromium at 390 px: a review page before its task has started, while it works (progress polled by htmx) and once it is done.

"During" is made by the test, not waited for: it runs two of the hand's decisions itself
(the task's own service, stopped after two), then the rest, between page states; the page
shows each state by itself (its fragment polls every two seconds).
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from kwx import hand_review
from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from play import review_work
from play.models import Hand
from tests.e2e.axe import assert_no_violations
from tests.e2e.conftest import SHOTS, open_page, shot
from tests.play.helpers import run_queued_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reviews_worked_out_once")]


def paste_a_hand(page) -> Hand:
    """Paste a finished hand's record on /play/ as a visitor would; the page goes to its review."""
    done = play(seeded_deal(5, 0), [BasicBot(), StrongBot(), StrongBot()])
    page.goto(f"{page.base}/play/")
    page.locator("#record").fill(json.dumps(done.record.to_json()))
    page.locator("#upload-record").click()
    page.wait_for_url("**/review/")
    return Hand.objects.order_by("-pk").first()


def work(hand: Hand, decisions: int | None = None) -> None:
    review_work.work_review(hand_id=hand.pk, policy=settings.REVIEW_POLICY, work_per_choice=settings.REVIEW_WORK, decisions=decisions)


def test_the_review_page_before_during_and_after_its_task(browser, live_server):
    with open_page(browser, live_server, 390, 844, bypass_csp=True) as page:  # axe-core is injected by the test
        hand = paste_a_hand(page)
        total = len(hand_review.decision_points(hand.kwx_record, hand.seat))
        status = page.locator("#review-status")
        assert "Waiting for a worker" in status.inner_text() or "等待" in status.inner_text()
        assert page.locator("#review-refresh").count() == 1 and page.locator(".pl-decision").count() == 0
        shot(page, "review-before")
        assert_no_violations(page)

        work(hand, decisions=2)  # the task at work: two decisions judged
        page.locator(f'#review-progress[value="2"][max="{total}"]').wait_for()
        assert f"2 / {total}" in status.inner_text().replace(" ", " ") or f"2 of {total}" in status.inner_text()
        shot(page, "review-during")
        assert_no_violations(page)

        run_queued_tasks()  # the worker takes the task and finishes what is left
        page.locator(".pl-declist").wait_for()
        assert page.locator("#review-status").count() == 0 and page.locator("#review [hx-trigger]").count() == 0
        page.locator("#step-first").click()
        page.wait_for_function("() => location.search.includes('step=0')")
        page.locator("#step-next-decision").click()
        page.locator(".pl-options").wait_for()
        board = page.locator(".pl-review-table").bounding_box()
        rows = page.locator(".pl-options").bounding_box()
        assert rows["y"] >= board["y"] + board["height"]  # on a phone the choice rows come below the board
        assert page.locator(".pl-options tbody tr").count() == page.locator(".pl-options tbody td.pl-leaves").count() >= 2
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "review-after")
        if SHOTS:
            page.locator(".pl-decision").screenshot(path=f"{SHOTS}/review-after-decision.png")
        assert_no_violations(page)


def test_without_javascript_the_refresh_link_shows_the_finished_review(browser, live_server):
    with open_page(browser, live_server, 390, 844, javascript=False) as page:
        hand = paste_a_hand(page)
        assert page.locator("#review-status").count() == 1
        work(hand)
        page.locator("#review-refresh").click()
        page.locator(".pl-declist").wait_for()
        assert page.locator("#review-status").count() == 0

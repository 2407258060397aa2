"""In Chromium at 390 and 1280 px, zh and en: a review whose verdicts rest on a second set of deals — a costly deal-in with its
reason in words, the figures with the deals they rest on — and a table drill's feedback that names the robbed kong (k00393)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from kwx.bots.strong import StrongBot
from kwx.table import review as review_sets
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import view_for
from play import review_work
from play.models import Hand
from puzzles.models import Puzzle
from tests.e2e.conftest import open_page, shot
from tests.engine.test_hand_review import Reckless
from tests.puzzles.factories import ensure_bank

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reviews_worked_out_once")]
SIZES = [(390, 844), (1280, 900)]


def reckless_hand():
    """A hand where seat 0 throws into a revealed (亮倒) hand, and the step it did."""
    for seed in range(200):
        done = play(seeded_deal(seed, seed % 3), [Reckless(), StrongBot(), StrongBot()])
        for step, action in enumerate(done.actions):
            view = view_for(done.states[step], 0)
            waits = {k for o in view.others() if view.seats[o].liang_dao for k in view.seats[o].waits}
            if action.seat == 0 and action.verb == "discard" and action.kind in waits and view.wall_left > 6:
                return done, step
    raise AssertionError("no deal-in to a revealed hand in 200 hands")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_review_says_too_close_or_gives_the_confirmed_verdict_and_why(browser, live_server, monkeypatch, language):
    monkeypatch.setattr(review_sets, "MIN_DEALS", review_sets.CLEAR.deals)  # the deals a verdict needs (tests/conftest.py plays fewer)
    done, step = reckless_hand()
    with open_page(browser, live_server, 390, 844, language=language) as page:
        page.goto(f"{page.base}/play/")
        page.locator("#record").fill(json.dumps(done.record.to_json()))
        page.locator("#upload-record").click()
        page.wait_for_url("**/review/")
        hand = Hand.objects.order_by("-pk").first()
        review_work.work_review(hand_id=hand.pk, policy="strong", work_per_choice=150)
        hand.refresh_from_db()
        dear = next(d for d in hand.review["decisions"] if d["step"] == step)
        assert dear["costly"] and dear["reasons"][0]["code"] == "deal_in"
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{page.base}/play/{hand.pk}/review/?step={step}")
            reasons = page.locator("#decision-reasons").inner_text()
            assert ("包胡" in reasons) and (("下家" in reasons) or ("上家" in reasons))
            assert page.locator("#decision-verdict .badge.bad").count() == 1
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            shot(page, f"review-costly-{language}-{width}")
        close = next((d for d in hand.review["decisions"] if not d["decided"]), None)
        if close is not None:
            page.goto(f"{page.base}/play/{hand.pk}/review/?step={close['step']}")
            assert page.locator("#decision-verdict").inner_text().strip()
            shot(page, f"review-close-{language}-{page.viewport_size['width']}")
    assert settings.REVIEW_WORK == 30  # the site's own reviews in tests stay small


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_robbed_kong_drill_names_the_robbed_kong_in_its_feedback(browser, live_server, language):
    ensure_bank("table_bank")
    k393 = Puzzle.objects.get(key="k00393")
    for width, height in SIZES:
        with open_page(browser, live_server, width, height, language=language) as page:
            page.goto(f"{page.base}/drills/{k393.pk}/?mode=rated")
            page.locator('button[name=choice][value="kong"]').click()
            why = page.locator(".why").inner_text()
            assert ("抢杠胡" in why) and ("包胡" in why) and ("−8.00" in why)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            shot(page, f"drill-k00393-{language}-{width}")

"""In Chromium at 390 px: the review's views of a played hand (every hand, mistakes only, the chart of its worth), play on from here to the end with the bot, and the game review — each page axe-clean and no wider than the phone."""

from __future__ import annotations

import pytest

from kwx.table import seats
from play.models import Game, Hand
from tests.e2e.axe import assert_no_violations
from tests.e2e.conftest import SHOTS, open_page, shot
from tests.play.helpers import finish_hand, run_queued_tasks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reviews_worked_out_once"), pytest.mark.deals(108)]
"""Both tests sit down to the same deal (seed 108, seat 0 dealing: 4 decisions against two strong bots) and play it the same
way: its review is worked out once a run."""


class Commit:
    """What ``finish_hand`` wants of a capture: here every commit is real (a transactional live server), so nothing to run."""

    def __call__(self, execute: bool = True):
        from contextlib import nullcontext

        return nullcontext()


def sit_and_play(page) -> Hand:
    """Sit down at /play/ in the browser, then play the hand to its end through the services (the test's own thumb), and work its review."""
    page.goto(f"{page.base}/play/")
    page.locator("#start-game").click()
    page.wait_for_selector("#table")
    game = Game.objects.order_by("-pk").first()
    hand = finish_hand(game.player, game, Commit())
    run_queued_tasks()
    hand.refresh_from_db()
    assert hand.review_state == Hand.DONE
    return hand


def assert_log_in_words(page) -> None:
    """The table's action log says what was played, in words (issue 38 item 1: a branch printed each line as a Python dict)."""
    lines = page.locator("#action-log li").all_inner_texts()
    assert lines and not any("{" in line or "'text'" in line for line in lines), lines


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_review_views_play_on_and_the_game_review_on_a_phone(browser, live_server):
    with open_page(browser, live_server, 390, 844) as page:
        hand = sit_and_play(page)
        decisions = hand.review["decisions"]
        page.goto(f"{page.base}/play/{hand.pk}/review/?step={decisions[0]['step']}")
        chart = page.locator("#worth-chart")
        chart.wait_for()
        assert chart.locator("a.pt").count() == len(decisions)
        assert chart.bounding_box()["width"] <= 390
        fits(page)
        shot(page, "review-views")
        if SHOTS:
            page.locator(".pl-chart").screenshot(path=f"{SHOTS}/review-chart.png")
            page.locator(".pl-summary").screenshot(path=f"{SHOTS}/review-summary.png")
        assert_no_violations(page)

        page.locator("#mistakes-switch").click()
        page.wait_for_function("() => location.search.includes('only=costly')")
        page.locator('#mistakes-switch[aria-checked="true"]').wait_for()
        costly = [d["step"] for d in decisions if d["costly"]]
        assert page.locator(".pl-declist li").count() == len(costly)
        assert page.locator("#no-mistakes").count() == (0 if costly else 1)

        page.locator("#open-switch").click()
        page.locator('#open-switch[aria-checked="true"]').wait_for()
        assert page.locator(".pl-review-table .pl-revealed").count() == 2 and page.locator(".pl-review-table .pl-hidden").count() == 0
        fits(page)
        shot(page, "review-every-hand")
        assert_no_violations(page)

        page.locator("#play-on summary").click()
        buttons = page.locator("#play-on button[name=move]")
        assert buttons.count() == len(decisions[0]["options"])
        if SHOTS:
            page.locator(".pl-steps").scroll_into_view_if_needed()
            page.screenshot(path=f"{SHOTS}/review-nav.png")
            page.locator(".pl-decision").screenshot(path=f"{SHOTS}/review-decision.png")
        buttons.first.click()
        page.locator("#branch-origin").wait_for()
        assert_log_in_words(page)
        fits(page)
        shot(page, "branch")
        assert_no_violations(page)
        branch = Hand.objects.get(source=Hand.BRANCH)
        if not branch.over:
            page.locator("#bot-plays").click()
        page.locator("#branch-compare").wait_for()
        assert_log_in_words(page)
        branch.refresh_from_db()
        assert page.locator("#payments li").count() == max(1, len(seats.replayed(branch.kwx_record).settlement.payments))  # the payments behind the nets (issue 38 item 1)
        fits(page)
        shot(page, "branch-over")
        assert_no_violations(page)
        branch.refresh_from_db()
        assert branch.over and branch.origin_id == hand.pk

        page.goto(f"{page.base}/play/{hand.game_id}/game-review/")
        page.locator("#game-totals").wait_for()
        fits(page)
        shot(page, "game-review")
        assert_no_violations(page)
        first = page.locator(".pl-costliest a").first
        if first.count():
            first.click()
            page.locator(".pl-decision").wait_for()

        cookies = [c for c in page.context.cookies() if c["name"] == "sessionid"]

    if SHOTS:  # the same pages at 390 px in English and at 1280 px in both languages, to look at
        pages = {"review-views": f"/play/{hand.pk}/review/?step={decisions[0]['step']}&open=1", "branch-over": f"/play/{branch.pk}/branch/", "game-review": f"/play/{hand.game_id}/game-review/"}
        for width, height, language in ((390, 844, "en"), (1280, 900, "zh-hans"), (1280, 900, "en")):
            with open_page(browser, live_server, width, height, language=language) as other:
                other.context.add_cookies(cookies)
                for name, url in pages.items():
                    other.goto(f"{other.base}{url}")
                    other.locator("main").wait_for()
                    shot(other, f"{name}-{width}-{language}")
                    if name == "review-views":
                        other.locator(".pl-chart").screenshot(path=f"{SHOTS}/review-chart-{width}-{language}.png")


def test_progress_opens_the_costly_decision_it_names_on_a_phone(browser, live_server):
    """Issue 38 item 8: /progress/'s "1 个损失大的决策待复习 →" opened a missed 何切 puzzle due sooner instead of that decision."""
    from datetime import timedelta

    from django.utils import timezone

    from play.models import ReviewItem
    from puzzles.models import Attempt, ReviewCard
    from tests.puzzles.factories import discard_puzzle

    with open_page(browser, live_server, 390, 844) as page:
        hand = sit_and_play(page)
        missed = discard_puzzle("34556p123789sZZZ")
        attempt = Attempt.objects.create(player=hand.player, puzzle=missed, attempt_id="0" * 32, answer="9s", correct=False)
        ReviewCard.objects.create(player=hand.player, puzzle=missed, card={}, due=attempt.created - timedelta(days=2))
        ReviewItem.objects.filter(player=hand.player).delete()
        step = hand.review["decisions"][0]["step"]
        item = ReviewItem.objects.create(player=hand.player, hand=hand, step=step, cost=1.0, card={}, due=timezone.now() - timedelta(days=1))
        page.goto(f"{page.base}/progress/")
        page.locator("#play-due").click()
        page.wait_for_url(f"**/play/{hand.pk}/review/?step={step}&item={item.pk}")
        page.locator(".pl-decision").wait_for()
        fits(page)
        shot(page, "progress-costly-decision-opened")

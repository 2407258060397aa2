"""In Chromium at 390 px: today's set on the home page (the daily drill solved and counted, the card fitting a phone), and the report
button of a drill, with htmx and without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from puzzles import selectors
from puzzles.models import DailyDrill, DrillReport, Puzzle
from tests.e2e.axe import violations
from tests.e2e.conftest import open_page, shot
from tests.e2e.pages import fit_problems
from tests.puzzles.factories import discard_puzzle, ensure_bank

pytestmark = pytest.mark.django_db(transaction=True)


def answer_button(page, puzzle: Puzzle):
    """The button of the drill's (first) right answer: a tile of the hand, or a choice."""
    if puzzle.kind == Puzzle.DISCARD:
        return page.locator(f'button.tile-button[value="{puzzle.accepted[0]}"]').first
    return page.locator(f'button.choice[value="{puzzle.accepted[0]}"]').first


def test_the_daily_drill_from_the_home_page_on_a_phone(page):
    ensure_bank()
    page.goto(page.base + "/")
    card = page.get_by_test_id("daily")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("daily-solvers")).to_contain_text("0 人今日答对")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the card fits the phone
    box = card.bounding_box()
    assert box["y"] + box["height"] < 844  # the whole set in the first screen
    for row in ("daily-drill", "daily-reviews", "daily-hand"):
        assert card.get_by_test_id(row).bounding_box()["height"] < 90, row  # one compact row each
    expect(card).to_contain_text("Asia/Shanghai")
    shot(page, "daily-home-390-zh")
    card.get_by_role("link", name="去做").click()
    puzzle = DailyDrill.objects.get(day=selectors.site_day()).puzzle
    expect(page).to_have_url(re.compile(rf"/{puzzle.pk}/\?mode=daily$"))
    expect(page.locator("#board .badge").first).to_contain_text("每日一题")
    answer_button(page, puzzle).click()
    page.wait_for_selector("#board.is-right")
    page.get_by_role("link", name="回到今日练习").click()
    expect(page).to_have_url(page.base + "/#daily")
    drill_row = page.get_by_test_id("daily-drill")
    expect(drill_row).to_have_class(re.compile("is-done"))
    expect(drill_row.get_by_test_id("daily-solvers")).to_contain_text("1 人今日答对")
    expect(page.get_by_test_id("daily-hand").get_by_role("button", name="开打")).to_be_visible()


def test_the_daily_hand_button_sits_down_at_the_judges_table(page):
    ensure_bank()
    page.goto(page.base + "/progress/")
    page.get_by_test_id("daily-hand").get_by_role("button", name="开打").click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    expect(page.locator("body")).to_contain_text("裁判")
    page.goto(page.base + "/progress/")
    expect(page.get_by_test_id("daily-hand").get_by_role("link", name="回到牌桌")).to_be_visible()


def test_report_a_drill_with_htmx_on_a_phone(page):
    drill = discard_puzzle("34556p123789sZZZ")
    page.goto(f"{page.base}/drills/{drill.pk}/?mode=rated")
    expect(page.get_by_test_id("open-reports")).to_have_count(0)
    page.get_by_text("报告这道题有误").click()
    page.get_by_label("其他问题").check()
    page.get_by_role("button", name="发送报告").click()
    expect(page.locator("#report-text-error")).to_have_text("请用几句话说明哪里有误。")  # a refusal (400) shown in place
    assert not DrillReport.objects.exists()
    page.get_by_label("局面不可能出现").check()
    page.get_by_label("说明").fill("五筒出现了五张")
    shot(page, "report-open-390-zh")
    page.get_by_role("button", name="发送报告").click()
    expect(page.locator("#report .report-thanks")).to_contain_text("谢谢：报告已记下")
    expect(page.get_by_test_id("open-reports")).to_have_text("⚑ 已被报告：1 条未处理")  # the page's head, swapped out of band
    assert page.url.endswith(f"/drills/{drill.pk}/?mode=rated")  # stayed on the drill
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    report = DrillReport.objects.get()
    assert (report.kind, report.text) == ("position", "五筒出现了五张")


def test_report_a_drill_without_javascript(browser, live_server):
    drill = discard_puzzle("34556p123789sZZZ")
    with open_page(browser, live_server, 390, 844, javascript=False) as page:
        page.goto(f"{page.base}/drills/{drill.pk}/")
        page.locator("#report summary").click()
        page.get_by_label("答案错了").check()
        page.get_by_role("button", name="发送报告").click()
        page.wait_for_url(re.compile(r"reported=new#report$"))
        expect(page.locator("#report .report-thanks")).to_contain_text("谢谢：报告已记下")
        expect(page.get_by_test_id("open-reports")).to_contain_text("1 条未处理")
    assert DrillReport.objects.get().kind == "answer"


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_set_the_open_report_form_and_the_staff_page_pass_axe_and_fit_a_phone(browser, live_server, language):
    ensure_bank()
    drill = discard_puzzle("34556p123789sZZZ")
    User.objects.create_user("boss", password="pw-12345678", is_staff=True)
    found = []
    with open_page(browser, live_server, 390, 844, language=language) as page:
        for url in ("/", "/progress/"):
            page.goto(page.base + url)
            expect(page.get_by_role("link", name=re.compile("去做|Solve"))).to_be_visible()
            found += [f"{url}: {v['id']} {v['help']} at {v['nodes']}" for v in violations(page)] + fit_problems(page, 390)
        page.goto(f"{page.base}/drills/{drill.pk}/")
        page.locator("#report summary").click()
        page.locator('#report input[value="other"]').check()
        page.locator("#report button[type=submit]").click()
        expect(page.locator("#report-text-error")).not_to_be_empty()
        found += [f"report: {v['id']} {v['help']} at {v['nodes']}" for v in violations(page)] + fit_problems(page, 390)
        page.locator("#report-text").fill("x")
        page.locator("#report button[type=submit]").click()
        expect(page.get_by_test_id("open-reports")).to_be_visible()
        page.goto(page.base + "/accounts/login/")
        page.fill("#id_username", "boss")
        page.fill("#id_password", "pw-12345678")
        page.locator("main form button.primary").click()
        page.wait_for_url(re.compile(r"/progress/$|/$"))
        page.goto(page.base + "/drills/reports/")
        expect(page.get_by_test_id("reported-drill")).to_have_count(1)
        found += [f"staff: {v['id']} {v['help']} at {v['nodes']}" for v in violations(page)] + fit_problems(page, 390)
    assert not found, "\n".join(found)

"""In Chromium: a player who picked 孝感 gets a 孝感 drill and a 孝感 算番 item, each labelled with its rules (linked to the town's learn page)
on the page and in the feedback, at 390 px and 1280 px, in Chinese and English; nothing scrolls sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from puzzles.models import Puzzle
from tests.e2e.conftest import open_page, shot
from tests.puzzles.factories import ensure_bank

pytestmark = pytest.mark.django_db(transaction=True)
LABEL = {"zh-hans": "孝感", "en": "Xiaogan"}


def _pick_xiaogan(page) -> None:
    page.goto(page.base + "/town/")
    with page.expect_response(lambda r: r.url.endswith("/town/") and r.request.method == "POST"):
        page.select_option("#rules", "xiaogan")
    expect(page.locator("#town-label")).to_have_text(re.compile("孝感|Xiaogan"))


def _no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize(("width", "language"), [(390, "zh-hans"), (390, "en"), (1280, "zh-hans"), (1280, "en")])
def test_a_xiaogan_player_gets_a_xiaogan_drill_and_quiz_item_with_their_rules(browser, live_server, width, language):
    ensure_bank("bank_xiaogan", "bank")
    with open_page(browser, live_server, width, 844 if width == 390 else 900, language=language) as page:
        _pick_xiaogan(page)
        page.goto(page.base + "/drills/?mode=rated")
        expect(page).to_have_url(re.compile(r"/drills/\d+/\?mode=rated$"))
        puzzle = Puzzle.objects.get(pk=int(re.search(r"/drills/(\d+)/", page.url).group(1)))
        assert puzzle.rules == "xiaogan"
        label = page.locator(".asked-under dd a")
        expect(label).to_have_text(LABEL[language])
        assert label.get_attribute("href") == "/learn/towns/xiaogan/" and label.is_visible()
        _no_sideways_scroll(page)
        shot(page, f"town-drill-{width}-{language}")
        page.locator(f'button.tile-button[value="{puzzle.accepted[0]}"]').first.click()
        expect(page.locator("#board.is-right")).to_have_count(1)
        expect(page.locator(".feedback .rules-line a")).to_have_text(LABEL[language])
        _no_sideways_scroll(page)
        shot(page, f"town-drill-{width}-{language}-answered")

        page.goto(page.base + "/learn/quiz/")
        expect(page).to_have_url(re.compile(r"/learn/quiz/\d+/$"))
        item = Puzzle.objects.get(pk=int(re.search(r"/learn/quiz/(\d+)/", page.url).group(1)))
        assert item.rules == "xiaogan"
        expect(page.locator(".asked-under dd a")).to_have_text(LABEL[language])
        expect(page.locator(".prompt-note")).to_contain_text(("数坎", "数坎 (count 坎)")[language == "en"])
        shot(page, f"town-quiz-{width}-{language}")
        page.locator(f'button.choice[value="{item.accepted[0]}"]').click()
        expect(page.locator("#board.is-right")).to_have_count(1)
        expect(page.locator(".feedback .rules-line a")).to_have_text(LABEL[language])
        expect(page.locator(".breakdown.paid")).to_be_visible()
        _no_sideways_scroll(page)
        shot(page, f"town-quiz-{width}-{language}-answered")


def test_a_table_drill_says_it_is_asked_under_the_standard_rules(page):
    ensure_bank("table_bank")
    _pick_xiaogan(page)
    page.goto(page.base + "/drills/?mode=rated&kind=kong")
    expect(page.locator(".town-notice")).to_contain_text("本题按通用规则出题")
    expect(page.locator(".asked-under dd a")).to_have_text("通用")
    _no_sideways_scroll(page)
    shot(page, "town-table-drill-390-zh-hans")


def test_a_ready_xiaogan_drill_explains_the_kan_on_top_of_each_win(page):
    ensure_bank("bank_xiaogan")
    puzzle = next(p for p in Puzzle.objects.filter(rules="xiaogan", kind=Puzzle.DISCARD).order_by("key") if any("worth" in w for w in p.options[0]["waits"]))
    wrong = next(o["discard"] for o in puzzle.options if o["discard"] not in puzzle.accepted)
    page.goto(f"{page.base}/drills/{puzzle.pk}/")
    page.locator(f'button.tile-button[value="{wrong}"]').first.click()
    expect(page.locator("#board.is-wrong")).to_have_count(1)
    expect(page.locator(".why")).to_contain_text("另加")  # each win's 坎, counted in the value
    _no_sideways_scroll(page)
    shot(page, "town-drill-ready-390-zh-hans-answered")

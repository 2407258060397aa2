"""In Chromium at 390 px: a whole hand played by keyboard alone (counted presses), focus kept on the hand after every
htmx swap and full-page load, and the table's new parts (turn order, waits, the log newest first) passing axe."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from play.models import Hand
from tests.e2e.axe import assert_no_violations
from tests.e2e.conftest import open_page, shot
from tests.web.test_play_table import ACTIONS, REVEALED, crafted_record

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reviews_worked_out_once")]
MAX_PRESSES = 60
FOCUS_ON_HAND = "() => { const a = document.activeElement; return !!a && (!!a.closest('.pl-hand-form') || a.id === 'next-hand') }"
SWAPPED = "seen => { const s = document.querySelector('input[name=seen]'); return !s || s.value !== seen }"


def focused(page) -> dict:
    return page.evaluate("() => { const a = document.activeElement; return {tag: a.tagName, id: a.id, value: a.value || '', cls: a.className} }")


def sit_down(page) -> None:
    page.goto(f"{page.base}/play/")
    page.locator('input[name="level"][value="strong"]').check()
    page.locator("#start-game").click()
    page.wait_for_selector("#table")


def key_for(page) -> str:
    """The one key a keyboard player presses now: 胡 when offered, 过 on a claim, else Enter on the focused (drawn) tile."""
    if page.locator(".pl-actions .pl-win").count():
        return "h"
    if page.locator(".pl-actions .pl-pass").count():
        return "g"
    return "Enter"


def play_by_keyboard(page) -> int:
    """Play the current hand to its settlement with the keyboard only; the presses it took."""
    presses = 0
    first = True
    while not page.locator("#next-hand").count():
        page.wait_for_function(FOCUS_ON_HAND)  # focus is on the hand, never on <body>
        seen = page.locator('input[name="seen"]').get_attribute("value")
        if first and page.locator(".pl-hand button.tile-button").count() > 1:  # ← moves along the hand, one tab stop for it all
            before = focused(page)
            page.keyboard.press("ArrowLeft")
            presses += 1
            after = focused(page)
            assert after["value"].startswith("discard ") and after != before
            assert page.locator('.pl-hand button.tile-button[tabindex="0"]').count() == 1
            first = False
        page.keyboard.press(key_for(page))
        presses += 1
        page.wait_for_function(SWAPPED, arg=seen)
        assert presses <= MAX_PRESSES
    return presses


def test_a_whole_hand_by_keyboard_alone_in_at_most_60_presses_focus_on_the_hand_throughout(browser, live_server):
    with open_page(browser, live_server, 390, 844, bypass_csp=True) as page:
        sit_down(page)
        assert page.locator("#play-keys").inner_text().count("胡") == 1 and "Enter" in page.locator("#play-keys").inner_text()
        shot(page, "keyboard-table-zh-390")
        assert_no_violations(page)
        counts = []
        for _ in range(2):  # the second hand begins with a full-page load (the next-hand form is a plain post)
            page.wait_for_function(FOCUS_ON_HAND)
            counts.append(play_by_keyboard(page))
            hand = Hand.objects.order_by("-id").first()
            assert hand.over
            page.wait_for_function("() => document.activeElement && document.activeElement.id === 'next-hand'")
            page.keyboard.press("Enter")  # deals the next hand
            page.wait_for_function("n => !document.querySelector('input[name=number][value=\"' + n + '\"]')", arg=hand.number)
        assert max(counts) <= MAX_PRESSES
        print(f"keyboard hands: {counts} presses")


def test_the_table_at_desktop_width_in_english_shows_the_order_waits_log_and_keys(browser, live_server):
    with open_page(browser, live_server, 1280, 900, bypass_csp=True, language="en") as page:
        sit_down(page)
        assert page.locator("#turn-order [aria-current=true]").count() == 1
        shot(page, "keyboard-table-en-1280")
        assert "Enter" in page.locator("#play-keys").inner_text()
        assert_no_violations(page)


SHEET_LINK_SHOWN = """() => {
  const link = document.querySelector('.pl-sheet tbody a');
  const box = link.getBoundingClientRect(), frame = link.closest('.table-scroll').getBoundingClientRect();
  return {right: box.right, frame: frame.right, width: window.innerWidth, text: link.innerText, scrolls: link.closest('.table-scroll').scrollWidth > link.closest('.table-scroll').clientWidth};
}"""


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_score_sheets_review_link_is_whole_at_390_px(browser, live_server, language):
    with open_page(browser, live_server, 390, 844, bypass_csp=True, language=language) as page:
        sit_down(page)
        play_by_keyboard(page)
        shot(page, f"settlement-{language}-390")
        shown = page.evaluate(SHEET_LINK_SHOWN)
        assert not shown["scrolls"] and shown["right"] <= shown["frame"] <= shown["width"], shown
        assert_no_violations(page)


BADGES_CLEAR = """() => {
  const items = [...document.querySelectorAll('.pl-declist li')];
  const out = [];
  items.forEach((li, i) => {
    const box = li.getBoundingClientRect();
    li.querySelectorAll('.badge, a').forEach(el => { const b = el.getBoundingClientRect(); if (b.right > box.right + 0.5) out.push({i, what: el.className || 'a', right: b.right, li: box.right}); });
    const next = items[i + 1];
    if (next) { const n = next.getBoundingClientRect(); if (Math.abs(n.top - box.top) < 2 && n.left - box.right < 32) out.push({i, gap: n.left - box.right}); }
  });
  return {problems: out, count: items.length};
}"""


def test_the_desktop_decision_lists_cost_badges_keep_clear_of_the_next_number(browser, live_server):
    from tests.e2e.test_review_page import paste_a_hand
    from tests.play.helpers import run_queued_tasks

    with open_page(browser, live_server, 1280, 900, bypass_csp=True, language="en") as page:
        paste_a_hand(page)
        run_queued_tasks()
        page.reload()
        page.locator(".pl-declist").wait_for()
        shot(page, "review-declist-en-1280")
        found = page.evaluate(BADGES_CLEAR)
        assert found["count"] > 3 and not found["problems"], found


def crafted_table(page, actions=ACTIONS) -> int:
    """Sit down, then give the hand a record of tests/web/test_play_table.py (shown, not played on): the game's id."""
    sit_down(page)
    hand = Hand.objects.order_by("-id").first()
    Hand.objects.filter(pk=hand.pk).update(record=crafted_record(actions).to_json(), seed=None)
    return hand.game_id


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_after_both_reveal_your_waits_take_discards_and_theirs_show_the_copies_left(browser, live_server, width, language):
    """Issue 38 items 2 and 6: after your 亮倒 a 屁胡 wait is won on a discard too (no "self-draw only"); a revealed opponent's waits show their live copies."""
    with open_page(browser, live_server, width, 844 if width == 390 else 900, bypass_csp=True, language=language) as page:
        game = crafted_table(page, REVEALED)
        page.goto(f"{page.base}/play/{game}/")
        page.locator("#own-waits").wait_for()
        assert page.locator("#own-waits .pl-wait").count() == 2 and page.locator("#own-waits .pl-only").count() == 0
        theirs = page.locator(".pl-opponents .pl-seat").filter(has=page.locator(".pl-waits")).locator(".pl-wait")
        assert [theirs.nth(i).get_attribute("data-tile") for i in range(theirs.count())] == ["6p", "4s"]
        for i in range(2):
            assert re.search(r"\b1\b", theirs.nth(i).inner_text()), theirs.nth(i).inner_text()
            box = theirs.nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"table-revealed-{language}-{width}")
        assert_no_violations(page)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_table_shows_your_waits_the_newest_actions_and_kong_money_without_sideways_scroll(browser, live_server, width, language):
    with open_page(browser, live_server, width, 844 if width == 390 else 900, bypass_csp=True, language=language) as page:
        game = crafted_table(page)
        page.goto(f"{page.base}/play/{game}/")
        page.locator("#own-waits").wait_for()
        assert page.locator("#own-waits .pl-wait").count() == 2 and page.locator("#own-waits .pl-dead").count() == 1
        assert page.locator("#action-log li").first.inner_text().startswith(("你", "You"))
        assert page.locator("#kong-money").is_visible() and page.locator("#turn-order [aria-current=true]").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        newest = page.locator("#action-log li").first.bounding_box()
        assert newest["y"] + newest["height"] <= page.viewport_size["height"]  # what was just played is on the first screen
        shot(page, f"table-{language}-{width}")
        assert_no_violations(page)
        page.goto(f"{page.base}/play/{game}/?hint=1")
        page.locator(".pl-hint").wait_for()
        assert page.locator(".pl-hint a.discard-link").count() == 0 and page.locator("#ev-assumptions").get_attribute("href").startswith("/analyze/")
        shot(page, f"table-hint-{language}-{width}")
        assert_no_violations(page)


def test_a_click_in_a_stale_tab_says_nothing_was_played(browser, live_server):
    with open_page(browser, live_server, 390, 844, language="en") as page:
        sit_down(page)
        page.wait_for_function(FOCUS_ON_HAND)
        other = page.context.new_page()  # the same player's second tab
        other.goto(page.url)
        other.wait_for_selector("#table")
        seen = page.locator('input[name="seen"]').get_attribute("value")
        page.keyboard.press(key_for(page))
        page.wait_for_function(SWAPPED, arg=seen)
        for selector in (".pl-actions .pl-pass", ".pl-actions .pl-win", ".pl-hand button.tile-button"):
            if other.locator(selector).count():
                other.locator(selector).first.click()
                break
        other.locator("#table .pl-error[role=alert]").wait_for()
        assert "Nothing was played" in other.locator("#table .pl-error").inner_text()
        assert other.locator('input[name="seen"]').count() == 0 or other.locator('input[name="seen"]').get_attribute("value") == page.locator('input[name="seen"]').get_attribute("value")
        shot(other, "stale-tab-en-390")


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_after_log_out_the_games_page_asks_to_log_in_and_comes_back(browser, live_server, django_user_model, language):
    django_user_model.objects.create_user("ann", password="a long enough password 25")
    with open_page(browser, live_server, 390, 844, bypass_csp=True, language=language) as page:
        page.goto(f"{page.base}/accounts/login/")
        page.locator("#id_username").fill("ann")
        page.locator("#id_password").fill("a long enough password 25")
        page.locator("form[action='/accounts/login/'] button").click()
        page.wait_for_load_state()
        sit_down(page)
        table = page.url
        page.goto(f"{page.base}/progress/")
        page.locator("summary").click()  # the phone menu holds the account
        page.locator(".menu-panel form[action='/accounts/logout/'] button").click()
        page.locator("#logged-out").wait_for()
        shot(page, f"logged-out-{language}-390")
        assert_no_violations(page)
        page.goto(table)
        page.locator("#log-in-to-continue").wait_for()
        shot(page, f"log-in-to-continue-{language}-390")
        assert_no_violations(page)
        page.locator("#log-in-link").click()
        page.locator("#id_username").fill("ann")
        page.locator("#id_password").fill("a long enough password 25")
        page.locator("form[action='/accounts/login/'] button").click()
        page.wait_for_selector("#table")
        assert page.url == table


@pytest.mark.parametrize("touch", [True, False])
def test_the_keyboard_keys_show_only_where_there_is_a_keyboard(browser, live_server, touch):
    """Issue 38 item 8: the line of keys (← → Enter H K P G L) showed on a touch phone, which has none of them."""
    with open_page(browser, live_server, 390, 844, touch=touch) as page:
        sit_down(page)
        page.locator(".pl-hand-form").wait_for()
        assert page.locator("#play-keys").count() == 1  # in the page (a phone may have a keyboard attached)
        assert page.locator("#play-keys").is_visible() is not touch
        if touch:
            shot(page, "table-touch-zh-hans-390")


@pytest.mark.parametrize("zone, shown", [("America/New_York", "2026-12-04 07:16 UTC\u22125"), ("Asia/Kolkata", "2026-12-04 17:46 UTC+5:30"), ("Asia/Shanghai", "2026-12-04 20:16 UTC+8")])
def test_your_games_are_listed_in_the_visitors_own_time_and_zone(browser, live_server, zone, shown):
    """Issue 38 item 8: "Your games" showed China time, with no zone, to a visitor elsewhere."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from play.models import Game

    with open_page(browser, live_server, 390, 844, language="en", zone=zone) as page:
        sit_down(page)
        Game.objects.update(created=datetime(2026, 12, 4, 12, 16, tzinfo=ZoneInfo("UTC")))
        page.goto(f"{page.base}/play/")
        moment = page.locator(".pl-games time").first
        expect(moment).to_have_text(shown)
        assert moment.get_attribute("title")  # the zone by name (Chromium may name an alias: Asia/Calcutta)
        shot(page, f"your-games-{zone.replace('/', '-')}-390")

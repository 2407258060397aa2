"""The analyzer in Chromium: build 4556p123s789sZZZ by tapping tiles, read the 卡五星 wait,
go to 14 tiles, read the discard table, reload the link; and the same page without JavaScript."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from kwx.hand.fans import fan
from tests.e2e.conftest import open_page, tap_at_once

HAND = ["4p", "5p", "5p", "6p", "1s", "2s", "3s", "7s", "8s", "9s", "Z", "Z", "Z"]


@pytest.fixture
def nojs_page(browser, live_server):
    """A phone-sized page with JavaScript turned off: the analyzer must work as a plain form."""
    with open_page(browser, live_server, 360, 800, javascript=False) as page:
        yield page


def tap_hand(page, tiles):
    """Tap palette tiles one by one, waiting for each to reach the hand."""
    count = page.locator(".az-count strong")
    for n, tile in enumerate(tiles, start=int(count.inner_text()) + 1):
        page.locator(f"#add-{tile}").click()
        expect(count).to_have_text(str(n))


def read_wait(page, tile):
    wait = page.locator(f'.az-wait[data-tile="{tile}"]')
    expect(wait).to_be_visible()
    return wait


def check_ready_hand(page):
    expect(page.locator("#results .az-shanten")).to_have_text("听牌")
    wait = read_wait(page, "5p")
    expect(wait.locator(".az-total").first).to_have_text(f"×{fan('ka_wu_xing').multiplier('standard')}")
    expect(wait.locator(".formula a")).to_have_text("卡五星")
    expect(page.locator(".az-wait")).to_have_count(1)


def check_discard_table(page):
    rows = page.locator(".discards tbody tr")
    expect(rows).to_have_count(11)  # 11 distinct kinds to discard
    best = page.locator(".discards tr.best")
    expect(best).to_have_count(1)
    expect(best).to_have_attribute("data-discard", "8p")
    expect(best.locator(".num")).to_have_text("8")


def test_build_the_hand_by_tapping_then_discard_then_reload(page):
    page.goto(page.base + "/")
    tap_hand(page, HAND)
    check_ready_hand(page)
    expect(page.locator("#hand-text")).to_have_value("4556p123789sZZZ")
    assert "hand=4556p123789sZZZ" in page.url  # the URL follows the hand without a reload

    page.locator("#add-8p").click()
    check_discard_table(page)
    assert "hand=45568p123789sZZZ" in page.url
    page.locator('.discards tr[data-discard="4p"] a.discard-link').click()
    expect(page.locator('.discards tr[data-discard="4p"]')).to_have_class(re.compile("chosen"))
    assert "discard=4p" in page.url

    page.reload()
    check_discard_table(page)
    expect(page.locator('.discards tr[data-discard="4p"]')).to_have_class(re.compile("chosen"))
    page.go_back()
    page.go_back()
    check_ready_hand(page)


def test_typing_updates_tiles_and_shows_errors_inline(desktop_page):
    page = desktop_page
    page.goto(page.base + "/")
    box = page.locator("#hand-text")
    box.fill("4556p 123s 789s 中中中")
    check_ready_hand(page)
    expect(page.locator("#hand-view .tile-button")).to_have_count(13)
    expect(box).to_be_focused()
    box.fill("4556p123s789sZZQ")
    expect(page.locator("#hand-error")).to_contain_text("Q")
    page.get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(box).to_have_value("4556p123789sZZZ")  # the last hand the URL held survives the language switch
    expect(page.locator("#results .az-shanten")).to_have_text("ready (听牌)")


def test_situation_toggles_and_no_fifth_copy(page):
    page.goto(page.base + "/?hand=4556p123789sZZZ&visible=Z")
    page.locator('label.az-chip:has(input[value="liang_dao"])').click()
    both = fan("ka_wu_xing").multiplier("standard") * fan("liang_dao").multiplier("standard")
    expect(read_wait(page, "5p").locator(".az-total").first).to_have_text(f"×{both}")
    assert "situation=liang_dao" in page.url
    expect(page.locator("#add-Z")).to_be_disabled()


def test_without_javascript_the_plain_form_works(nojs_page):
    page = nojs_page
    page.goto(page.base + "/")
    for tile in HAND:
        page.locator(f"#add-{tile}").click()
    check_ready_hand(page)
    assert "hand=4556p123789sZZZ" in page.url
    page.locator("#hand-text").fill("4556p123s789sZZZ8p")
    page.get_by_role("button", name="牌理分析").click()
    check_discard_table(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling on a small phone
    page.locator("#rules").select_option("shiyan")
    page.get_by_role("button", name="牌理分析").click()
    assert "rules=shiyan" in page.url
    expect(page.locator(".discards tr.best .num")).to_have_text("16")


def test_meld_builder_and_visible_picker(page):
    page.goto(page.base + "/?hand=46p11s")
    page.locator("label.az-mode", has_text="碰").click()
    expect(page.locator("#add-5p")).to_be_enabled()
    page.locator("#add-5p").click()
    expect(page.locator("#hand-text")).to_have_value("46p11s[555p]")
    expect(page.locator('input[name="to"][value="hand"]')).to_be_checked()  # back to adding single tiles
    page.locator("label.az-mode", has_text="明杠").click()
    expect(page.locator("#add-5p")).to_be_disabled()  # only one 5筒 left: no kong of it
    page.locator("#add-F").click()
    expect(page.locator("#hand-text")).to_have_value("46p11s[555p][FFFF]")
    page.locator("#visible-picker summary").click()
    page.locator('#visible-view button[name="add_visible"][value="5p"]').click()
    expect(page.locator("#visible-text")).to_have_value("5p")
    expect(page.locator("#visible-picker")).to_have_attribute("open", "")
    expect(page.locator("#add-5p")).to_be_disabled()  # the fourth 5筒 is seen now
    page.locator(".az-meld").first.click()
    expect(page.locator("#hand-text")).to_have_value("46p11s[FFFF]")
    tap_hand(page, ["B", "B", "B"])
    page.locator("label.az-mode", has_text="碰").click()
    page.locator("#add-Z").click()
    expect(page.locator("#hand-text")).to_have_value("46p11sBBB[FFFF][ZZZ]")
    wait = read_wait(page, "5p")
    expect(wait.locator(".az-left")).to_have_text("剩 3 张")


def test_back_after_typing_a_fourteenth_tile_shows_the_hand_of_the_url(page):
    page.goto(page.base + "/analyze/?hand=4556p123789sZZZ")
    expect(page.locator(".az-count strong")).to_have_text("13")
    page.locator("#hand-text").press("End")
    page.locator("#hand-text").press_sequentially("3p", delay=40)
    expect(page).to_have_url(re.compile(r"hand=34556p123789sZZZ$"))  # htmx replaced the URL as the 14th tile came
    expect(page.locator(".az-count strong")).to_have_text("14")
    page.locator(".discards tbody tr a").first.click()
    expect(page).to_have_url(re.compile(r"discard="))
    page.go_back()
    expect(page).to_have_url(re.compile(r"hand=34556p123789sZZZ$"))
    typed = page.input_value("#hand-text")
    assert typed == "4556p123789sZZZ3p"  # the 14 tiles as typed, not the 13 the page was drawn with
    expect(page.locator(".az-count strong")).to_have_text("14")


def test_thirteen_taps_at_once_all_count_and_the_page_says_it_is_busy(page):
    page.goto(page.base + "/")
    busy = tap_at_once(page, [f"add-{t}" for t in HAND])
    assert busy == {"shown": True, "text": "处理中… 还有 12 次点按在排队", "aria": "true"}  # the first tap's answer is awaited
    expect(page.locator(".az-count strong")).to_have_text("13")
    expect(page.locator("#hand-text")).to_have_value("4556p123789sZZZ")
    check_ready_hand(page)
    expect(page.locator("#az-busy")).to_be_hidden()
    expect(page.locator("#app")).to_have_attribute("aria-busy", "false")
    assert "hand=4556p123789sZZZ" in page.url


def test_fast_taps_keep_their_order_across_modes(page):
    page.goto(page.base + "/?hand=46p11s")
    # 碰 5筒, three 白 to the hand, 碰 红中 again while the page still shows 碰 from the first tap
    tap_at_once(page, ["to-pong", "add-5p", "add-B", "add-B", "add-B", "to-pong", "add-Z"])
    expect(page.locator("#hand-text")).to_have_value("46p11sBBB[555p][ZZZ]")
    expect(page.locator("#az-busy")).to_be_hidden()
    # then as fast as Playwright taps, each on the page as it is then: a 14th tile, the 碰 removed, two tiles
    for selector in ("#add-1p", "#meld-1", "#add-9s", "#add-F"):
        page.locator(selector).click()
    expect(page.locator("#hand-text")).to_have_value("146p119sFBBB[ZZZ]")
    expect(page.locator(".az-count strong")).to_have_text("13")
    expect(page.locator("#az-busy")).to_be_hidden()


def test_a_tap_that_gets_no_answer_says_so_and_the_taps_behind_it_wait_for_the_player(page):
    page.goto(page.base + "/?hand=46p11s")
    page.route(lambda url: "add=9s" in url, lambda route: route.abort())  # the connection drops for this one tap
    tap_at_once(page, ["add-1p", "add-9s", "add-F"])
    expect(page.locator("#az-busy")).to_have_text("服务器没有回应：页面显示的是上一次的结果。请再点一次。")
    expect(page.locator("#hand-text")).to_have_value("146p11s")  # not 发 without the 九条 before it
    page.unroute_all()
    page.locator("#add-9s").click()
    expect(page.locator("#hand-text")).to_have_value("146p119s")
    expect(page.locator("#az-busy")).to_be_hidden()

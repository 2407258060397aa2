"""The analyzer by keyboard in Chromium: focus stays where the player was after every htmx swap,
and moves to the next tile when a tile's last copy is used."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled


def focused_id(page) -> str:
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def press(page, key: str, count: int = 1) -> None:
    """Press a key on the focused control, waiting for each htmx swap to settle."""
    for _ in range(count):
        with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
            page.keyboard.press(key)
        htmx_settled(page)


def test_tile_presses_keep_focus_and_the_last_copy_moves_it_on(page):
    page.goto(page.base + "/")
    page.focus("#add-4p")
    press(page, "Enter")
    expect(page.locator(".az-count strong")).to_have_text("1")
    assert focused_id(page) == "add-4p"
    press(page, "Enter", 3)
    expect(page.locator(".az-count strong")).to_have_text("4")
    expect(page.locator("#add-4p")).to_be_disabled()
    assert focused_id(page) == "add-5p"  # the fourth 4筒 is used: on to the next tile
    press(page, "Enter")
    assert focused_id(page) == "add-5p"
    page.focus("#hand-2")
    press(page, "Enter")  # take a 4筒 back out of the hand
    expect(page.locator(".az-count strong")).to_have_text("4")
    assert focused_id(page) == "hand-2"


def test_every_control_keeps_focus_across_the_swap(page):
    page.goto(page.base + "/?hand=4556p123789sZZZ")
    page.focus("#to-hand")
    press(page, "ArrowRight")  # the radio group moves to 碰
    expect(page.locator("#to-pong")).to_be_checked()
    assert focused_id(page) == "to-pong"
    page.focus("#situation-liang_dao")
    press(page, "Space")
    expect(page.locator("#situation-liang_dao")).to_be_checked()
    assert focused_id(page) == "situation-liang_dao"
    page.locator("#rule-options summary").click()
    page.focus("#option-rob_kong")
    press(page, "Space")
    assert focused_id(page) == "option-rob_kong"
    page.focus("#random-13")
    press(page, "Enter")
    assert focused_id(page) == "random-13"
    page.focus("#clear")
    press(page, "Enter")
    assert focused_id(page) == "clear"
    page.focus("#example-5")
    press(page, "Enter")  # a 14-tile example: the discard table
    expect(page.locator(".discards")).to_be_visible()
    assert focused_id(page) == "results"  # the example link is gone: focus goes to the answer


def test_discard_links_and_a_full_hand(page):
    page.goto(page.base + "/?hand=4556p123789sZZZ")
    page.focus("#add-8p")
    press(page, "Enter")  # the 14th tile: every palette tile is off now
    expect(page.locator("#palette-full")).to_be_visible()
    assert focused_id(page) == "palette-full"
    page.focus("#discard-4p")
    press(page, "Enter")
    expect(page.locator('.discards tr[data-discard="4p"] a')).to_have_attribute("aria-current", "true")
    assert focused_id(page) == "discard-4p"


def test_building_a_hand_by_keyboard_takes_a_few_dozen_key_presses(page):
    page.goto(page.base + "/")
    page.focus("#add-1p")
    presses = 0
    order = [t["value"] for t in page.eval_on_selector_all("#palette .az-pal", "els => els.map(e => ({value: e.value}))")]
    at = 0
    for tile in ["4p", "5p", "5p", "6p", "1s", "2s", "3s", "7s", "8s", "9s", "Z", "Z", "Z"]:
        while order[at] != tile:
            page.keyboard.press("Tab")
            presses += 1
            at += 1
        assert focused_id(page) == f"add-{tile}"
        press(page, "Enter")
        presses += 1
    expect(page.locator("#hand-text")).to_have_value("4556p123789sZZZ")
    assert presses <= 40, presses  # 494 when every press threw focus back to the page top

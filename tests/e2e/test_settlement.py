"""Settlement in a phone-sized browser: live results with htmx, and a score sheet from start to CSV link."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import open_page, shot

pytestmark = pytest.mark.django_db(transaction=True)


def _self_draw_by_the_first_player(page):
    """Fill the hand form: 自摸 by player 1 with a 卡五星 (×2, +4)."""
    page.check("#id_result_1")
    page.select_option("#id_winner", "0")
    page.fill("#id_hand", "4556p123s789sZZZ")
    page.fill("#id_tile", "5p")


def test_calculator_updates_the_result_as_the_hand_is_typed(page):
    page.goto(page.base + "/settle/")
    page.fill("#id_name_0", "老王")
    page.check("#id_result_1")  # 自摸
    page.select_option("#id_winner", "0")
    assert page.locator("#id_winner option[value='0']").inner_text() == "老王"  # names follow into the pickers
    page.fill("#id_hand", "4556p123s789sZZZ")
    page.fill("#id_tile", "5p")
    page.wait_for_selector("#result .st-payments")  # no submit: htmx settled it
    assert page.locator("#result .st-net.up strong").inner_text() == "+4"
    assert page.locator(".st-netbar").is_visible()  # nets pinned at the bottom of a phone screen
    page.fill("#id_tile", "9p")
    page.wait_for_selector("#result .st-error")
    assert "九筒" in page.locator("#result .st-error").inner_text()  # the tile by its name


def test_score_sheet_on_a_phone(page):
    page.goto(page.base + "/settle/sheets/")
    page.fill("#id_name_0", "老王")
    page.click("button.primary")
    page.click("text=记一局")
    _self_draw_by_the_first_player(page)
    page.click("button[value=save]")
    page.wait_for_selector("table.st-sheet")
    assert page.locator("#totals .st-net.up strong").inner_text() == "+4"
    assert page.locator("a[href$='.csv']").count() == 1


def test_the_new_sheet_dealer_picker_follows_the_typed_names(page):
    page.goto(page.base + "/settle/sheets/")
    page.fill("#id_name_1", "小李")
    assert page.locator("#id_first_dealer option[value='1']").inner_text() == "小李"
    page.select_option("#id_first_dealer", "1")
    page.click("button.primary")
    page.wait_for_selector("text=记一局")
    from settlement.models import ScoreSheet

    sheet = ScoreSheet.objects.get()
    assert sheet.players[1] == "小李" and sheet.first_dealer == 1


def test_switching_language_keeps_a_filled_settlement_form(page):
    page.goto(page.base + "/settle/")
    page.fill("#id_name_0", "老王")
    _self_draw_by_the_first_player(page)
    page.select_option("#id_piao_2", "2")
    page.wait_for_selector("#result .st-payments")
    page.locator("details.menu summary").click()  # on a phone the language switch is in the ☰ menu
    page.locator("details.menu").get_by_role("button", name="English").click()
    page.wait_for_selector("html[lang=en]")
    assert page.input_value("#id_name_0") == "老王" and page.input_value("#id_hand") == "4556p123s789sZZZ"
    assert page.input_value("#id_tile") == "5p" and page.input_value("#id_piao_2") == "2" and page.is_checked("#id_result_1")
    assert page.locator("#id_winner option[value='0']").inner_text() == "老王"
    page.wait_for_selector("#result .st-payments")  # settled again, now in English
    assert "self-draw" in page.locator("#result").inner_text()
    page.reload()  # kept once, for the switch only
    assert page.input_value("#id_hand") == ""


def test_a_new_hand_shows_the_piao_it_keeps(page):
    page.goto(page.base + "/settle/sheets/")
    page.click("button.primary")
    page.click("text=记一局")
    _self_draw_by_the_first_player(page)
    page.select_option("#id_piao_1", "5")
    page.click("button[value=save]")
    page.click("text=记一局")
    note = page.locator(".st-carried")
    assert note.is_visible() and "漂沿用第 1 局" in note.inner_text() and "乙 5" in note.inner_text()
    assert page.input_value("#id_piao_1") == "5"


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_calculator_stays_phone_wide_after_settling(browser, live_server, language):
    """Issue 38 item 5: at 390 px the page widened to 444 px once the result came (the winner's 14 tiles on one line widened the grid, players' boxes and all)."""
    with open_page(browser, live_server, 390, 844, language=language) as page:
        page.goto(page.base + "/settle/")
        _self_draw_by_the_first_player(page)
        page.wait_for_selector("#result .st-payments")  # the live result (htmx)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator(".st-actions button.primary").click()  # 结算: the form posted, the page drawn again
        page.wait_for_selector("#result .st-payments")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        tiles = page.locator("#result .st-tiles img.tile")
        assert tiles.count() == 14 and page.locator("#result .st-tiles .win img.tile").count() == 1  # 13 tiles and the one it won on
        assert all(box["x"] + box["width"] <= 390 for box in (tiles.nth(i).bounding_box() for i in range(tiles.count())))
        grid = page.locator(".st-player-grid").bounding_box()
        assert grid["x"] + grid["width"] <= 390
        shot(page, f"settle-{language}-390")

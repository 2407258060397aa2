"""Settlement in a phone-sized browser: live results with htmx, and a score sheet from start to CSV link."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_calculator_updates_the_result_as_the_hand_is_typed(page):
    page.goto(page.base + "/settle/")
    page.fill("#id_name_0", "老王")
    page.check("#id_result_1")                       # 自摸
    page.select_option("#id_winner", "0")
    assert page.locator("#id_winner option[value='0']").inner_text() == "老王"   # names follow into the pickers
    page.fill("#id_hand", "4556p123s789sZZZ")
    page.fill("#id_tile", "5p")
    page.wait_for_selector("#result .st-payments")   # no submit: htmx settled it
    assert page.locator("#result .st-net.up strong").inner_text() == "+4"
    assert page.locator(".st-netbar").is_visible()   # nets pinned at the bottom of a phone screen
    page.fill("#id_tile", "9p")
    page.wait_for_selector("#result .st-error")
    assert "9p" in page.locator("#result .st-error").inner_text()


def test_score_sheet_on_a_phone(page):
    page.goto(page.base + "/settle/sheets/")
    page.fill("#id_name_0", "老王")
    page.click("button.primary")
    page.click("text=记一局")
    page.check("#id_result_1")
    page.select_option("#id_winner", "0")
    page.fill("#id_hand", "4556p123s789sZZZ")
    page.fill("#id_tile", "5p")
    page.click("button[value=save]")
    page.wait_for_selector("table.st-sheet")
    assert page.locator("#totals .st-net.up strong").inner_text() == "+4"
    assert page.locator("a[href$='.csv']").count() == 1

"""The calculator and a score sheet under a town, in a browser: the rules bring the fields they need, the worked
examples settle to town-rules.md §5's nets, and the pages at 390 and 1280 px in Chinese and English (KWX_SHOTS)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.models import Player
from kwx.rules import PRESETS
from settlement.forms import HandForm, calculator_fields
from settlement.models import ScoreSheet
from settlement.services import add_hand
from tests.e2e.conftest import htmx_settled, open_page, shot
from tests.towns import NAMES, TOWNS

pytestmark = pytest.mark.django_db(transaction=True)

CASES = {c["id"]: c for c in TOWNS["cases"]}
SHEET_HANDS = ("W5", "W6", "W7", "W17")
"""孝感's worked examples, played as one game night."""


FITS = "(selector) => [...document.querySelectorAll(selector)].every((el) => el.scrollWidth <= el.clientWidth)"


def _nets(page) -> list[int]:
    return [int(t) for t in page.locator("#result .st-nets .st-net strong").all_inner_texts()]


def _last_answer_in(page, nets: list[int]) -> None:
    """Wait (20 s at most) for the result of the form as filled: the form answers each change as it comes (typing after 400 ms),
    and a ready result from before the last change may show first. A wrong result still fails, on the assertion after this."""
    try:
        page.wait_for_function(NETS_ARE, arg=nets, timeout=20_000)
    except PlaywrightTimeoutError:
        pass  # the caller's assertion names the difference


NETS_ARE = "want => JSON.stringify([...document.querySelectorAll('#result .st-nets .st-net strong')].map(e => parseInt(e.textContent))) === JSON.stringify(want)"


def test_choosing_a_town_brings_the_fields_its_rules_need(page):
    page.goto(page.base + "/settle/")
    assert page.locator("#id_hands_0").count() == 0 and page.locator("#id_opt_shu_kan").is_hidden()  # 通用: no 查大叫, 数坎 folded away
    page.select_option("#id_rules", "xiaogan")
    page.wait_for_selector("#st-rules .st-switches #id_opt_shu_kan")  # 孝感's room switches, the calculator re-rendered
    assert page.input_value("#id_opt_cap") == "16"
    page.check("#id_result_0")  # 荒庄
    w7 = calculator_fields(CASES["W7"]["request"], NAMES)
    for i in range(3):
        page.fill(f"#id_name_{i}", NAMES[i])
        page.fill(f"#id_hands_{i}", w7[f"hands_{i}"])
    page.check("#id_liang_0")
    page.wait_for_selector("#result .st-ready")
    _last_answer_in(page, CASES["W7"]["expect"]["nets"])
    assert _nets(page) == CASES["W7"]["expect"]["nets"]
    assert page.locator("#result .st-ready li").count() == 3
    page.select_option("#id_rules", "suizhou")  # 独马: asked only for a declared winner's self-draw
    page.wait_for_selector("#id_horses", state="attached")
    htmx_settled(page)  # the swapped-in fields listen for changes once they have settled
    page.check("#id_result_1")
    page.select_option("#id_winner", "0")
    page.uncheck("#id_liang_0")
    assert page.locator("#id_horses").is_hidden()
    page.check("#id_liang_0")
    assert page.locator("#id_horses").is_visible()
    assert page.locator("#id_hands_0").is_hidden()  # 随州 plays 查大叫 too, but only a drawn hand asks for the hands
    htmx_settled(page)
    page.select_option("#id_opt_mai_ma", "none")  # a room switch: no horses at all
    page.wait_for_selector("#id_horses", state="detached")
    assert "（改）" in page.locator("#st-rules legend").inner_text()


def test_without_javascript_a_town_chosen_shows_its_fields_after_settle(browser, live_server):
    with open_page(browser, live_server, 390, 844, javascript=False) as page:
        page.goto(page.base + "/settle/")
        page.select_option("#id_rules", "shiyan_town")
        page.check("#id_result_0")  # 荒庄
        page.click("button.primary")
        page.wait_for_selector("#id_dice_0")  # 上楼: the dice are asked
        assert page.input_value("#id_rules") == "shiyan_town" and page.locator("#id_opt_shang_lou").is_visible()
        assert "上楼" in page.locator("#result .st-error").inner_text()  # the engine asks for the dice
        assert page.locator("#id_hands_0").is_visible()  # and a drawn hand under 查大叫 asks for the three hands


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("case", ["W7", "W12", "W10", "W14"])
def test_worked_examples_in_the_calculator(browser, live_server, language, case):
    """Each example settled at 390 px, then the same page laid out again at 1280 px: the nets, and nothing overflows at either."""
    with open_page(browser, live_server, 390, 900, language=language) as page:
        page.goto(page.base + "/settle/?" + urlencode(calculator_fields(CASES[case]["request"], NAMES), doseq=True))
        page.wait_for_selector("#result .st-payments")
        assert _nets(page) == CASES[case]["expect"]["nets"]
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            assert page.evaluate(FITS, "#st-rules, .st-result-fields, .st-payments, .st-ready"), width  # the town's fields and words overflow nothing
            shot(page, f"settle-{case}-{CASES[case]['request']['rules']}-{width}-{language}")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_sheet_of_several_hands_under_a_town(browser, live_server, width, language):
    with open_page(browser, live_server, width, 900, language=language) as page:
        page.goto(page.base + "/settle/sheets/")
        page.select_option("#id_rules", "xiaogan")
        page.wait_for_selector("#st-rules #id_opt_shu_kan")
        page.select_option("#id_opt_dui_liang_dui_fan", "true")
        for i in range(3):
            page.fill(f"#id_name_{i}", NAMES[i])
        page.click("button.primary")
        page.wait_for_url("**/settle/sheets/*/")
        sheet = ScoreSheet.objects.get()
        assert sheet.rules == "xiaogan" and sheet.options["dui_liang_dui_fan"] is True and len(sheet.options) == len(PRESETS["xiaogan"].values.as_dict())
        for key in SHEET_HANDS:  # W6 is 对亮对番; the others are the same under it (no seat pays a declared winner there)
            form = HandForm(calculator_fields(CASES[key]["request"], NAMES), names=list(NAMES), rules=sheet.rule_set)
            assert form.is_valid(), form.errors
            add_hand(sheet=sheet, data=form.to_data())
        page.reload()
        totals = [int(t) for t in page.locator("#totals .st-net strong").all_inner_texts()]
        assert totals == [sum(CASES[k]["expect"]["nets"][i] for k in SHEET_HANDS) for i in range(3)]
        assert ("孝感（改）" if language == "zh-hans" else "Xiaogan (changed)") in page.locator("main").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, f"sheet-xiaogan-{width}-{language}")
        page.click("text=记一局" if language == "zh-hans" else "text=Add a hand")
        page.wait_for_selector("#id_liang_0")
        shot(page, f"sheet-hand-xiaogan-{width}-{language}")
    assert Player.objects.count() == 1


def test_switching_language_keeps_a_town_calculation(page):
    page.goto(page.base + "/settle/")  # drawn under 通用; 孝感 is chosen on the page
    page.select_option("#id_rules", "xiaogan")
    page.wait_for_selector("#id_hands_0", state="attached")
    page.check("#id_result_0")
    w7 = calculator_fields(CASES["W7"]["request"], NAMES)
    for i in range(3):
        page.fill(f"#id_name_{i}", NAMES[i])
        page.fill(f"#id_hands_{i}", w7[f"hands_{i}"])
    page.check("#id_liang_0")
    page.wait_for_selector("#result .st-ready")
    page.locator("details.menu summary").click()
    page.locator("details.menu").get_by_role("button", name="English").click()
    page.wait_for_selector("html[lang=en]")
    page.wait_for_selector("#result .st-ready")  # 孝感 again, its three hands drawn and filled in, settled in English
    assert page.input_value("#id_rules") == "xiaogan" and page.input_value("#id_hands_1") == CASES["W7"]["request"]["players"][1]["hand"]
    assert _nets(page) == CASES["W7"]["expect"]["nets"] and "rank 10" in page.locator("#result").inner_text()

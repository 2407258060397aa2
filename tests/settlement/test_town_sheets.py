"""A score sheet under a town: it stores its preset and every option, so a later change to a preset never changes it;
sheets from before keep their figures; its pages name the rules ("孝感（改）") and its CSV writes them."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import replace

import pytest

from accounts.models import Player
from kwx.rules import OPTION_KEYS, PRESETS, Preset, add_preset, remove_preset, stored
from kwx.table.settlement import parse_input, settle
from settlement.forms import HandForm, calculator_fields
from settlement.models import ScoreSheet, SheetHand
from settlement.selectors import sheet_table
from settlement.services import add_hand, create_sheet, full_input
from settlement.text import option_text
from tests.towns import NAMES, TOWNS

pytestmark = pytest.mark.django_db

CASES = {c["id"]: c for c in TOWNS["cases"]}


def _hand(case: str, sheet: ScoreSheet) -> dict:
    """A worked example as the sheet's hand form stores it."""
    form = HandForm(calculator_fields(CASES[case]["request"], NAMES), names=list(NAMES), rules=sheet.rule_set)
    assert form.is_valid(), form.errors
    return form.to_data()


def test_a_town_sheet_stores_every_option_with_its_switches():
    options = PRESETS["xiaogan"].switch(PRESETS["xiaogan"].values, "peng_peng_hu_fan", 2)
    sheet = create_sheet(player=Player.objects.create(), players=list(NAMES), rules="xiaogan", options=options)
    assert set(sheet.options) == set(OPTION_KEYS) and sheet.options["peng_peng_hu_fan"] == 2 and sheet.options["gang_shang_fan"] == 2  # coupled
    assert sheet.rule_set == options


def test_a_later_change_to_a_preset_never_changes_a_stored_sheet():
    town = Preset("testtown", "测试镇", "Test town", replace(PRESETS["xiaogan"].values, cap=16), room=("cap",))
    add_preset(town)
    try:
        sheet = create_sheet(player=Player.objects.create(), players=list(NAMES), rules="testtown", options=town.values)
        add_hand(sheet=sheet, data=_hand("W6", sheet) | {"liang_dao": [1, 0]})
        before = sheet_table(sheet).totals
        remove_preset("testtown")
        add_preset(replace(town, values=replace(town.values, cap=8, shu_kan=False)))  # the town's table is revised
        sheet.refresh_from_db()
        assert sheet_table(sheet).totals == before
        assert before != settle(parse_input(full_input(sheet, sheet.hands.get().data) | {"options": {}})).nets  # the revised preset would pay otherwise
    finally:
        remove_preset("testtown")


@pytest.mark.parametrize("case", ["W3", "W4", "W19", "W20"])
def test_a_sheet_from_before_the_towns_keeps_its_figures(case):
    request = CASES[case]["request"]
    sheet = ScoreSheet.objects.create(player=Player.objects.create(), players=list(NAMES), rules=request["rules"])  # as stored before: no options
    assert sheet.options == {} and sheet.rule_set == stored(request["rules"], {})
    SheetHand.objects.create(sheet=sheet, position=1, data=_hand(case, sheet))
    assert sheet_table(sheet).totals == tuple(CASES[case]["expect"]["nets"])


def _selected(page: str) -> dict[str, str]:
    """Each option select of a page and the value it shows."""
    return dict(re.findall(r'<select name="(opt_[a-z_0-9]+)"[^>]*>.*?<option value="([^"]*)" selected>', page, re.S))


def test_editing_a_sheet_keeps_its_own_options_while_its_preset_stays(client):
    town = Preset("testtown", "测试镇", "Test town", PRESETS["xiaogan"].values, room=("cap", "mai_ma"))
    add_preset(town)
    try:
        client.post("/settle/sheets/", SHEET | _options("testtown", mai_ma="six"))
        sheet = ScoreSheet.objects.get()
        remove_preset("testtown")
        add_preset(replace(town, values=replace(town.values, cap=8)))  # revised after the sheet began
        edit = f"/settle/sheets/{sheet.pk}/edit/"
        shown = _selected(client.get(edit).content.decode())
        assert shown["opt_cap"] == "16" and shown["opt_mai_ma"] == "six"  # the sheet's own, not the revised town's
        assert client.post(edit, SHEET | shown | {"rules": "testtown", "rules_shown": "testtown", "base": "2"}).status_code == 302
        sheet.refresh_from_db()
        assert sheet.base == 2 and sheet.rule_set == replace(town.values, mai_ma="six")
    finally:
        remove_preset("testtown")


# ---- the pages --------------------------------------------------------------------------------------


SHEET = {"name_0": NAMES[0], "name_1": NAMES[1], "name_2": NAMES[2], "base": "1", "first_dealer": "0", "title": ""}


def _options(rules: str, **changed: str) -> dict:
    fields = calculator_fields({"rules": rules}, NAMES)
    return {k: v for k, v in fields.items() if k.startswith("opt_") or k in ("rules", "rules_shown")} | {f"opt_{k}": v for k, v in changed.items()}


def test_a_sheet_started_under_a_town_with_a_switch(client):
    response = client.post("/settle/sheets/", SHEET | _options("xiaogan", dui_liang_dui_fan="true"))
    sheet = ScoreSheet.objects.get()
    assert response.status_code == 302 and sheet.rules == "xiaogan" and sheet.options["dui_liang_dui_fan"] is True
    for case in ("W5", "W6", "W7"):
        assert client.post(f"/settle/sheets/{sheet.pk}/hands/new/", calculator_fields(CASES[case]["request"], NAMES) | {"action": "save", "token": case}).status_code == 302
    page = client.get(f"/settle/sheets/{sheet.pk}/").content.decode()
    assert "孝感（改）" in page
    totals = [int(n) for n in re.findall(r'<div class="st-net[^"]*"><span>[^<]*(?:<span[^>]*>[^<]*</span>)?</span><strong>([+-]?\d+)</strong>', page)]
    assert totals == [sum(CASES[c]["expect"]["nets"][i] for c in ("W5", "W6", "W7")) for i in range(3)]
    assert "孝感（改）" in client.get("/settle/sheets/").content.decode()
    english = client.get(f"/settle/sheets/{sheet.pk}/hands/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Xiaogan (changed)" in english and 'name="hands_0"' in english


def test_the_csv_writes_the_town_and_every_option_off_its_legacy_value(client):
    client.post("/settle/sheets/", SHEET | _options("suizhou", cap="16"))
    sheet = ScoreSheet.objects.get()
    client.post(f"/settle/sheets/{sheet.pk}/hands/new/", calculator_fields(CASES["W12"]["request"], NAMES) | {"action": "save"})
    rows = list(csv.reader(io.StringIO(client.get(f"/settle/sheets/{sheet.pk}.csv").content.decode("utf-8-sig"))))
    rules = rows[rows.index([]) + 1 :]
    assert rules[0][:2] == ["规则", "随州（改）"] and rules[0][2:] == ["rules", "suizhou"]
    written = {row[2]: row[3] for row in rules[1:]}
    legacy = PRESETS["standard"].values
    assert written == {key: option_text(value) for key, value in sheet.rule_set.items() if value != legacy.value(key)}
    assert written["cap"] == "16" and written["mai_ma"] == "one" and "ka_wu_xing_fan" not in written  # 随州's 卡五星 is the legacy ×2
    assert [r[-3:] for r in rows[1:2]] == [[str(n) for n in CASES["W12"]["expect"]["nets"]]]


def test_a_town_chosen_without_javascript_shows_its_switches_before_the_sheet_starts(client):
    first = client.post("/settle/sheets/", SHEET | {"rules": "suizhou", "rules_shown": "standard"})
    assert first.status_code == 200 and not ScoreSheet.objects.exists()
    page = first.content.decode()
    assert "这是随州的房间选项" in page and '<input type="hidden" name="rules_shown" value="suizhou"' in page
    again = client.post("/settle/sheets/", SHEET | _options("suizhou"))
    assert again.status_code == 302 and ScoreSheet.objects.get().options["mai_ma"] == "one"


def test_a_legacy_preset_starts_at_once(client):
    assert client.post("/settle/sheets/", SHEET | {"rules": "xiangyang"}).status_code == 302  # no room switches to look at
    sheet = ScoreSheet.objects.get()
    assert sheet.rule_set == PRESETS["xiangyang"].values


def test_the_rules_part_of_a_sheet_form_renders_alone_for_htmx(client):
    body = client.post("/settle/sheets/", SHEET | {"rules": "shiyan_town", "rules_shown": "standard"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="st-rules").content.decode()
    assert body.lstrip().startswith('<fieldset class="card st-rules" id="st-rules"') and 'name="opt_shang_lou"' in body
    assert not ScoreSheet.objects.exists()


def test_a_new_calculation_starts_under_the_players_town():
    from accounts.models import Player
    from accounts.services import choose_rules
    from settlement.selectors import default_preset

    player = Player.objects.create()
    assert default_preset(player=player) == "standard"
    choose_rules(player=player, rules="xiaogan", options={})
    assert default_preset(player=Player.objects.get(pk=player.pk)) == "xiaogan"
    assert default_preset(player=None) == "standard"

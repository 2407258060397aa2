"""Settlement pages: the calculator, score sheets (owners, editing, CSV); services and selectors are in tests/settlement."""

from __future__ import annotations

import csv
import io
import re

import pytest

from kwx.hand.fans import fan
from kwx.hand.money import WIN_PARTS
from settlement.models import ScoreSheet

pytestmark = pytest.mark.django_db

KA_WU_XING = {"hand": "4556p123s789sZZZ", "tile": "5p"}
SELF_DRAW = {"piao": [0, 0, 0], "result": "self_draw", "winners": [{"player": 0, **KA_WU_XING}]}  # 0 +4
DISCARD = {"piao": [0, 0, 0], "result": "discard", "discarder": 2, "winners": [{"player": 1, **KA_WU_XING}]}  # 2 → 1: 2
DRAW = {"piao": [0, 0, 0], "result": "draw", "liang_dao": [1], "kongs": [{"who": 2, "type": "an_gang", "tile": "F"}]}
CALCULATOR = {
    "name_0": "老王",
    "name_1": "小李",
    "name_2": "阿张",
    "base": "1",
    "rules": "standard",
    "piao_0": "1",
    "piao_1": "2",
    "piao_2": "0",
    "liang_0": "on",
    "result": "discard",
    "winner": "0",
    "discarder": "2",
    "hand": "4556p123s789sZZZ",
    "tile": "5p",
    "kong_who_0": "1",
    "kong_type_0": "an_gang",
    "kong_tile_0": "F",
    **{f"kong_type_{i}": "an_gang" for i in (1, 2, 3)},
}


def hand_post(data: dict, **extra) -> dict:
    """A hand form POST body for a sheet (seats 0–2)."""
    body = {"piao_0": "0", "piao_1": "0", "piao_2": "0", **{f"kong_type_{i}": "an_gang" for i in range(4)}}
    return body | data | extra


# ---- the calculator page ------------------------------------------------------------------------


def test_calculator_without_javascript(client):
    assert client.get("/settle/").status_code == 200
    page = client.post("/settle/", CALCULATOR).content.decode()
    assert "<html" in page
    # 包胡 2 × (卡五星 ×2 · 亮倒 ×2) + 漂 1+0 = 9 from 阿张; 暗杠 发 2 from each to 小李
    value = fan("ka_wu_xing").multiplier("standard") * fan("liang_dao").multiplier("standard")
    factor = WIN_PARTS["bao_hu"]
    assert f"包胡 ×{value} × {factor} = {value * factor} · 漂 1+0 = 1" in page
    assert "+7" in page and "+4" in page and "-11" in page


def test_calculator_htmx_returns_only_the_result(client):
    response = client.post("/settle/", CALCULATOR, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "<html" not in body
    assert 'id="result"' in body and "-11" in body


def test_calculator_names_the_problem(client):
    body = client.post("/settle/", {**CALCULATOR, "tile": "9p"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "老王&#x27;s hand does not win on 9 of dots." in body


def _alert(body: str) -> str:
    """The message of the result's error card."""
    return re.search(r'class="card st-error" role="alert"><strong>[^<]*</strong><p>([^<]*)</p>', body).group(1)


def test_settlement_errors_name_tiles_in_the_pages_language(client):
    message = _alert(client.post("/settle/", {**CALCULATOR, "tile": "7p"}, HTTP_HX_REQUEST="true").content.decode())
    assert "七筒" in message and "7p" not in message
    kong = {**CALCULATOR, "kong_tile_0": "7p", "kong_type_0": "zhi_gang"}
    assert "七筒" in _alert(client.post("/settle/", kong, HTTP_HX_REQUEST="true").content.decode())


@pytest.mark.parametrize("hand, count", [("4556p123s789sZZZZ", 14), ("4556p123s789s", 10), ("4556p123s789sZZZ19s", 15)])
def test_a_winners_hand_of_the_wrong_size_gets_the_settlement_message(client, hand, count):
    body = client.post("/settle/", {**CALCULATOR, "hand": hand}, HTTP_HX_REQUEST="true").content.decode()
    message = _alert(body)
    assert "老王" in message and f"{count} 张" in message and "请填和牌前的 13 张" in message
    assert "看听牌" not in message  # the analyzer's "13 to see the waits, 14 to choose a discard" is no help here


def test_calculator_start_a_sheet_with_its_players(client):
    response = client.post("/settle/sheets/", CALCULATOR)
    sheet = ScoreSheet.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/settle/sheets/{sheet.pk}/"
    assert sheet.players == ["老王", "小李", "阿张"]


# ---- score sheet pages --------------------------------------------------------------------------


def _new_sheet(client) -> int:
    client.post("/settle/sheets/", {"name_0": "甲", "name_1": "乙", "name_2": "丙", "base": "1", "rules": "standard", "first_dealer": "0"})
    return ScoreSheet.objects.latest("id").pk


def test_sheet_create_add_edit_csv(client):
    sheet_id = _new_sheet(client)
    new = f"/settle/sheets/{sheet_id}/hands/new/"
    assert client.get(new).status_code == 200
    for i, hand in enumerate(
        [
            {"result": "self_draw", "winner": "0", **KA_WU_XING},
            {"result": "discard", "winner": "1", "discarder": "2", **KA_WU_XING},
            {"result": "draw", "liang_1": "on"},
        ]
    ):
        response = client.post(new, hand_post(hand, action="save", token=f"t{i}"))
        assert response.status_code == 302
    page = client.get(f"/settle/sheets/{sheet_id}/").content.decode()
    assert "+5" in page and "-3" in page
    first = ScoreSheet.objects.get(pk=sheet_id).hands.first()
    response = client.post(f"/settle/sheets/{sheet_id}/hands/{first.pk}/", hand_post({"result": "self_draw", "winner": "2", **KA_WU_XING}, action="save"))
    assert response.status_code == 302
    rows = list(csv.reader(io.StringIO(client.get(f"/settle/sheets/{sheet_id}.csv").content.decode("utf-8-sig"))))
    assert rows[0][-3:] == ["甲 累计", "乙 累计", "丙 累计"]
    assert [r[-3:] for r in rows[1:4]] == [["-2", "-2", "4"], ["-2", "0", "2"], ["-1", "-2", "3"]]
    table = rows[: rows.index([])]  # the hands, the totals and the next dealer; the rules follow after a blank row
    header, total, following = table[0], table[-2], table[-1]
    assert total[0] == "合计" and total[1:7] == [""] * 6 and total[-3:] == ["-1", "-2", "3"]  # totals under 累计 only
    assert following[0] == "下一手" and following[header.index("庄家")] in ("甲", "乙", "丙") and following[2:] == [""] * 8


def test_csv_cells_never_start_a_formula(client):
    names = ['=HYPERLINK("//e.io")', "+1", "@SUM(A1)"]
    client.post("/settle/sheets/", {"name_0": names[0], "name_1": names[1], "name_2": names[2], "base": "1", "rules": "standard", "first_dealer": "0"})
    sheet_id = ScoreSheet.objects.latest("id").pk
    client.post(f"/settle/sheets/{sheet_id}/hands/new/", hand_post({"result": "self_draw", "winner": "0", **KA_WU_XING}, action="save"))
    rows = list(csv.reader(io.StringIO(client.get(f"/settle/sheets/{sheet_id}.csv").content.decode("utf-8-sig"))))
    cells = [cell for row in rows for cell in row]
    assert any(cell.startswith("'=HYPERLINK") for cell in cells)
    texts = [cell for cell in cells if not cell.lstrip("-").isdecimal()]
    assert texts and not [cell for cell in texts if cell.startswith(("=", "+", "-", "@"))]
    assert [r[-3:] for r in rows[1:2]] == [["4", "-2", "-2"]]  # numbers, negative ones too, stay numbers


def test_hand_preview_does_not_save(client):
    sheet_id = _new_sheet(client)
    body = client.post(f"/settle/sheets/{sheet_id}/hands/new/", hand_post({"result": "self_draw", "winner": "0", **KA_WU_XING}, action="preview")).content.decode()
    assert "+4" in body
    assert ScoreSheet.objects.get(pk=sheet_id).hands.count() == 0


def test_another_player_gets_404(client, django_user_model):
    sheet_id = _new_sheet(client)
    client.post(f"/settle/sheets/{sheet_id}/hands/new/", hand_post({"result": "self_draw", "winner": "0", **KA_WU_XING}, action="save"))
    hand_id = ScoreSheet.objects.get(pk=sheet_id).hands.get().pk
    from django.test import Client

    other = Client()
    django_user_model.objects.create_user("li", password="x-pass-1234")
    other.login(username="li", password="x-pass-1234")
    for url in (f"/settle/sheets/{sheet_id}/", f"/settle/sheets/{sheet_id}.csv", f"/settle/sheets/{sheet_id}/hands/{hand_id}/", f"/settle/sheets/{sheet_id}/edit/"):
        assert other.get(url).status_code == 404
    assert other.post(f"/settle/sheets/{sheet_id}/hands/{hand_id}/delete/").status_code == 404
    assert other.post(f"/settle/sheets/{sheet_id}/delete/").status_code == 404
    assert ScoreSheet.objects.get(pk=sheet_id).hands.count() == 1
    assert f"/settle/sheets/{sheet_id}/" not in other.get("/settle/sheets/").content.decode()


def test_session_sheets_follow_the_visitor_into_their_account(client, django_user_model):
    sheet_id = _new_sheet(client)
    django_user_model.objects.create_user("wang", password="x-pass-1234")
    client.login(username="wang", password="x-pass-1234")
    assert client.get(f"/settle/sheets/{sheet_id}/").status_code == 200
    assert ScoreSheet.objects.get(pk=sheet_id).player.user.username == "wang"


def test_calculator_says_which_field_is_wrong(client):
    body = client.post("/settle/", {**CALCULATOR, "base": "0"}, HTTP_HX_REQUEST="true").content.decode()
    assert "底金" in body and 'role="alert"' in body


def test_a_missing_winner_or_kong_player_is_named(client):
    no_winner = {**CALCULATOR, "winner": ""}
    assert _alert(client.post("/settle/", no_winner, HTTP_HX_REQUEST="true").content.decode()) == "请选择和牌的人：老王, 小李, 阿张。"
    no_kong_player = {**CALCULATOR, "kong_who_0": "", "kong_tile_0": "F"}
    assert _alert(client.post("/settle/", no_kong_player, HTTP_HX_REQUEST="true").content.decode()).startswith("第 1 个杠：请选择开杠的人")
    no_kong_tile = {**CALCULATOR, "kong_who_0": "1", "kong_tile_0": ""}
    assert _alert(client.post("/settle/", no_kong_tile, HTTP_HX_REQUEST="true").content.decode()).startswith("第 1 个杠：杠的是哪张牌")


SHEET = {"name_0": "甲", "name_1": "乙", "name_2": "丙", "base": "1", "rules": "standard", "first_dealer": "0"}


@pytest.mark.parametrize("field, value", [("title", "长" * 61), ("first_dealer", "7"), ("rules", "nowhere"), ("base", "0")])
def test_sheet_forms_show_the_error_by_its_field(client, field, value):
    html = client.post("/settle/sheets/", {**SHEET, field: value}).content.decode()
    assert ScoreSheet.objects.count() == 0
    cell = re.search(rf'<label for="id_{field}">[^<]*</label>(.*?)</div>', html, re.S).group(1)
    assert 'class="errorlist' in cell, field
    sheet_id = _new_sheet(client)
    edited = client.post(f"/settle/sheets/{sheet_id}/edit/", {**SHEET, field: value}).content.decode()
    assert 'class="errorlist' in re.search(rf'<label for="id_{field}">[^<]*</label>(.*?)</div>', edited, re.S).group(1)


def test_the_dealer_picker_shows_the_typed_names_again_on_a_refused_form(client):
    html = client.post("/settle/sheets/", {**SHEET, "name_0": "老王", "title": "长" * 61}).content.decode()
    assert re.search(r'<option value="0"[^>]*>老王</option>', html.split('id="id_first_dealer"')[1])


def test_a_new_hand_says_it_keeps_the_last_hands_piao(client):
    sheet_id = _new_sheet(client)
    new = f"/settle/sheets/{sheet_id}/hands/new/"
    assert "st-carried" not in client.get(new).content.decode()  # all at 0: nothing to say
    client.post(new, hand_post({"result": "self_draw", "winner": "0", **KA_WU_XING}, piao_1="2", action="save", token="p1"))
    html = client.get(new).content.decode()
    assert "漂沿用第 1 局：甲 0 · 乙 2 · 丙 0。" in html
    assert re.search(r'name="piao_1"[^>]*>.*?<option value="2" selected>', html, re.S)


@pytest.mark.parametrize("token", ["t\x00", "x" * 37, "\u202e"])
def test_a_hand_form_token_that_the_form_never_sends_is_ignored_and_the_hand_is_saved(client, token):
    sheet_id = _new_sheet(client)
    new = f"/settle/sheets/{sheet_id}/hands/new/"
    response = client.post(new, hand_post({"result": "self_draw", "winner": "0", **KA_WU_XING}, action="save", token=token))
    assert response.status_code == 302
    (hand,) = ScoreSheet.objects.get(pk=sheet_id).hands.all()
    assert hand.token == ""

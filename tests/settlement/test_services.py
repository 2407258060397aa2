"""Settlement services and selectors: running totals and dealers, edits, one hand per form token, owners."""

from __future__ import annotations

import pytest

from accounts.models import Player
from kwx import EngineError
from settlement.models import ScoreSheet
from settlement.selectors import get_sheet, sheet_table, sheets_for
from settlement.services import add_hand, create_sheet, delete_hand, edit_hand, update_sheet

pytestmark = pytest.mark.django_db

KA_WU_XING = {"hand": "4556p123s789sZZZ", "tile": "5p"}
SELF_DRAW = {"piao": [0, 0, 0], "result": "self_draw", "winners": [{"player": 0, **KA_WU_XING}]}  # 0 +4
DISCARD = {"piao": [0, 0, 0], "result": "discard", "discarder": 2, "winners": [{"player": 1, **KA_WU_XING}]}  # 2 → 1: 2
DRAW = {"piao": [0, 0, 0], "result": "draw", "liang_dao": [1], "kongs": [{"who": 2, "type": "an_gang", "tile": "F"}]}


def test_sheet_table_running_totals_and_dealers():
    sheet = create_sheet(player=Player.objects.create(), players=["甲", "乙", "丙"], base=1, first_dealer=2)
    for data in (SELF_DRAW, DISCARD, DRAW):
        add_hand(sheet=sheet, data=data)
    table = sheet_table(sheet)
    assert [r.nets for r in table.rows] == [(4, -2, -2), (0, 2, -2), (1 - 2, -2 - 2, 1 + 4)]
    assert [r.totals for r in table.rows] == [(4, -2, -2), (4, 0, -4), (3, -4, 1)]
    assert [r.dealer for r in table.rows] == [2, 0, 1]  # first dealer, then the winners
    assert table.next_dealer == 1  # 荒庄: the dealer stays
    assert table.totals == (3, -4, 1)


def test_double_win_hands_the_deal_to_the_discarder():
    sheet = create_sheet(player=Player.objects.create(), players=["甲", "乙", "丙"])
    add_hand(sheet=sheet, data={"result": "discard", "discarder": 2, "winners": [{"player": 0, **KA_WU_XING}, {"player": 1, "hand": "46p111s222s333sFF", "tile": "5p"}]})
    assert sheet_table(sheet).next_dealer == 2


def test_edit_and_delete_make_the_totals_follow():
    sheet = create_sheet(player=Player.objects.create(), players=["甲", "乙", "丙"])
    first = add_hand(sheet=sheet, data=SELF_DRAW)
    add_hand(sheet=sheet, data=DISCARD)
    edit_hand(sheet=sheet, hand_id=first.pk, data={**SELF_DRAW, "winners": [{"player": 2, **KA_WU_XING}]})
    assert sheet_table(sheet).totals == (-2, -2 + 2, 4 - 2)
    delete_hand(sheet=sheet, hand_id=first.pk)
    assert sheet_table(sheet).totals == (0, 2, -2)


def test_a_hand_that_does_not_settle_is_not_saved():
    sheet = create_sheet(player=Player.objects.create(), players=["甲", "乙", "丙"])
    with pytest.raises(EngineError):
        add_hand(sheet=sheet, data={"result": "self_draw", "winners": [{"player": 0, "hand": "4556p123s789sZZZ", "tile": "9p"}]})
    assert sheet.hands.count() == 0


def test_the_same_form_token_adds_one_hand():
    sheet = create_sheet(player=Player.objects.create(), players=["甲", "乙", "丙"])
    assert add_hand(sheet=sheet, data=SELF_DRAW, token="t1").pk == add_hand(sheet=sheet, data=SELF_DRAW, token="t1").pk
    assert sheet.hands.count() == 1


def test_changing_the_base_scales_every_hand():
    sheet = create_sheet(player=Player.objects.create(), players=["甲", "乙", "丙"])
    add_hand(sheet=sheet, data=SELF_DRAW)
    update_sheet(sheet=sheet, players=["A", "B", "C"], base=5, rules="standard", first_dealer=0, title="")
    assert sheet_table(sheet).totals == (20, -10, -10)


def test_players_only_see_their_sheets(django_user_model):
    visitor, someone_else = Player.objects.create(), Player.objects.create()
    account = Player.objects.create(user=django_user_model.objects.create_user("wang", password="x-pass-1234"))
    mine = create_sheet(player=visitor, players=["甲", "乙", "丙"])
    assert get_sheet(visitor, mine.pk) == mine and list(sheets_for(visitor)) == [mine]
    assert get_sheet(someone_else, mine.pk) is None and get_sheet(account, mine.pk) is None and get_sheet(None, mine.pk) is None
    assert not sheets_for(None).exists()


def test_a_refused_setup_makes_no_player(client):
    with pytest.raises(EngineError):
        create_sheet(player=Player.objects.create, players=["甲", "乙", "丙"], base=0)
    sheet = {"name_0": "甲", "name_1": "甲", "name_2": "丙", "base": "1", "rules": "standard", "title": "", "first_dealer": "0"}
    response = client.post("/settle/sheets/", sheet)  # the form passes it, the engine refuses two players of one name
    assert response.status_code == 200 and "kwx_player" not in client.session
    assert not Player.objects.exists() and not ScoreSheet.objects.exists()

"""The town picker (/town/, ``{% town_picker %}``) and the analyzer under the player's town: a fresh analyzer starts from it, links keep the town, an explicit link wins."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from accounts.models import Player
from accounts.selectors import player_town
from kwx import build_hand
from kwx.hand.fans import SITUATIONAL_FANS
from kwx.hand.rules import make_rules
from kwx.hand.tiles import KIND_OF_ID
from kwx.rules import OPTION_BY_KEY, PRESETS, Preset, add_preset, remove_preset
from kwx.table.settlement import win_money

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def page(client: Client, url: str, **headers) -> str:
    response = client.get(url, follow=True, **headers)
    assert response.status_code == 200
    return response.content.decode()


def pick(client: Client, rules: str, **switches) -> Player:
    """Choose a town as a visitor does, with a plain form post; the visitor's player."""
    response = client.post("/town/", {"rules": rules, "shown": rules, **switches})
    assert response.status_code == 302
    return Player.objects.get(pk=client.session["kwx_player"])


def query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query)


# ---- the picker ------------------------------------------------------------------------------


def test_the_picker_lists_every_preset_legacy_ones_marked(client):
    html = page(client, "/town/")
    select = html.split('name="rules"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w+)"', select) == [k for k, p in PRESETS.items() if not p.legacy] + [k for k, p in PRESETS.items() if p.legacy]
    for preset in PRESETS.values():
        assert (f"{preset.name}（旧版）" if preset.legacy else f">{preset.name}<") in select
    assert "<optgroup" in select and "selected>通用（旧版）" in select


def test_a_plain_post_stores_the_town_and_goes_back(client):
    response = client.post("/town/", {"rules": "xiaogan", "shown": "standard", "next": "/learn/"})
    assert response.status_code == 302 and response["Location"] == "/learn/"
    player = Player.objects.get(pk=client.session["kwx_player"])
    assert player_town(player=player).rules == "xiaogan"
    assert client.post("/town/", {"rules": "xiaogan", "next": "https://evil.example/"})["Location"] == "/town/"
    html = page(client, "/town/")
    switches = html.split('class="town-switches"')[1].split("</fieldset>")[0]
    assert re.findall(r'id="option-(\w+)"', switches) == list(PRESETS["xiaogan"].room)  # the room switches, in order
    assert OPTION_BY_KEY["shu_kan"].name in switches


def test_a_switch_changed_shows_gai_and_the_header_names_the_town_everywhere(client):
    response = client.post("/town/", {"rules": "xiaogan", "shown": "xiaogan", "cap": "8", "shu_kan": ["0", "1"]}, **HTMX)
    assert response.status_code == 200 and response["HX-Trigger"] == "kwx:town"
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<form method="post" action="/town/"') and "孝感（改）" in fragment and "已保存" in fragment
    for url in ("/learn/", "/settle/", "/"):
        assert "孝感（改）" in page(client, url).split('class="site-header"')[1].split("</header>")[0]
    assert "Xiaogan (changed)" in page(client, "/learn/", **EN)


def test_a_bad_switch_is_named_not_stored(client):
    response = client.post("/town/", {"rules": "xiaogan", "shown": "xiaogan", "cap": "9"}, **HTMX)
    assert response.status_code == 400 and "cap" in response.content.decode()
    assert client.post("/town/", {"rules": "nowhere"}).status_code == 400


# ---- the analyzer under the town ----------------------------------------------------------------


def test_a_fresh_analyzer_starts_from_the_players_town_and_links_keep_it(client):
    pick(client, "xiaogan", cap="8")
    html = page(client, "/")
    assert 'value="xiaogan" selected' in html and "孝感（改）" in html.split('id="town-label"')[1][:80]
    typed = client.get("/?hand=4556p123789sZZZ&rules=xiaogan&shown=xiaogan&cap=8&shu_kan=0&shu_kan=1", HTTP_HX_TRIGGER_NAME="hand", **HTMX)
    assert query(typed["HX-Replace-Url"]) == {"hand": ["4556p123789sZZZ"], "rules": ["xiaogan"], "cap": ["8"]}
    assert client.get("/").status_code == 200  # the empty analyzer of the player's town is its canonical link already


def test_a_link_with_rules_or_a_hand_shows_what_it_says_whatever_the_players_town(client):
    pick(client, "xiaogan")
    standard = page(client, "/?hand=4556p123789sZZZ&rules=standard")
    assert 'value="standard" selected' in standard
    legacy_link = client.get("/?hand=4556p123789sZZZ")  # a link made before towns: the standard rules
    assert legacy_link.status_code == 200 and 'value="standard" selected' in legacy_link.content.decode()
    assert "坎" not in legacy_link.content.decode().split('data-tile="5p"')[1].split("</li>")[0]
    town = page(client, "/?hand=4556p123789sZZZ&rules=shiyan_town")
    assert 'value="shiyan_town" selected' in town and "十堰（地方规则）" in town


def test_a_visitor_who_never_chose_keeps_todays_links(client):
    assert client.get("/").status_code == 200
    response = client.get("/?hand=4556p123789sZZZ", HTTP_HX_TRIGGER_NAME="hand", **HTMX)
    assert response["HX-Replace-Url"] == "/?hand=4556p123789sZZZ"
    standard_again = client.get("/?rules=standard")
    assert standard_again.status_code == 302 and standard_again["Location"] == "/"


def test_the_form_turns_a_switch_with_its_coupling_and_a_new_preset_starts_fresh(client):
    coupled = client.get("/?hand=22223p345678sFF&rules=xiangyang_town&shown=xiangyang_town&si_gui_yi=winning_tile")
    assert query(coupled["Location"]) == {"hand": ["22223p345678sFF"], "rules": ["xiangyang_town"], "si_gui_yi": ["winning_tile"], "hai_di": ["none"]}  # GO-FR ties 海底 to 频道
    moved = client.get("/?hand=22223p345678sFF&rules=shiyan_town&shown=xiaogan&cap=16&shu_kan=0&shu_kan=1")
    assert query(moved["Location"]) == {"hand": ["22223p345678sFF"], "rules": ["shiyan_town"]}  # 孝感's switches stay behind
    kept = client.get("/?hand=22223p345678sFF&rules=xiaogan&shown=xiaogan&hai_di=lao_and_pao&cap=16")
    assert query(kept["Location"]) == {"hand": ["22223p345678sFF"], "rules": ["xiaogan"], "hai_di": ["lao_and_pao"]}  # an option no switch sets is kept
    assert 'name="hai_di" value="lao_and_pao"' in page(client, kept["Location"])


@pytest.mark.parametrize("rules", list(PRESETS))
def test_the_situation_toggles_are_those_the_town_counts(client, rules):
    html = page(client, f"/?hand=22223p345678sFF&rules={rules}")
    values = PRESETS[rules].values
    offered = re.findall(r'id="situation-(\w+)"', html)
    assert "hai_di_pao" in offered if values.hai_di == "lao_and_pao" else "hai_di_pao" not in offered
    assert ("hai_di_lao" in offered) == (values.hai_di != "none")
    for f in SITUATIONAL_FANS:
        if f.key in offered:
            assert f"{f.name} ×{f.multiplier(values)}" in html


def test_each_wait_shows_the_towns_money_and_extras(client):
    html = page(client, "/?hand=4556p123789sZZZ&rules=xiaogan&piao=1")
    wait = html.split('data-tile="5p"')[1].split("</li>")[0]
    hand, _ = build_hand("4556p123789sZZZ")
    money = win_money(hand, KIND_OF_ID["5p"], make_rules("xiaogan"), 1, 1)
    assert money.self_draw_each_declared is not None and money.discard_declared is not None
    strong = [int(n) for n in re.findall(r"<strong>(\d+)</strong>", wait.split('class="az-money"')[1])]
    assert strong == [money.self_draw, money.discard, money.bao_hu]
    line = wait.split('class="az-money"')[1]
    assert f"（亮倒的付款方付 {money.self_draw_each_declared}）" in line and "坎 2" in wait
    assert not money.is_bao_hu and "包胡 收" not in line and f"亮倒后点炮 收 <strong>{money.bao_hu}</strong>" in line  # 孝感: no 包胡
    horses = page(client, "/?hand=123p456p789p23sFF&rules=suizhou&situation=liang_dao")
    wait = horses.split('data-tile="1s"')[1].split("</li>")[0]
    assert "期望值" in wait and "马" in wait


def test_the_save_button_makes_the_links_rules_the_players_town(client):
    html = page(client, "/?hand=4556p123789sZZZ&rules=yicheng&cap=16")
    assert 'form="town-save"' in html and 'id="town-save"' in html
    fields = {name: unescape(value) for name, value in re.findall(r'<input type="hidden" form="town-save" name="(\w+)" value="([^"]*)"', html)}
    assert fields == {"rules": "yicheng", "shown": "yicheng", "next": "/?hand=4556p123789sZZZ&rules=yicheng&cap=16", "cap": "16"}
    response = client.post("/town/", fields)
    assert response.status_code == 302 and response["Location"].startswith("/?hand=4556p123789sZZZ&rules=yicheng")
    player = Player.objects.get(pk=client.session["kwx_player"])
    assert player_town(player=player).label() == "宜城（改）"
    assert 'form="town-save"' not in page(client, "/?hand=4556p123789sZZZ&rules=yicheng&cap=16")  # it is the town now


def test_the_save_button_says_what_differs_when_the_names_are_the_same(client):
    pick(client, "xiaogan", cap="8")
    other_switch = page(client, "/?hand=4556p123789sZZZ&rules=xiaogan&cap=8&dui_liang_dui_fan=1")
    assert "你的地方规则：孝感（改）" in other_switch and "把这些选项设为我的规则" in other_switch
    assert "设为我的规则：通用" in page(client, "/?hand=4556p123789sZZZ&rules=standard")


def test_a_seventh_town_is_data_the_picker_and_the_analyzer_use(client):
    jingshan = Preset("jingshan", "京山", "Jingshan", replace(PRESETS["xiaogan"].values, cap=8), room=("cap", "shu_kan"), note="测试的镇", note_en="a test town")
    add_preset(jingshan)
    try:
        assert '<option value="jingshan">京山</option>' in page(client, "/town/")
        pick(client, "jingshan", shu_kan="0")
        html = page(client, "/")
        assert 'value="jingshan" selected' in html and "京山（改）" in html and "测试的镇" in html
        wait = page(client, "/?hand=4556p123789sZZZ&rules=jingshan").split('data-tile="5p"')[1].split("</li>")[0]
        assert "坎 2" in wait and "×4" in wait  # 孝感's 卡五星 ×4 and 数坎, from the new preset's data
    finally:
        remove_preset("jingshan")

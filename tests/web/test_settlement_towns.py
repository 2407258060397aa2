"""The calculator under a town: town-rules.md §5's worked examples (W1–W20) typed into /settle/ as a player would,
the nets and payments it shows checked against the example, and each payment's words against the engine's."""

from __future__ import annotations

import html
import re
from collections import Counter

import pytest
from django.utils import translation

from kwx.rules import PRESETS
from kwx.table.settlement import settle_json
from settlement.forms import calculator_fields
from settlement.text import kind_text, payment_words
from tests.towns import NAMES, TOWNS, api_request

pytestmark = pytest.mark.django_db

WORKED = [c for c in TOWNS["cases"] if re.fullmatch(r"W\d+", c["id"])]


def shown_nets(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<div class="st-net[^"]*"><span>[^<]*</span><strong>([+-]?\d+)</strong>', page)]


def shown_payments(page: str) -> list[tuple[str, str, str, int, str]]:
    """Each payment the page lists: payer, payee, kind in words, amount, reasons in words."""
    rows = re.findall(
        r'<li class="st-kind-[a-z_]+"><span class="st-who">([^<]*) → ([^<]*) <span class="st-kind">([^<]*)</span></span><strong class="st-amt">(\d+)</strong><span class="st-why">([^<]*)</span></li>',
        page,
    )
    return [(payer, payee, kind, int(amount), html.unescape(why)) for payer, payee, kind, amount, why in rows]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("case", WORKED, ids=[c["id"] for c in WORKED])
def test_a_worked_example_through_the_calculator(client, case, language):
    page = client.post("/settle/", calculator_fields(case["request"], NAMES), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'role="alert"' not in page, re.findall(r"<p>([^<]*)</p>", page.split('role="alert"')[-1])[:1]
    expect = case["expect"]
    assert shown_nets(page) == expect["nets"]
    typed = case["request"] | ({"horses": "".join(case["request"]["horses"])} if "horses" in case["request"] else {})  # as typed in one box
    settlement = settle_json(api_request(typed))
    with translation.override(language):
        engine = Counter((NAMES[p.payer], NAMES[p.payee], kind_text(p), p.amount, " · ".join(payment_words(settlement, p))) for p in settlement.payments)
    assert Counter(shown_payments(page)) == engine
    assert Counter((payer, payee, amount) for payer, payee, _, amount, _ in shown_payments(page)) == Counter((NAMES[p["payer"]], NAMES[p["payee"]], p["amount"]) for p in expect["payments"])


# What §5 says of each example, in the words the page uses (Chinese): the steps of a payment's multiplier and its flat extras.
SECTION_5 = {
    "W2": ["包胡 ×4 × 2 = 8 · 漂 1+2 = 3"],
    "W5": ["自摸 ×4 = 4 · 漂 2+0 = 2 · 坎（数坎） 3 = 3", "自摸 ×4 × 2（付款方亮倒） = 8 · 漂 2+1 = 3 · 坎（数坎） 3 = 3"],
    "W6": ["点炮 ×8 × 2（对亮对番） = 16 · 坎（数坎） 2 = 2"],
    "W7": ["×4 × 2（付款方亮倒） = 8", "×8 = 8 · 坎（数坎） 2 = 2"],
    "W8": ["(×8 + ×8) → 封顶 ×8 = 8 · 漂 1+2 = 3 · 第三家的漂（包胡） 1+1 = 2"],
    "W10": ["自摸 ×2 × 2（上楼） = 4", "自摸 ×2 × 2（付款方亮倒） × 2（上楼） = 8"],
    "W12": ["自摸 ×2 = 2 · 马 七条: 7 = 7"],
    "W14": ["跑恰摸八 跑 1 + 恰 2 + 摸 1 + 八 4 = 8"],
    "W16": ["马 二筒 四筒 九筒 三条 七条 红中: 2 = 2"],
    "W17": ["明杠 红中 1 × 2（杠上杠） = 2"],
    "W18": ["(×4 + ×4) = 8 · 漂 2+1 = 3 · 第三家的漂（包胡） 2+0 = 2", "点炮 ×2 = 2 · 漂 0+1 = 1"],
}


@pytest.mark.parametrize("key", sorted(SECTION_5))
def test_the_words_say_what_section_5_says(client, key):
    case = next(c for c in WORKED if c["id"] == key)
    page = client.post("/settle/", calculator_fields(case["request"], NAMES)).content.decode()
    words = [why for *_, why in shown_payments(page)]
    for phrase in SECTION_5[key]:
        assert any(phrase in w for w in words), (phrase, words)


@pytest.mark.parametrize("key", ["W7", "W11", "W13"])
def test_a_drawn_hand_under_cha_da_jiao_shows_each_seats_best_wait_and_rank(client, key):
    case = next(c for c in WORKED if c["id"] == key)
    page = client.post("/settle/", calculator_fields(case["request"], NAMES), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    rows = [re.sub(r"\s+", " ", html.unescape(re.sub("<[^>]+>", " ", li))) for li in re.findall(r"<li><span class=\"st-who\">(.*?)</li>", page.split('class="st-ready"')[1].split("</ul>")[0], re.S)]
    assert len(rows) == 3
    from kwx.hand.tiles import KIND_OF_ID, TILE_NAMES_EN

    for winner in case["expect"]["winners"]:
        row = rows[winner["seat"]]
        assert row.startswith(NAMES[winner["seat"]]) and f"rank {winner['rank']}" in row
        assert f"best wait {TILE_NAMES_EN[KIND_OF_ID[winner['tile']]]}" in row
    ready = {w["seat"] for w in case["expect"]["winners"]}
    for seat in set(range(3)) - ready:
        assert "rank 0" in rows[seat] and "not ready" in rows[seat]


# ---- fields the rules use, and only those ----------------------------------------------------------


def _fields(html_text: str) -> set[str]:
    return set(re.findall(r'name="([a-z_0-9]+)"', html_text))


@pytest.mark.parametrize(
    ("rules", "asked", "not_asked"),
    [
        ("standard", set(), {"horses", "wall_left", "dice_0", "hands_0", "liang_first", "kong_held_1"}),
        ("xiaogan", {"hands_0", "hands_2", "kong_held_1"}, {"horses", "dice_0", "liang_first"}),
        ("suizhou", {"horses", "wall_left", "hands_1", "liang_first"}, {"dice_0"}),
        ("shiyan_town", {"dice_0", "dice_1", "hands_0"}, {"horses", "liang_first"}),
        ("yicheng", {"hands_0"}, {"horses", "dice_0"}),
    ],
)
def test_the_calculator_asks_what_the_rules_use(client, rules, asked, not_asked):
    page = client.post("/settle/", {"rules": rules, "rules_shown": "", "result": "self_draw"}).content.decode()
    names = _fields(page)
    assert asked <= names and not (not_asked & names)
    assert {f"opt_{key}" for key in PRESETS[rules].room} <= names


def test_a_room_switch_brings_its_field_and_the_name_shows_it_changed(client):
    body = calculator_fields({"rules": "xiaogan", "result": "draw"}, NAMES) | {"opt_mai_ma": "one"}
    page = client.post("/settle/", body).content.decode()
    assert "horses" in _fields(page)
    assert "孝感（改）" in page
    assert 'value="hai_di_pao"' not in page and 'value="hai_di_lao"' not in page  # 孝感 counts no 海底 at all: no box for it
    xiangyang = client.post("/settle/", calculator_fields({"rules": "xiangyang_town", "result": "discard"}, NAMES)).content.decode()
    assert 'value="hai_di_pao"' in xiangyang and 'value="hai_di_lao"' in xiangyang


def test_a_field_the_rules_or_the_result_do_not_use_is_ignored(client):
    w12 = next(c for c in WORKED if c["id"] == "W12")["request"]
    undeclared = calculator_fields(w12 | {"liang_dao": []}, NAMES) | {"horses": "7s"}  # horses typed, but 随州 buys them only on a declared self-draw
    page = client.post("/settle/", undeclared).content.decode()
    unbought = {k: v for k, v in w12.items() if k not in ("horses", "wall_left")} | {"liang_dao": []}
    assert 'role="alert"' not in page and shown_nets(page) == list(settle_json(api_request(unbought)).nets)
    standard = calculator_fields(next(c for c in WORKED if c["id"] == "W1")["request"], NAMES) | {"horses": "7s", "dice_0": "4", "dice_1": "4", "hands_0": "123p"}
    assert shown_nets(client.post("/settle/", standard).content.decode()) == [8, -3, -5]  # the rules use none of them


def test_piao_is_not_asked_when_the_rules_play_without_it(client):
    w5 = next(c for c in WORKED if c["id"] == "W5")["request"]
    page = client.post("/settle/", calculator_fields(w5, NAMES) | {"opt_piao_mode": "off"}).content.decode()  # 漂 2/0/1 still posted
    assert "piao_0" not in _fields(page)
    without = w5 | {"piao": [0, 0, 0], "options": {"piao_mode": "off"}}
    assert shown_nets(page) == list(settle_json(api_request(without)).nets) != list(settle_json(api_request(w5)).nets)


def test_changing_the_rules_with_htmx_renders_the_whole_calculator(client):
    response = client.post("/settle/", {"rules": "suizhou", "rules_shown": "standard", "result": "self_draw"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="st-calc")
    body = response.content.decode()
    assert body.lstrip().startswith('<div class="st-layout" id="st-calc">') and "<html" not in body
    assert 'name="horses"' in body and 'id="result"' in body and "房间选项" in body
    assert re.search(r'<select name="opt_mai_ma"[^>]*>.*?<option value="one" selected>', body, re.S)  # 随州's own 独马, not the old preset's


def test_without_javascript_a_new_preset_shows_its_own_switches(client):
    # the switches posted belong to the preset shown before (通用 has none): the new one's defaults are used and shown
    body = calculator_fields({"rules": "standard", "result": "self_draw"}, NAMES) | {"rules": "xiaogan"}
    page = client.post("/settle/", body).content.decode()
    assert re.search(r'<select name="opt_cap"[^>]*>.*?<option value="16" selected>', page, re.S)
    assert '<input type="hidden" name="rules_shown" value="xiaogan"' in page


def test_a_worked_example_opens_by_its_link(client):
    from urllib.parse import urlencode

    case = next(c for c in WORKED if c["id"] == "W14")
    page = client.get("/settle/?" + urlencode(calculator_fields(case["request"], NAMES), doseq=True)).content.decode()
    assert shown_nets(page) == case["expect"]["nets"]


def test_the_result_pills_are_results_a_player_picks(client):
    page = client.get("/settle/").content.decode()
    assert re.findall(r'name="result" value="([a-z_]+)"', page) == ["draw", "self_draw", "discard", "double", "rob_kong"]  # 包胡 follows from 亮倒 (its pill only ever failed)


def test_a_room_switch_sets_what_it_is_coupled_to_and_shows_it(client):
    fields = calculator_fields({"rules": "xiangyang_town", "result": "discard"}, NAMES)
    half = client.post("/settle/", fields | {"opt_si_gui_yi": "winning_tile"}).content.decode()  # 半频道: GO-FR's one switch also ends 海底
    assert re.search(r'<select name="opt_hai_di"[^>]*disabled[^>]*>.*?<option value="none" selected>', half, re.S)
    assert 'value="hai_di_pao"' not in half and 'value="hai_di_lao"' not in half
    full = client.post("/settle/", {k: v for k, v in fields.items() if k != "opt_hai_di"}).content.decode()  # back to 全频道 (a disabled select sends nothing)
    assert re.search(r'<select name="opt_hai_di"[^>]*disabled[^>]*>.*?<option value="lao_and_pao" selected>', full, re.S)
    assert 'value="hai_di_pao"' in full

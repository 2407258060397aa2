"""The town pages through the client: the comparison of every option under every town, one page per preset with its
rules and its worked examples, each example's figures the engine's settlement of its vector and the vector's nets."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from kwx.rules import LEGACY, OPTIONS, PRESETS, Preset, add_preset, remove_preset
from kwx.table.settlement import settle_json
from learn import towns as lt
from settlement.forms import HandForm, SetupForm, calculator_fields
from settlement.vectors import api_request
from tests.conftest import VECTORS
from tests.web.test_learn_pages import _get

LANGUAGES = ("zh-hans", "en")
VECTOR_CASES = {c["id"]: c for c in json.loads((VECTORS / "towns.json").read_text(encoding="utf-8"))["cases"]}
WORKED = [c for key, c in VECTOR_CASES.items() if re.fullmatch(r"W\d+", key)]


@pytest.fixture
def client(db):
    return Client()


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _element(page: str, tag: str, element_id: str) -> str:
    """The HTML of the element with this id (elements of that tag do not nest here)."""
    found = re.search(rf'<{tag}\b[^>]*\bid="{re.escape(element_id)}"[^>]*>.*?</{tag}>', page, flags=re.S)
    assert found, element_id
    return found.group(0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_comparison_has_every_option_as_a_row_and_every_town_as_a_column(client, lang):
    english = lang == "en"
    page = _get(client, "/learn/towns/", lang)
    columns = lt.compared_presets()
    header = re.findall(r'<th scope="col" id="col-([\w-]+)"', page)
    assert header == [p.key for p in columns]
    assert set(header) >= {k for k, p in PRESETS.items() if not p.legacy} | {"standard"}
    for option in OPTIONS:
        row = _element(page, "tr", f"opt-{option.key}")
        head = _text(re.search(r'<th scope="row".*?</th>', row, flags=re.S).group(0))
        assert option.name in head
        assert (option.meaning_en if english else option.meaning) in head
        assert str(lt.STRENGTHS[option.strength]) in head
        cells = re.findall(r'<td class="([^"]*)" data-preset="([\w-]+)">(.*?)</td>', row, flags=re.S)
        assert [c[1] for c in cells] == [p.key for p in columns], option.key
        for (css, _key, body), preset in zip(cells, columns):
            value = preset.values.value(option.key)
            assert re.search(r'<span class="val">(.*?)</span>', body).group(1) == html.escape(option.label(value, english))
            assert ('class="room"' in body) is (option.key in preset.room)
            assert ("differs" in css) is (value != LEGACY.value(option.key))
            for name in [lt.SOURCE_BY_KEY[k].name for k in lt.source_keys(preset.sources.get(option.key, ""))]:
                assert html.escape(name) in body


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_comparison_says_the_presets_follow_the_apps_and_that_tables_vary(client, lang):
    page = _text(_get(client, "/learn/towns/", lang))
    if lang == "en":
        assert "do not come from a written rule book" in page and "commercial apps" in page and "Local tables vary" in page
    else:
        assert "不是来自成文的规则书" in page and "商业应用" in page and "各地牌桌" in page
    for source in lt.SOURCES:
        assert source.name in page


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", list(PRESETS))
def test_each_preset_has_a_page_with_its_rules_room_switches_and_links(client, lang, key):
    english = lang == "en"
    preset = PRESETS[key]
    page = _get(client, f"/learn/towns/{key}/", lang)
    assert "/learn/towns/" in page and page.count("<h1>") == 1
    assert html.escape(preset.note_en if english else preset.note) in page
    listed = re.findall(r'<li id="opt-(\w+)">', page)
    assert listed == [o.key for o in OPTIONS if preset.values.value(o.key) != LEGACY.value(o.key)]
    for option_key in listed:
        item = _text(_element(page, "li", f"opt-{option_key}"))
        option = next(o for o in OPTIONS if o.key == option_key)
        assert option.label(preset.values.value(option_key), english) in item
        assert str(lt.STRENGTHS[option.strength]) in item
        assert ("可改" in item or "room switch" in item) is (option_key in preset.room)
    for switch in preset.room:
        assert next(o.name for o in OPTIONS if o.key == switch) in _text(_element(page, "section", "room"))
    for other in PRESETS:
        if other != key:
            assert f'href="/learn/towns/{other}/"' in page


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("case", WORKED, ids=lambda c: c["id"])
def test_each_worked_example_shows_the_engines_figures_and_the_vectors_nets(client, lang, case):
    page = _get(client, f"/learn/towns/{case['request']['rules']}/", lang)
    example = _element(page, "article", case["id"])
    nets = [(html.unescape(n), int(v)) for n, v in re.findall(r'<span class="net" data-player="([^"]+)" data-net="(-?\d+)">', example)]
    names = [n for n, _v in nets]
    engine = settle_json(api_request(case["request"], names))
    assert [v for _n, v in nets] == list(engine.nets) == case["expect"]["nets"]
    payments = [
        (html.unescape(a), html.unescape(b), int(c))
        for a, b, c in re.findall(r'<span class="payer">([^<]+)</span> → <span class="payee">([^<]+)</span></td><td class="num amount">(\d+)</td>', example)
    ]
    assert payments == [(names[p.payer], names[p.payee], p.amount) for p in engine.payments]
    assert sorted((names.index(a), names.index(b), n) for a, b, n in payments) == sorted((p["payer"], p["payee"], p["amount"]) for p in case["expect"]["payments"])
    figures = [int(f) for f in re.findall(r'<strong class="f">(\d+)</strong>', example)]
    expected = {w["seat"]: w["product"] for w in case["expect"]["winners"]}
    assert sorted(figures) == sorted(expected.values())
    assert html.escape(lt.calculator_link(case["request"])) in example
    assert ("/analyze/?hand=" in example) is bool(case["request"].get("winners") or case["request"].get("players"))


def test_an_unknown_town_is_a_404(client):
    assert client.get("/learn/towns/atlantis/").status_code == 404


def test_a_seventh_town_has_its_column_and_its_page(client):
    seventh = Preset("jingshan", "京山", "Jingshan", replace(PRESETS["xiaogan"].values, cap=8), room=("cap",), sources={"cap": "seed 001/003"}, note="京山的测试规则。", note_en="Jingshan test rules.")
    add_preset(seventh)
    try:
        page = _get(client, "/learn/towns/", "zh-hans")
        assert 'id="col-jingshan"' in page and 'href="/learn/towns/jingshan/"' in page
        assert re.search(r'<td class="differs" data-preset="jingshan">\s*<span class="val">×8</span> <span class="room">', _element(page, "tr", "opt-cap"))
        town = _get(client, "/learn/towns/jingshan/", "en")
        assert "Jingshan test rules." in town and 'id="opt-cap"' in town
    finally:
        remove_preset("jingshan")
    assert client.get("/learn/towns/jingshan/").status_code == 404


def _submitted(link: str) -> dict[str, object]:
    """What the calculator's form sends after opening ``link``: the link's values, every other field at its first value."""
    query = parse_qs(urlsplit(link).query)
    data: dict[str, object] = {}
    for name, field in {**SetupForm.base_fields, **HandForm().fields}.items():
        if name in query:
            data[name] = query[name] if name == "situation" else query[name][0]
        elif field.initial is not None and not isinstance(field.initial, bool):
            data[name] = str(field.initial)
    return data


@pytest.mark.parametrize("case", WORKED, ids=lambda c: c["id"])
def test_an_example_opens_in_the_calculator_settled_to_the_same_nets(client, case):
    client.cookies["django_language"] = "en"
    page = client.get(lt.calculator_link(case["request"]))
    assert page.status_code == 200
    text = page.content.decode()
    hand = calculator_fields(case["request"]).get("hand")
    if hand:
        assert f'value="{html.escape(hand)}"' in text
    nets = [int(n) for n in re.findall(r'<div class="st-net[^"]*"><span>[^<]+</span><strong>\+?(-?\d+)</strong>', text)]
    assert nets == case["expect"]["nets"], _text(re.search(r'<section id="result".*?</section>', text, flags=re.S).group(0))[:300]

"""The town pages' content (learn/towns.py): every option per preset, the sources, the worked examples settled by the engine, their links."""

from __future__ import annotations

import json
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest
from django.http import QueryDict
from django.utils import translation

from analysis.board import read_board
from kwx.rules import LEGACY, OPTIONS, PRESETS, Preset, add_preset, remove_preset, resolve
from kwx.table.settlement import settle_json
from learn import towns as lt
from settlement.forms import DEFAULT_NAMES, calculator_fields
from settlement.vectors import api_request
from tests.conftest import VECTORS

VECTOR_CASES = {c["id"]: c for c in json.loads((VECTORS / "towns.json").read_text(encoding="utf-8"))["cases"]}
EXAMPLES = lt.worked_examples()


def test_the_worked_examples_are_w1_to_w20_of_the_vectors_each_with_words():
    assert [e.id for e in EXAMPLES] == [f"W{n}" for n in range(1, 21)]
    for example in EXAMPLES:
        case = VECTOR_CASES[example.id]
        assert example.request == case["request"]
        assert list(example.nets) == case["expect"]["nets"]
        assert example.words is not None, example.id
    assert set(lt.EXAMPLE_WORDS) == {e.id for e in EXAMPLES}


def test_every_preset_page_gets_exactly_its_own_examples():
    shown = [e.id for key in PRESETS for e in lt.examples_of(key)]
    assert sorted(shown) == sorted(e.id for e in EXAMPLES)
    assert [e.id for e in lt.examples_of("xiaogan")] == [e.id for e in EXAMPLES if VECTOR_CASES[e.id]["request"]["rules"] == "xiaogan"]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
@pytest.mark.parametrize("english", [False, True])
def test_an_example_as_shown_is_the_engines_settlement_and_the_vectors_nets(example, english):
    with translation.override("en" if english else "zh-hans"):
        shown = lt.shown_example(example, english)
        names = [n for n, _net in shown["nets"]]
        engine = settle_json(api_request(example.request, names))
    assert [net for _name, net in shown["nets"]] == list(engine.nets) == VECTOR_CASES[example.id]["expect"]["nets"]
    assert [(p["payer"], p["payee"], p["amount"], p["kind"]) for p in shown["payments"]] == [(names[p.payer], names[p.payee], p.amount, p.kind) for p in engine.payments]
    assert [w["f"] for w in shown["wins"]] == [w.value.fan_product for w in engine.wins]
    expected = {w["seat"]: w["product"] for w in VECTOR_CASES[example.id]["expect"]["winners"]}
    figures = {names.index(w["name"]): w["f"] for w in shown["wins"]} | {names.index(s["name"]): s["f"] for s in shown["seats"] if "f" in s}
    assert figures == expected
    for p in shown["payments"]:
        assert p["parts"], p


def test_the_comparison_has_every_option_once_under_every_town_and_the_standard_rules():
    columns = lt.compared_presets()
    assert [p.key for p in columns] == [k for k, p in PRESETS.items() if not p.legacy] + ["standard"]
    groups = lt.option_groups(columns, english=False)
    rows = [row for _step, _title, group in groups for row in group]
    assert sorted(r.option.key for r in rows) == sorted(o.key for o in OPTIONS)
    for row in rows:
        assert [c.preset for c in row.cells] == [p.key for p in columns]
        for c, p in zip(row.cells, columns):
            value = p.values.value(row.option.key)
            assert (c.value, c.label, c.room, c.legacy) == (value, row.option.label(value), row.option.key in p.room, value == LEGACY.value(row.option.key))
            assert c.sources == lt.source_keys(p.sources.get(row.option.key, ""))


def test_every_source_a_preset_names_is_one_the_page_explains():
    for preset in PRESETS.values():
        for key, text in preset.sources.items():
            named = lt.source_keys(text)
            assert named, (preset.key, key, text)
            assert set(named) <= set(lt.SOURCE_BY_KEY)
    assert lt.source_keys("GO-GOLD, seed 001/003") == ("GO-GOLD", "seed")
    assert lt.source_keys("GO-FR (forced); NODE-A, NODE-B") == ("GO-FR", "NODE-A", "NODE-B")


def test_a_towns_differences_are_the_options_it_changes_from_the_legacy_default():
    for preset in PRESETS.values():
        listed = [d["row"].option.key for d in lt.differences(preset, english=True)]
        assert listed == [o.key for o in OPTIONS if preset.values.value(o.key) != LEGACY.value(o.key)]
    assert lt.differences(PRESETS["standard"], english=False) == []


def test_room_switches_name_what_a_switch_sets_with_it():
    switches = {r["key"]: r for r in lt.room_switches(PRESETS["xiangyang_town"], english=False)}
    assert list(switches) == list(PRESETS["xiangyang_town"].room)
    assert switches["si_gui_yi"]["coupled"] == ["海底"]
    assert switches["peng_peng_hu_fan"]["coupled"] == ["杠上开花/杠上炮番数"]
    assert switches["cap"]["value"] == "×8"


def test_a_seventh_town_gets_its_column_and_its_rows():
    seventh = Preset("jingshan", "京山", "Jingshan", replace(PRESETS["xiaogan"].values, cap=8), room=("cap",), sources={"cap": "seed 001/003"})
    add_preset(seventh)
    try:
        columns = lt.compared_presets()
        assert "jingshan" in [p.key for p in columns]
        assert columns[-1].key == "standard"
        cap = next(r for _s, _t, rows in lt.option_groups(columns, english=False) for r in rows if r.option.key == "cap")
        cell = cap.cells[[p.key for p in columns].index("jingshan")]
        assert (cell.label, cell.room, cell.sources) == ("×8", True, ("seed",))
        assert lt.examples_of("jingshan") == ()
    finally:
        remove_preset("jingshan")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_the_calculator_link_carries_the_whole_hand_in_the_calculators_own_fields(example):
    url = lt.calculator_link(example.request)
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    assert parts.path == "/settle/"
    fields = calculator_fields(example.request, [str(n) for n in DEFAULT_NAMES])
    assert query == {k: [str(x) for x in v] if isinstance(v, list) else [str(v)] for k, v in fields.items() if v not in ("", [])}
    assert query["rules"] == [example.rules]
    request = example.request
    if request.get("winners"):
        assert query["tile"] == [request["winners"][0]["tile"]]
    assert sorted(int(k.removeprefix("liang_")) for k in query if k.startswith("liang_") and k != "liang_first") == sorted(request.get("liang_dao", []))


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.request.get("winners")], ids=lambda e: e.id)
def test_the_analyzer_link_opens_the_winners_13_tiles_under_the_examples_rules(example):
    shown = lt.shown_example(example, english=False)
    for link, winner in zip([w["analyzer"] for w in shown["wins"]], example.request["winners"]):
        board = read_board(QueryDict(urlsplit(link).query))
        assert board.errors == {}
        assert board.hand == lt.full_hand(winner["hand"], winner.get("melds", ()))
        assert board.rules == example.rules
        assert board.rule_set is not None and board.rule_set.options == resolve(example.rules, example.request.get("options"))
    if example.id == "W6":
        assert "dui_liang_dui_fan=1" in shown["wins"][0]["analyzer"]
    if example.id == "W19":
        assert "situation=qiang_gang_hu" in shown["wins"][0]["analyzer"]
    if example.id == "W2":
        assert "situation=liang_dao" in shown["wins"][0]["analyzer"]


def test_a_drawn_hand_shows_each_seats_best_wait_and_rank():
    with translation.override("en"):
        shown = lt.shown_example(next(e for e in EXAMPLES if e.id == "W7"), english=True)
        seats = {s["name"]: s for s in shown["seats"]}
        ranks = sorted(str(s["rank"]) for s in seats.values())
    assert len(seats) == 3
    ready = [s for s in seats.values() if "wait" in s]
    assert sorted(s["wait"] for s in ready) == ["5p", "9s"]
    assert ranks == ["declared 亮倒", "not ready", "ready, not declared"]

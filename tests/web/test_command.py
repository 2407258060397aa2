"""`manage.py analyze`: the analysis as readable text, Chinese by default."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from kwx import analyze
from kwx.hand.fans import fan


def run(*args: str) -> str:
    out = StringIO()
    call_command("analyze", *args, stdout=out)
    return out.getvalue()


def test_thirteen_tiles_in_chinese():
    text = run("4556p123789sZZZ")
    assert "听牌" in text and "五筒" in text and "剩 2 张" in text and f"卡五星 ×{fan('ka_wu_xing').multiplier('standard')}" in text


def test_fourteen_tiles_list_every_discard_best_first():
    lines = run("4556p123789sZZZF").splitlines()
    discards = [line for line in lines if line.startswith("打 ")]
    assert len(discards) == len(analyze("4556p123789sZZZF")["options"])
    assert discards[0].startswith("打 发财") and f"价值 {analyze('4556p123789sZZZF')['options'][0]['value']}" in discards[0]


def test_rules_visible_situation_and_english():
    text = run("46p11s[555p][FFF][BBB]", "--rules", "shiyan", "--situation", "liang_dao", "--visible", "9s", "--lang", "en")
    body = analyze("46p11s[555p][FFF][BBB]", rules="shiyan", situation=["liang_dao"], visible="9s")
    self_draw = body["waits"][0]["self_draw"]["total"]
    assert "Shiyan" in text and f"self-draw ×{self_draw}" in text and f"Revealed hand ×{fan('liang_dao').multiplier('shiyan')}" in text


def test_json_is_the_api_body():
    assert json.loads(run("4556p123789sZZZ", "--json")) == analyze("4556p123789sZZZ")


def test_rule_options_from_the_command_line():
    best = max(w["self_draw"]["total"] for w in analyze("3333445678s[777s]", options={"si_gui_yi_big_hand": True})["waits"])
    plain = max(w["self_draw"]["total"] for w in analyze("3333445678s[777s]")["waits"])
    assert best > plain and f"×{best}" in run("3333445678s[777s]", "--option", "si_gui_yi_big_hand")


def test_bad_hands_are_a_command_error_naming_the_place():
    with pytest.raises(CommandError, match="第 4 个字符"):
        run("123x456p")


def test_the_town_and_any_option_with_set():
    body = analyze("4556p123s789sZZZ", rules="xiaogan", options={"cap": 8})
    side = body["waits"][0]["self_draw"]
    text = run("4556p123s789sZZZ", "--rules", "xiaogan", "--set", "cap=8", "--lang", "en")
    assert "Xiaogan (changed)" in text and f"self-draw ×{side['total']}" in text
    assert f"坎 {side['kan']}" in text and f"each payer {side['amount']}" in text and f"a declared payer {side['declared_payer_amount']}" in text
    assert json.loads(run("4556p123s789sZZZ", "--rules", "xiaogan", "--set", "cap=8", "--json"))["rule_options"]["cap"] == 8
    with pytest.raises(CommandError, match="cap"):
        run("4556p123s789sZZZ", "--rules", "xiaogan", "--set", "cap=9")
    with pytest.raises(CommandError, match="cap=8"):
        run("4556p123s789sZZZ", "--set", "cap")

"""A seventh town is data: one more Preset, and the analyzer, the settlement and the table play by it (issue 35)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kwx.rules import PRESETS, Preset, add_preset, remove_preset
from kwx.table.record import Record
from kwx.table.selfplay import play, seeded_deal


@pytest.fixture
def jingshan():
    """京山, as a test town: 孝感's rules with 卡五星 ×2, a cap of 8 and 独马 on any self-draw."""
    town = Preset("jingshan", "京山", "Jingshan", replace(PRESETS["xiaogan"].values, ka_wu_xing_fan=2, cap=8, mai_ma="one", mai_ma_trigger="any"), room=("cap",), note="测试", note_en="test")
    add_preset(town)
    yield town
    remove_preset("jingshan")


def test_the_analyzer_answers_under_the_new_town(client, jingshan):
    body = client.post("/api/v1/analyze/", {"hand": "4556p123s789sZZZ", "rules": "jingshan"}, content_type="application/json").json()
    assert body["rules"] == "jingshan" and body["rule_options"]["mai_ma"] == "one"
    assert body["waits"][0]["self_draw"]["total"] == 2  # 卡五星 ×2 here, ×4 in 孝感
    assert client.post("/api/v1/analyze/", {"hand": "4556p123s789sZZZ", "rules": "xiaogan"}, content_type="application/json").json()["waits"][0]["self_draw"]["total"] == 4


def test_the_settlement_pays_by_the_new_town(client, jingshan):
    request = {"players": ["甲", "乙", "丙"], "rules": "jingshan", "result": "self_draw", "horses": ["9s"], "winners": [{"player": "甲", "hand": "4556p123s789sZZZ", "tile": "5p"}]}
    body = client.post("/api/v1/settle/", request, content_type="application/json").json()
    assert body["options"]["cap"] == 8
    assert [n["net"] for n in body["nets"]] == [2 * (2 + 2 + 9), -(2 + 2 + 9), -(2 + 2 + 9)]  # F 2, 坎 2 (数坎 from 孝感), 马 9


def test_the_table_plays_and_records_the_new_town(jingshan):
    from kwx.bots.registry import policy_factory

    done = play(seeded_deal(11), [policy_factory("basic")() for _ in range(3)], "jingshan")
    record = done.record.to_json()
    assert record["rules"] == "jingshan" and record["options"]["mai_ma"] == "one"
    assert Record.from_json(record).replay().settlement.nets == done.settlement.nets

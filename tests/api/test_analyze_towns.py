"""``/api/v1/analyze/`` under a town (town-rules.md §4 "Analyzer"): every wait's figures checked against the settlement of the same win.

Ready hands are asked under every preset and the room switches that change money; each wait's
``allowed``, ``total``, ``declared_payer_total``, ``kan`` and ``pao_qia_mo_ba`` are worked out
independently by settling that win through ``POST /api/v1/settle/``. The §5 examples W1, W5, W6,
W9, W12, W14 and W15 (the public vectors) are checked by the analyzer's per-wait figures.
"""

from __future__ import annotations

from typing import Any

import pytest

from kwx.hand.notation import parse_hand
from kwx.hand.tiles import COPIES, DRAGONS, KIND_OF_ID, TILE_IDS
from kwx.rules import OPTION_BY_KEY, PRESETS
from tests.towns import TOWNS

URL = "/api/v1/analyze/"
SETTLE = "/api/v1/settle/"
NAMES = ["甲", "乙", "丙"]
READY = [  # 屁胡, 卡五星, 碰碰胡 with 坎, 七对 in one suit, 四归一, 跑恰摸八's 八, 全频道's four, 清一色 九莲
    "123456p789s11sZZ",
    "4556p123s789sZZZ",
    "111p999p22s77s[ZZZ]",
    "1122334456677p",
    "46p111s222s333sFF",
    "111p234p567p9p888s",
    "22223p345s678sFF",
    "1112345678999p",
]
MONEY_STEPS = frozenset({"fans", "multiplier", "cap", "bao_hu", "extras", "allowance"})


def variants() -> list[tuple[str, dict[str, Any]]]:
    """Every preset as it is, and each town with each money-changing room switch turned to its other values (with its couplings)."""
    out: list[tuple[str, dict[str, Any]]] = [(key, {}) for key in PRESETS]
    for key, chosen in PRESETS.items():
        for option in chosen.room:
            if OPTION_BY_KEY[option].step not in MONEY_STEPS:
                continue
            for value in OPTION_BY_KEY[option].values:
                if value != chosen.values.value(option):
                    turned = chosen.switch(chosen.values, option, value)
                    out.append((key, {k: turned.value(k) for k in chosen.changed(turned)}))
    return out


def settled(client: Any, rules: str, options: dict[str, Any], hand: str, tile: str, *, self_draw: bool, winner_declared: bool, payer_declared: bool) -> dict[str, Any] | None:
    """The win payment the settlement makes for this win from seat 1 (declared or not), or None when it refuses the win."""
    body = {
        "players": NAMES,
        "rules": rules,
        "options": options,
        "result": "self_draw" if self_draw else "discard",
        "liang_dao": [NAMES[0]] * winner_declared + [NAMES[1]] * payer_declared,
        "winners": [{"player": NAMES[0], "hand": hand, "tile": tile}],
        "dice": [1, 2],
        "wall_left": 0,  # no horse left to turn: the settlement's 马 is 0, the analyzer's expected 马 is checked apart
    }
    if not self_draw:
        body["discarder"] = NAMES[1]
    response = client.post(SETTLE, body, content_type="application/json")
    if response.status_code == 400:
        return None
    assert response.status_code == 200, response.content.decode()
    return next(p for p in response.json()["payments"] if p["payer"] == NAMES[1] and p["kind"] == "win")


@pytest.mark.parametrize("rules, options", variants(), ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={v[k]}" for k in v) or "preset")
def test_every_wait_is_what_the_settlement_pays(client, rules, options):
    for hand in READY:
        for declared in (False, True):
            body = client.post(URL, {"hand": hand, "rules": rules, "options": options, "situation": ["liang_dao"] if declared else []}, content_type="application/json").json()
            assert body["rule_options"] == {k: v for k, v in PRESETS[rules].values.as_dict().items()} | options
            assert body["waits"], hand
            for wait in body["waits"]:
                for side_key in ("self_draw", "discard"):
                    side = wait[side_key]
                    args = {"self_draw": side_key == "self_draw", "winner_declared": declared}
                    plain = settled(client, rules, options, hand, wait["tile"], payer_declared=False, **args)
                    assert side["allowed"] == (plain is not None), (hand, wait["tile"], side_key)
                    if plain is not None:
                        parts = plain["parts"]
                        bao = side.get("bao_hu")  # a declared hand's discard win: the settlement's 包胡
                        assert parts["fan"] == (bao["total"] if bao else side["total"]), (hand, wait["tile"], side_key)
                        assert plain["amount"] == pytest.approx(bao["amount"] if bao else side["amount"] - side.get("expected_ma", 0))
                        assert parts.get("kan") == side.get("kan") or (parts.get("kan") is None and side.get("kan") == 0)
                        assert parts.get("pao_qia_mo_ba") == side.get("pao_qia_mo_ba")
                    paying = settled(client, rules, options, hand, wait["tile"], payer_declared=True, **args)
                    from_declared = side.get("declared_payer_total", side["bao_hu"]["total"] if "bao_hu" in side else side["total"])
                    assert (paying is not None) == (from_declared > 0), (hand, wait["tile"], side_key)
                    if paying is not None:
                        assert paying["parts"]["fan"] == from_declared, (hand, wait["tile"], side_key, paying)


def test_get_takes_the_town_and_any_option_and_answers_them(client):
    body = client.get(URL, {"hand": "22223p345s678sFF", "rules": "xiaogan", "cap": "8", "si_gui_yi": "all_fours"}).json()
    assert body["rules"] == "xiaogan" and body["rule_options"]["cap"] == 8 and body["rule_options"]["si_gui_yi"] == "all_fours"
    assert body["rule_options"]["shu_kan"] is True  # the rest from the preset
    wait = next(w for w in body["waits"] if w["tile"] == "4p")
    assert [f["key"] for f in wait["discard"]["fans"]] == ["an_si_gui_yi"] and wait["discard"]["total"] == 4
    refused = client.get(URL, {"hand": "22223p345s678sFF", "rules": "xiaogan", "cap": "9"})
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "cap"


def test_the_value_reads_the_town_money_and_stays_the_totals_under_legacy_rules(client):
    legacy = client.get(URL, {"hand": "111p234p567p9p888s3s", "rules": "standard"}).json()
    town = client.get(URL, {"hand": "111p234p567p9p888s3s", "rules": "yicheng"}).json()
    for body in (legacy, town):
        option = next(o for o in body["options"] if o["discard"] == "3s")
        assert option["value"] == sum(w["remaining"] * (w["self_draw"]["amount"] + w["discard"]["amount"]) for w in option["waits"])
    legacy_option = next(o for o in legacy["options"] if o["discard"] == "3s")
    assert legacy_option["value"] == sum(w["remaining"] * (w["self_draw"]["total"] + w["discard"]["total"]) for w in legacy_option["waits"])
    town_option = next(o for o in town["options"] if o["discard"] == "3s")
    assert town_option["value"] > legacy_option["value"]  # 跑恰摸八 on every self-draw


# ---- the worked examples of town-rules.md §5, by the analyzer's per-wait figures ---------------


def _example(case_id: str) -> dict[str, Any]:
    return next(c for c in TOWNS["cases"] if c["id"] == case_id)


def _asked(client: Any, request: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The analyzer's answer for the example's winner before the win, and the winning tile's wait."""
    winner = request["winners"][0]
    situation = list(winner.get("situation", [])) + (["liang_dao"] if winner["seat"] in request.get("liang_dao", []) else [])
    body = {"hand": winner["hand"], "melds": winner.get("melds", []), "rules": request.get("rules", "standard"), "options": request.get("options", {}), "situation": situation}
    answer = client.post(URL, body, content_type="application/json")
    assert answer.status_code == 200, answer.content.decode()
    answer_body = answer.json()
    return answer_body, next(w for w in answer_body["waits"] if w["tile"] == winner["tile"])


@pytest.mark.parametrize("case_id", ["W1", "W5", "W6", "W9", "W12", "W14", "W15"])
def test_the_worked_examples_by_the_analyzers_wait(client, case_id):
    case = _example(case_id)
    request, expect = case["request"], case["expect"]
    body, wait = _asked(client, request)
    assert body["rule_options"] == expect["options"]
    side = wait["self_draw" if request["result"] == "self_draw" else "discard"]
    assert side["allowed"] and side["fan_product"] == expect["winners"][0]["product"]
    assert sorted((f["key"], f["multiplier"]) for f in side["fans"] if f["key"] != "liang_dao") == sorted(tuple(f) for f in expect["winners"][0]["fans"])
    declared = set(request.get("liang_dao", []))
    for payment in (p for p in expect["payments"] if p["kind"] == "win"):
        parts = payment["parts"]
        from_declared = payment["payer"] in declared and "declared_payer_total" in side
        assert parts["fan"] == (side["declared_payer_total"] if from_declared else side["total"]), payment
        assert parts.get("kan") == side.get("kan") or not parts.get("kan")
        assert parts.get("pao_qia_mo_ba") == side.get("pao_qia_mo_ba")
        flat = payment["amount"] - parts["piao"] - parts.get("ma", 0)  # 漂 is the seats', 马 the horses turned: the wait decides the rest
        assert flat == (side["declared_payer_amount"] if from_declared else side["amount"] - side.get("expected_ma", 0)), payment


def test_w12s_horse_is_an_expected_value_over_the_unseen_tiles(client):
    _body, wait = _asked(client, _example("W12")["request"])
    held = parse_hand("123p456p789p23sFF").held
    win = KIND_OF_ID["1s"]
    unseen = [COPIES - held[k] - (k == win) for k in range(len(TILE_IDS))]
    mean = sum(n * (10 if k in DRAGONS else k % 9 + 1) for k, n in enumerate(unseen)) / sum(unseen)  # 独马: face value, a dragon 10
    assert wait["self_draw"]["expected_ma"] == pytest.approx(mean, abs=1e-4)
    assert "expected_ma" not in wait["discard"]  # horses only on a self-draw
    plain, _ = _asked(client, {**_example("W12")["request"], "liang_dao": []})
    assert all("expected_ma" not in w["self_draw"] for w in plain["waits"])  # 亮倒 自摸 only (mai_ma_trigger liang_dao)

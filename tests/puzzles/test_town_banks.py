"""The town banks (issue 35 item 7): a 算番 quiz for every town preset and 何切 drills for 孝感 and 襄阳 (town), every item possible
under its town and its answer the engine's under the town's rules, recomputed here; a slice of each rebuilt byte for byte from its seed."""

from __future__ import annotations

import json

import pytest

from kwx import build_hand
from kwx.hand.efficiency import best_discards, discard_options
from kwx.hand.money import side_money
from kwx.hand.scoring import score_win, situation_counts
from kwx.hand.serial import option_row
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.rules import LEGACY_PRESETS, PRESETS, record_options, stored, town_presets
from puzzles.generation.bank import BANK_PATH, PREFIX, generate, read_bank, read_meta, town_bank_path, town_key
from puzzles.generation.filters import judge
from puzzles.generation.possible import SEVEN_PAIRS, record_problem, record_rules
from puzzles.generation.themes import tag

TOWNS = town_presets()
BANKS = {rules: read_bank(town_bank_path(rules)) for rules in TOWNS}
DRILLED = ("xiaogan", "xiangyang_town")
"""The towns with 何切 drills of their own."""
QUIZ = [r for records in BANKS.values() for r in records if r["kind"] == "quiz"]
DISCARDS = [r for records in BANKS.values() for r in records if r["kind"] == "discard"]
EVERY_QUIZ = QUIZ + [r for r in read_bank(BANK_PATH) if r["kind"] == "quiz"]


def _side(record, rules):
    hand, _ = build_hand(record["hand"], record["melds"])
    values = score_win(hand, KIND_OF_ID[record["win"]], rules)
    assert values is not None, record["key"]
    return hand, values[0] if record["side"] == "self_draw" else values[1]


@pytest.mark.parametrize("rules", TOWNS)
def test_every_town_ships_a_quiz_of_at_least_100_items_and_its_drills_where_asked(rules):
    records = BANKS[rules]
    quiz = [r for r in records if r["kind"] == "quiz"]
    drills = [r for r in records if r["kind"] == "discard"]
    assert len(quiz) >= 100
    assert len(drills) >= (300 if rules in DRILLED else 0)
    assert {r["rules"] for r in records} == {rules} and read_meta(town_bank_path(rules))["rules"] == rules
    assert [r["key"] for r in drills] == [town_key(rules, "discard", n) for n in range(1, len(drills) + 1)]
    assert [r["key"] for r in quiz] == [town_key(rules, "quiz", n) for n in range(1, len(quiz) + 1)]
    assert all(r["rule_options"] == record_options(rules, PRESETS[rules].values) for r in records)  # every option, as a record stores it
    assert len({(r["hand"], json.dumps(r["melds"]), r["win"], r["side"], tuple(r["situation"])) for r in quiz}) == len(quiz)


def test_every_quiz_item_of_every_bank_can_happen_under_its_rules():
    """Each check on its own terms, for every item of every bank (the legacy bank's two 海底捞 gaps are test_bank's)."""
    for r in EVERY_QUIZ:
        rules = record_rules(r)
        hand, value = _side(r, rules)
        win = KIND_OF_ID[r["win"]]
        situation = set(r["situation"])
        assert value.allowed, r["key"]  # 屁胡 on a discard, 应城's undeclared self-draw below ×2 … are not asked
        assert max(hand.with_tile(win).held) <= 4, r["key"]
        assert all(situation_counts(key, rules.options) for key in situation), r["key"]  # 海底 only where the town counts it
        if "gang_shang_kai_hua" in situation:  # the replacement tile of the winner's own kong
            assert any(m["type"] in ("kong", "concealed_kong") for m in r["melds"]), r["key"]
        if any(h.key in SEVEN_PAIRS for h in value.fans):  # seven pairs has no meld
            assert not r["melds"], r["key"]
        if situation & {"hai_di_lao", "hai_di_pao"}:
            assert r["wall_left"] == 0, r["key"]
        if "qiang_gang_hu" in situation:
            assert rules.options.rob_kong and hand.held[win] == 0, r["key"]
            assert not ("liang_dao" in situation and rules.options.no_feed_xu_gang), r["key"]  # a declared hand never robs a kong there
        if r["rules"] not in LEGACY_PRESETS:
            assert record_problem(r) is None, r["key"]  # and with the wall empty, its 海底 fan where the town counts it
        else:
            assert record_problem(r, last_tile=False) is None, r["key"]


def test_every_town_quiz_answer_is_the_engines_under_the_towns_rules():
    for r in QUIZ:
        rules = record_rules(r)
        assert rules.options == stored(r["rules"], r["rule_options"]) == PRESETS[r["rules"]].values, r["key"]
        _hand, value = _side(r, rules)
        assert r["accepted"] == [str(value.total)], r["key"]  # the capped multiplier a payer who did not declare pays
        assert r["options"]["total"] == value.total and r["options"]["product"] == value.product, r["key"]
        assert [f["key"] for f in r["options"]["fans"]] == [h.key for h in value.fans], r["key"]
        assert [f["multiplier"] for f in r["options"]["fans"]] == [h.multiplier for h in value.fans], r["key"]
        assert value.total in r["options"]["choices"] and len(set(r["options"]["choices"])) == 4, r["key"]


def test_the_towns_values_show_in_their_quiz():
    """孝感's ×4 卡五星 and 碰碰胡, its cap of 16; 襄阳's and 十堰's 海底炮; 应城 asks no ×1 win (an undeclared self-draw needs ×2)."""
    by_town = {rules: [r for r in QUIZ if r["rules"] == rules] for rules in TOWNS}
    assert any(f["key"] == "ka_wu_xing" and f["multiplier"] == 4 for r in by_town["xiaogan"] for f in r["options"]["fans"])
    assert max(int(r["accepted"][0]) for r in by_town["xiaogan"]) == 16
    assert all(int(r["accepted"][0]) <= 16 for r in by_town["xiaogan"])
    for rules in ("xiangyang_town", "shiyan_town"):
        assert any("hai_di_pao" in r["situation"] for r in by_town[rules])
    for rules in ("xiaogan", "suizhou", "yicheng", "yingcheng"):
        assert not any({"hai_di_lao", "hai_di_pao"} & set(r["situation"]) for r in by_town[rules])
    assert all(r["accepted"] != ["1"] for r in by_town["yingcheng"])


def test_every_town_drill_matches_the_engine_under_its_towns_money():
    """All of them, recomputed: the options under the town's rules (the §4 value reads its money: 坎 in 孝感), the answer, still a good drill."""
    for r in DISCARDS:
        hand, seen = build_hand(r["hand"], r["melds"], r["visible"])
        options = discard_options(hand, seen, record_rules(r))
        assert r["accepted"] == [TILE_IDS[k] for k in best_discards(options)], r["key"]
        assert r["options"] == [option_row(o) for o in options], r["key"]
        assert judge(hand.concealed, options) is not None, r["key"]
        assert r["themes"] == list(tag(hand, options)), r["key"]


def test_a_xiaogan_drills_value_counts_its_kan():
    """A 孝感 wait's worth is what an undeclared payer pays on each side (M + 坎), stored beside the two totals."""
    worths = 0
    for r in (r for r in DISCARDS if r["rules"] == "xiaogan"):
        hand, _seen = build_hand(r["hand"], r["melds"], r["visible"])
        rules = record_rules(r)
        for option in (o for o in r["options"] if o["waits"]):
            left = hand.with_tile(KIND_OF_ID[option["discard"]], -1)
            for wait in option["waits"]:
                values = score_win(left, KIND_OF_ID[wait["tile"]], rules)
                assert values is not None
                own, thrown = (side_money(v, left, KIND_OF_ID[wait["tile"]], s, rules) for v, s in zip(values, (True, False)))
                assert wait.get("worth", wait["self_draw"] + wait["discard"]) == own.amount + thrown.amount
                worths += "worth" in wait
    assert worths >= 100
    assert not any("worth" in w for r in DISCARDS if r["rules"] == "xiangyang_town" for o in r["options"] for w in o["waits"])  # no flat extras there


@pytest.mark.parametrize("rules", TOWNS)
def test_a_slice_of_each_town_bank_rebuilds_byte_for_byte_from_its_seed(rules):
    """Every 何切 drill and the first quiz items, made again from the bank's seed with ``--rules`` (``generate_puzzles --rules``): each deal
    plays from a stream of its own, so the first quiz items do not depend on how many the bank holds (a few seconds of CPU a town)."""
    meta = read_meta(town_bank_path(rules))
    records, _stats = generate(meta["seed"], meta["count"], 6, rules=rules)
    shipped = BANKS[rules]
    expected = [r for r in shipped if r["kind"] == "discard"] + [r for r in shipped if r["kind"] == "quiz"][:6]
    assert json.dumps(records, sort_keys=True, ensure_ascii=False) == json.dumps(expected, sort_keys=True, ensure_ascii=False)


def test_the_town_keys_name_their_town():
    assert town_key("xiaogan", "discard", 7) == f"xiaogan-{PREFIX['discard']}00007"
    assert town_key("suizhou", "quiz", 120) == f"suizhou-{PREFIX['quiz']}00120"

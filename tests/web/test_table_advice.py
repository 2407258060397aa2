"""The analyzer's estimate at the table (analysis.table_advice): the API's figures, seeded, under the EV limits."""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.test import RequestFactory

from analysis.api_advice import advice_json, read_position
from analysis.table_advice import choice_text, estimate, shaped
from analysis.table_form import api_body, position_of, read_table
from kwx.hand.ev import Budget
from kwx.hand.notation import parse_hand
from kwx.hand.rules import make_rules
from kwx.table.advice import CLEAR
from tests.ev_limits import low_ev_limits

pytestmark = pytest.mark.django_db
RULES = make_rules("standard", (), None)
DEFEND = ("23456p11678999sZ", "r0=Z1p&r1=ZB9p1s2p&r2=FB8p&l2=46p123456789sFF")
PONG = ("5566p123456789s", "r0=ZB&r1=F9p1s5p&r2=BF&offer=5p")


def position(case):
    hand, query = case
    return parse_hand(hand), read_table(QueryDict(query))


def request(ip="10.1.2.3"):
    return RequestFactory().get("/analyze/", REMOTE_ADDR=ip)


def test_the_page_shows_the_apis_figures_for_the_same_position():
    hand, table = position(DEFEND)
    shown = estimate(request(), position_of(hand, table), RULES, 1, 0, 7)["advice"]
    body = api_body(hand, table, {"seed": 7})
    checked, money = read_position(body)
    answer = advice_json(checked.view(money["rules"]), money, Budget(seconds=None))
    figures = sorted((str(r["action"]), r["mean"], r["stderr"], r["rollouts"]) for r in shown["rows"])
    assert figures == sorted((str(c["action"]), c["mean"], c["stderr"], c["rollouts"]) for c in answer["choices"])
    # 4 deals are fewer than a clear call needs: the page keeps the decision's order (tiles in hand order) and marks no row
    assert not shown["ranked"] and [r["tile"] for r in shown["rows"]] == ["2p", "3p", "4p", "5p", "6p", "1s", "6s", "7s", "8s", "9s", "Z", "Z"]
    assert not any(r["best"] or r["top"] for r in shown["rows"])


def test_ranked_rows_keep_the_apis_order_and_the_badge_only_when_clear():
    hand, table = position(DEFEND)
    body = api_body(hand, table, {"seed": 7})
    checked, money = read_position(body)
    answer = advice_json(checked.view(money["rules"]), money, Budget(seconds=None))
    rows = shaped({**answer, "worlds": CLEAR.deals})["rows"]
    assert [r["action"] for r in rows] == [c["action"] for c in answer["choices"]]
    assert rows[0]["top"] and rows[0]["best"] == answer["clear"] and not any(r["best"] for r in rows[1:])


def test_deal_in_lists_each_held_tile_and_marks_the_revealed_wait():
    hand, table = position(DEFEND)
    deal_in = {d["tile"]: d for d in estimate(request(), position_of(hand, table), RULES, 1, 0, 0)["advice"]["deal_in"]}
    assert set(deal_in) == {"2p", "3p", "4p", "5p", "6p", "1s", "6s", "7s", "8s", "9s", "Z"}
    assert deal_in["5p"]["revealed"] and deal_in["5p"]["percent"] == 100.0
    assert not deal_in["Z"]["revealed"] and 0 <= deal_in["Z"]["percent"] < 100


def test_the_same_seed_gives_the_same_estimate():
    hand, table = position(PONG)
    first = estimate(request(), position_of(hand, table), RULES, 1, 0, 3)["advice"]["rows"]
    assert estimate(request(), position_of(hand, table), RULES, 1, 0, 3)["advice"]["rows"] == first
    assert {r["action"]["verb"] for r in first} == {"pong", "pass"}


def test_a_refused_estimate_says_when_to_retry(settings, tmp_path, stopped_clock):
    low_ev_limits(settings, tmp_path, "1/min", "50/min")
    hand, table = position(PONG)
    assert "advice" in estimate(request(), position_of(hand, table), RULES, 1, 0, 0)
    refused = estimate(request(), position_of(hand, table), RULES, 1, 0, 0)
    assert refused["retry"] > 0 and refused["refused"] and "advice" not in refused


@pytest.mark.parametrize(
    "action, words",
    [
        ({"verb": "pass"}, "过"),
        ({"verb": "pong", "tile": "5p"}, "碰"),
        ({"verb": "kong", "tile": "5p"}, "杠"),
        ({"verb": "win", "tile": "5p"}, "胡"),
        ({"verb": "discard", "tile": "5p", "liang_dao": True}, "亮倒"),
    ],
)
def test_each_choice_is_named(action, words):
    assert words in choice_text(action)

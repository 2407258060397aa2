"""The engine's typed ``Analysis``: frozen, decided once, and ``to_json`` gives the API body from it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from kwx import analyze, build_hand
from kwx.hand.analysis import Analysis, analyze_hand, to_json
from kwx.hand.efficiency import best_discards, discard_options
from kwx.hand.estimate import Estimate
from kwx.hand.ev import DiscardEV, ev_best
from kwx.hand.ev_analysis import check_request, prepare
from kwx.hand.notation import format_counts, parse_tile
from kwx.hand.rules import make_rules
from kwx.hand.tiles import TILE_IDS
from tests.strategies import hands

RULES = make_rules("standard")
REVEALED = "46p11456789sFFF"  # a 亮倒 hand waiting on 5p


def analysed(text: str, revealed: tuple[str, ...] = (), draws: int | None = None) -> Analysis:
    full, seen = build_hand(text)
    given_hands, seen = prepare(full, seen, list(revealed) or None)
    request = check_request("ev", draws, None, RULES) if draws else None
    return analyze_hand(full, seen, RULES, revealed=given_hands, ev=request)


def test_an_analysis_is_frozen_and_to_json_gives_a_fresh_body_each_time():
    result = analysed("4556p123s789sZZZ8p")
    with pytest.raises(AttributeError):
        result.shanten = 3  # type: ignore[misc]
    first, second = to_json(result), to_json(result)
    assert first == second
    first["options"][0]["ukeire"]["tiles"][0]["remaining"] = 99
    first["options"].clear()
    assert to_json(result) == second


@settings(max_examples=60, deadline=None)
@given(hands(14))
def test_the_body_lists_the_analysis_options_in_its_order(counts):
    text = format_counts(counts)
    result = analysed(text)
    body = analyze(text)
    assert json.dumps(to_json(result)) == json.dumps(body)
    assert [o["discard"] for o in body["options"]] == [TILE_IDS[o.discard] for o in result.options]
    assert result.best == best_discards(discard_options(*build_hand(text), RULES))
    assert body["shanten"] == result.shanten


def test_danger_puts_deal_ins_last_and_keeps_them_out_of_the_best():
    result = analysed("34556p123789sZZZ", revealed=(REVEALED,))
    five = parse_tile("5p")
    assert result.dealing_in == frozenset({five})
    flags = [o.deals_in for o in result.options]
    assert flags == sorted(flags) and flags[-1] is True
    assert five not in result.best
    assert all(o["deals_in"] is (o["discard"] == "5p") for o in to_json(result)["options"])


def test_ev_best_is_the_engine_ranking_rule():
    result = analysed("34556p123789sZZZ", draws=4)
    ranking = tuple(DiscardEV(o.discard, o.estimate) for o in result.options if o.estimate is not None)
    assert result.ev_best == ev_best(ranking) and result.ev_best
    assert set(result.ev_best) <= {o.discard for o in result.options if o.result.shanten == result.options[0].result.shanten}


def test_no_ev_best_when_every_discard_deals_in_or_is_worth_nothing():
    worth = Estimate(0, 0.5, 0.25, 1.5)
    nothing = Estimate(0, 0.0, 0.0, 0.0)
    assert ev_best((DiscardEV(1, worth), DiscardEV(2, worth))) == (1, 2)
    assert ev_best((DiscardEV(1, worth, deals_in=True), DiscardEV(2, worth, deals_in=True))) == ()
    assert ev_best((DiscardEV(1, nothing), DiscardEV(2, nothing))) == ()

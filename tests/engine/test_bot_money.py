"""The bots' money (kwx/bots/money.py) is the settlement's: what ``pay`` says a payer pays is what settle() makes it pay."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx.bots.money import pay
from kwx.hand.notation import parse_hand
from kwx.hand.rules import make_rules
from kwx.hand.scoring import score_win
from kwx.hand.tiles import KIND_OF_ID
from kwx.rules import PRESETS
from kwx.table.settlement import settle_json
from kwx.table.view import PublicSeat, SeatView

WINS = [("4556p123s789sZZZ", "5p"), ("111p999p22s77sZZZ", "7s"), ("1122p334sZZFFBB", "4s"), ("123p456p789p23sFF", "1s"), ("1112345678999p", "5p"), ("111p234p567p9p888s", "9p")]
NAMES = ["甲", "乙", "丙"]


def view(rules: str, declared: tuple[bool, bool, bool], piao: tuple[int, int, int]) -> SeatView:
    """Seat 1's view of a table where ``declared`` says who declared 亮倒 (the stakes and rules are all a payment reads)."""
    seats = tuple(PublicSeat(liang_dao=d) for d in declared)
    return SeatView(1, make_rules(rules), 0, "claim", 0, None, 20, (seats[0], seats[1], seats[2]), (0,) * 21, piao=piao, declared=tuple(i for i, d in enumerate(declared) if d))


@given(
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from(WINS),
    st.booleans(),
    st.tuples(st.booleans(), st.booleans(), st.booleans()),
    st.tuples(st.sampled_from([0, 1, 2, 5]), st.sampled_from([0, 1, 2, 5]), st.sampled_from([0, 1, 2, 5])),
)
def test_what_a_bot_reckons_a_payer_pays_is_what_settle_makes_it_pay(rules, shape, self_draw, declared, piao):
    if PRESETS[rules].values.buys_horses:
        rules = "standard"  # horses are an expectation for a bot, a drawn tile for the settlement
    text, tile = shape
    hand, kind = parse_hand(text), KIND_OF_ID[tile]
    seen = view(rules, declared, piao)
    values = score_win(hand, kind, make_rules(rules, ("liang_dao",) if declared[0] else ()))
    assert values is not None
    value = values[0] if self_draw else values[1]
    expected = {p: pay(seen, value, hand, kind, self_draw=self_draw, winner=0, payer=p) for p in ((1, 2) if self_draw else (1,))}
    body = {
        "players": NAMES,
        "rules": rules,
        "piao": list(piao),
        "dice": [1, 2],
        "result": "self_draw" if self_draw else "discard",
        "liang_dao": [i for i, d in enumerate(declared) if d],
        "winners": [{"player": 0, "hand": text, "tile": tile}],
    }
    if not self_draw:
        body["discarder"] = 1
    try:
        done = settle_json(body)
    except Exception:
        assert all(v == 0 for v in expected.values())  # a win the rules refuse from this payer is worth nothing to it
        return
    paid = {p.payer: float(p.amount) for p in done.payments if p.kind == "win"}
    assert paid == expected


@pytest.mark.parametrize("rules", ["xiaogan", "standard"])
def test_a_declared_payer_pays_double_only_under_winner_or_payer(rules):
    hand, kind = parse_hand("4556p123s789sZZZ"), KIND_OF_ID["5p"]
    value = score_win(hand, kind, make_rules(rules))[0]  # type: ignore[index]
    hidden = pay(view(rules, (False, False, False), (0, 0, 0)), value, hand, kind, self_draw=True, winner=0, payer=1)
    declared = pay(view(rules, (False, True, False), (0, 0, 0)), value, hand, kind, self_draw=True, winner=0, payer=1)
    if rules == "xiaogan":
        assert declared - hidden == value.total  # the multiplier doubles; 坎 does not
    else:
        assert declared == hidden


def test_horses_are_an_expected_score():
    hand, kind = parse_hand("123p456p789p23sFF"), KIND_OF_ID["1s"]
    rules = make_rules("suizhou", ("liang_dao",))
    value = score_win(hand, kind, rules)[0]  # type: ignore[index]
    seen = replace(view("suizhou", (True, False, False), (0, 0, 0)), rules=make_rules("suizhou"))
    amount = pay(seen, value, hand, kind, self_draw=True, winner=0, payer=1)
    assert 2 < amount < 2 + 10 and amount != int(amount)  # ×2 for 亮倒, plus a 马 between 1 and 10 on average

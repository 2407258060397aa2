"""The fast scorer (per-block split facts, memoised values) equals its definition on random hands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.hand.efficiency import efficiency
from kwx.hand.money import has_flat_extras, side_money
from kwx.hand.rules import make_rules
from kwx.hand.scoring import score_by_readings, score_win, score_wins
from kwx.hand.shapes import is_complete
from kwx.hand.tiles import COPIES, NUM_KINDS, Hand, Meld, MeldType, with_tile
from kwx.rules import OPTIONS, PRESETS
from tests.strategies import WALL

SITUATIONS = st.sampled_from([(), ("liang_dao",), ("gang_shang_kai_hua", "hai_di_lao"), ("qiang_gang_hu",), ("gang_shang_pao", "liang_dao")])
RULES = st.builds(
    make_rules,
    st.sampled_from(sorted(PRESETS)),
    SITUATIONS,
    st.fixed_dictionaries({}, optional={o.key: st.sampled_from(o.values) for o in OPTIONS}),
)


@st.composite
def waiting_hands(draw: st.DrawFn) -> Hand:
    """A 13-tile hand, often ready: sets and a pair (some declared as melds) less one tile, or random tiles."""
    wall = list(draw(st.permutations(WALL)))
    counts = [0] * NUM_KINDS
    melds: list[Meld] = []
    if draw(st.booleans()):
        return Hand(tuple(sum(1 for k in wall[:13] if k == kind) for kind in range(NUM_KINDS)))
    shape = draw(st.sampled_from(["sets", "pairs"]))
    kinds = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=7, max_size=7))
    if shape == "pairs":
        for kind in kinds:
            if counts[kind] <= 2:
                counts[kind] += 2
    else:
        for kind in kinds[:4]:
            run = kind < 18 and kind % 9 <= 6 and draw(st.booleans())
            needed = (kind, kind + 1, kind + 2) if run else (kind,) * 3
            if any(counts[k] + needed.count(k) > COPIES for k in set(needed)):
                continue
            if not run and draw(st.integers(0, 3)) == 0:
                meld = Meld(draw(st.sampled_from(list(MeldType))), kind)
                if counts[kind] + meld.type.size > COPIES:  # a kong needs the kind's every copy
                    continue
                melds.append(meld)
                counts[kind] += meld.type.size  # held, removed below
                continue
            for k in needed:
                counts[k] += 1
        if counts[kinds[4]] <= 2:
            counts[kinds[4]] += 2
    concealed = list(counts)
    for m in melds:
        concealed[m.kind] -= m.type.size
    # fill up to 14 - 3·melds with wall tiles, then drop one
    target = 14 - 3 * len(melds)
    for k in wall:
        if sum(concealed) >= target:
            break
        if counts[k] < COPIES:
            counts[k] += 1
            concealed[k] += 1
    while sum(concealed) > target:
        k = max(range(NUM_KINDS), key=lambda k: concealed[k])
        concealed[k] -= 1
        counts[k] -= 1
    drop = draw(st.sampled_from([k for k in range(NUM_KINDS) if concealed[k]]))
    concealed[drop] -= 1
    return Hand(tuple(concealed), tuple(melds))


@settings(max_examples=400)
@given(waiting_hands(), RULES)
def test_score_win_equals_scoring_every_reading(hand, rules):
    wins = [k for k in range(NUM_KINDS) if hand.held[k] < COPIES]
    assert list(score_wins(hand, wins, rules)) == [score_by_readings(hand, k, rules) for k in wins]
    for k in wins:
        assert score_win(hand, k, rules) == score_by_readings(hand, k, rules)


@settings(max_examples=200)
@given(waiting_hands(), RULES)
def test_waits_are_the_winning_tiles_scored_by_definition(hand, rules):
    assert max(hand.held) <= COPIES, hand
    result = efficiency(hand, hand.held, rules)
    expected = [(k, score_by_readings(hand, k, rules)) for k in range(NUM_KINDS) if hand.held[k] < COPIES and is_complete(with_tile(hand.concealed, k), len(hand.melds))]
    assert [(w.kind, (w.self_draw, w.discard)) for w in result.waits] == expected
    if expected:
        left = tuple(COPIES - n for n in hand.held)
        if has_flat_extras(rules.options):  # town-rules.md §4: each side's amount, M + 坎 + 跑恰摸八 (+ the expected 马)
            worth = {k: side_money(v[0], hand, k, True, rules, left).amount + side_money(v[1], hand, k, False, rules, left).amount for k, v in expected}
        else:  # kwx-rules.md §4: the two totals
            worth = {k: v[0].total + v[1].total for k, v in expected}
        assert result.value == pytest.approx(sum(left[k] * worth[k] for k, _v in expected))


def test_the_generator_makes_ready_hands_with_melds():
    found = []

    @settings(max_examples=300, database=None)
    @given(waiting_hands())
    def collect(hand):
        found.append(hand)

    collect()
    ready = [h for h in found if efficiency(h, h.held, make_rules()).waits]
    assert len(ready) > len(found) // 4 and any(h.melds for h in ready)


def test_a_hand_no_player_can_hold_falls_back_to_the_definition():
    hand = Hand((5, 1, 1) + (0,) * 6 + (1, 1, 1, 1, 1, 1, 1, 1, 0) + (0, 0, 0))
    rules = make_rules()
    assert [score_win(hand, k, rules) for k in range(NUM_KINDS)] == [score_by_readings(hand, k, rules) for k in range(NUM_KINDS)]

"""The issue-9 model: hands worked out by hand, monotonicity, agreement with the plain ranking."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from kwx import build_hand
from kwx.errors import EngineError
from kwx.hand import ev
from kwx.hand.danger import dealing_in
from kwx.hand.efficiency import discard_options, efficiency
from kwx.hand.ev import (
    ASSUMPTIONS,
    DEFAULT_SAMPLES,
    MIN_SAMPLES,
    REQUEST_WORK,
    Budget,
    EVParams,
    ExactModel,
    better_outlook,
    compare_rankings,
    ev_best,
    evaluate_discards,
    evaluate_hand,
)
from kwx.hand.notation import parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.shapes import shanten
from kwx.hand.tiles import EMPTY, NUM_KINDS, TILE_IDS, Counts, Hand, add, kind_of
from tests.strategies import hands

STANDARD = make_rules("standard")
UNSEEN = 84 - 13  # nothing visible: every tile but your own 13 is unseen


def estimate(text: str, draws: int, **kwargs):
    hand, visible = build_hand(text)
    return evaluate_hand(hand, visible, STANDARD, EVParams(draws, **kwargs))


def close(a: float, b: Fraction | float) -> bool:
    return abs(a - float(b)) < 1e-12


# 4556p123789sZZZ waits only on 5p (卡五星 ×2 either way); 2 copies unseen of 71.
KA_WU = "4556p123789sZZZ"


def test_no_draws_left_is_ready_but_never_wins():
    e = estimate(KA_WU, 0)
    assert (e.ready_probability, e.win_probability, e.expected_score) == (1.0, 0.0, 0.0)


def test_one_draw_self_draw_only():
    # one draw, 2 of 71 win; it is the last tile: 卡五星 ×2 · 海底捞 ×2 = 4, paid by both others = 8
    e = estimate(KA_WU, 1, opponent_discard_rate=0.0)
    assert close(e.win_probability, Fraction(2, UNSEEN))
    assert close(e.expected_score, Fraction(2, UNSEEN) * 8)


def test_one_draw_with_two_opponent_discards_first():
    # each opponent turn throws one of the 2 copies with chance 0.5 · 2/71; a discard win pays 2 (卡五星)
    a = Fraction(1, 2) * Fraction(2, UNSEEN)
    own = Fraction(2, UNSEEN)
    win = a + (1 - a) * (a + (1 - a) * own)
    score = 2 * a + (1 - a) * (2 * a + (1 - a) * own * 8)
    e = estimate(KA_WU, 1)
    assert close(e.win_probability, win) and close(e.expected_score, score)


def test_two_draws_without_replacement():
    # a miss is a tile gone from the unseen pool: 2/71, then 2/70; the first win pays 2·2, the last 2·4
    e = estimate(KA_WU, 2, opponent_discard_rate=0.0)
    first, second = Fraction(2, UNSEEN), Fraction(UNSEEN - 2, UNSEEN) * Fraction(2, UNSEEN - 1)
    assert close(e.win_probability, first + second)
    assert close(e.expected_score, first * 4 + second * 8)


# 123p456p789s1234s waits on 1s and 4s, 3 copies each, no fan: 屁胡, so no discard win.
PING_HU = "123p456p789s1234s"


def test_pinghu_cannot_win_on_a_discard():
    e = estimate(PING_HU, 1, opponent_discard_rate=1.0)
    assert close(e.win_probability, Fraction(6, UNSEEN))
    assert close(e.expected_score, Fraction(6, UNSEEN) * 2 * 2)  # 海底捞 ×2, both pay


def test_liang_dao_doubles_and_a_discard_on_it_pays_double():
    # declared: every win ×2, so a discard win is allowed and the discarder pays 2V (包胡)
    quiet = estimate(PING_HU, 1, liang_dao=True)
    assert close(quiet.expected_score, Fraction(6, UNSEEN) * 4 * 2)  # 亮倒 ×2 · 海底捞 ×2, both pay
    a = Fraction(1, 2) * Fraction(6, UNSEEN)
    own = Fraction(6, UNSEEN)
    e = estimate(PING_HU, 1, liang_dao=True, liang_dao_discard_rate=0.5)
    assert close(e.win_probability, a + (1 - a) * (a + (1 - a) * own))
    assert close(e.expected_score, 4 * a + (1 - a) * (4 * a + (1 - a) * own * 8))


def test_one_shanten_with_one_draw_is_ready_by_its_effective_tiles():
    hand, visible = build_hand("4556p123789sZZF")
    result = efficiency(hand, add(hand.held, visible), STANDARD)
    e = estimate("4556p123789sZZF", 1)
    assert e.shanten == 1 and e.win_probability == 0.0
    assert close(e.ready_probability, Fraction(result.ukeire, UNSEEN))


def test_visible_tiles_shrink_the_pool():
    # two 5p visible: no copy left, so no win; the unseen total is 69
    e = estimate_visible = evaluate_hand(*build_hand(KA_WU, visible="55p"), STANDARD, EVParams(5))
    assert e.win_probability == 0.0 and estimate_visible.ready_probability == 1.0
    e = evaluate_hand(*build_hand(PING_HU, visible="1s"), STANDARD, EVParams(1, opponent_discard_rate=0.0))
    assert close(e.win_probability, Fraction(5, UNSEEN - 1))


def test_monte_carlo_agrees_with_the_exact_figures():
    hand, visible = build_hand("2345p123789sZZZ")  # waits 2p, 5p
    exact = evaluate_hand(hand, visible, STANDARD, EVParams(8))
    sampled = evaluate_hand(hand, visible, STANDARD, EVParams(8, samples=3000, exact_max_shanten=-1))
    assert exact.method == "exact" and sampled.method == "monte_carlo" and sampled.samples == 3000
    assert abs(sampled.win_probability - exact.win_probability) < 4 * sampled.win_stderr
    assert abs(sampled.expected_score - exact.expected_score) < 4 * sampled.score_stderr


def test_deep_hands_are_sampled_with_their_error():
    options = evaluate_discards(*build_hand("1p4p7p1s4s7sZFB258p9s3s"), STANDARD, 10, samples=200)
    assert {o.estimate.shanten for o in options} == {4}
    assert all(o.estimate.method == "monte_carlo" and o.estimate.samples == 200 for o in options)
    assert all(o.estimate.score_stderr is not None and o.estimate.score_stderr > 0 for o in options[:3])


def test_sampling_is_seeded():
    args = (*build_hand("1p4p7p1s4s7sZFB258p9s3s"), STANDARD, 10)
    assert evaluate_discards(*args, samples=100) == evaluate_discards(*args, samples=100)


def test_discards_ranked_by_shanten_then_expected_score():
    options = evaluate_discards(*build_hand("34556p123789sZZZ"), STANDARD, 12)
    keys = [(o.estimate.shanten, -o.estimate.expected_score) for o in options]
    assert keys == sorted(keys)
    assert options[0].discard == kind_of("3p")  # 卡五星 wait beats the wider 3p-6p waits over 12 draws
    assert ev_best(options) == (kind_of("3p"),)


def test_a_discard_that_deals_in_is_never_first():
    danger = dealing_in(build_hand("46p456s789sFFF11s")[0], STANDARD)
    options = evaluate_discards(*build_hand("34556p123789sZZZ", visible="46p456s789sFFF11s"), STANDARD, 12, danger=danger)
    assert danger == frozenset({kind_of("5p")})
    assert options[-1].discard == kind_of("5p") and options[-1].deals_in
    assert not any(o.deals_in for o in options[:-1])
    assert kind_of("5p") not in ev_best(options)


def test_sizes_and_draws_are_checked():
    with pytest.raises(EngineError) as err:
        evaluate_discards(*build_hand(KA_WU), STANDARD, 3)
    assert err.value.field == "hand"
    with pytest.raises(EngineError) as err:
        estimate(KA_WU, 31)
    assert err.value.field == "draws_left"
    with pytest.raises(EngineError) as err:
        estimate(KA_WU, 3, samples=0)
    assert err.value.field == "samples"
    with pytest.raises(EngineError) as err:
        estimate(KA_WU, 3, opponent_discard_rate=-0.1)
    assert err.value.field == "opponent_discard_rate"


def test_dealing_in_counts_a_pinghu_wait_because_liang_dao_doubles_it():
    assert dealing_in(build_hand(PING_HU)[0], STANDARD) == frozenset({kind_of("1s"), kind_of("4s")})


def test_dealing_in_refuses_a_hand_that_is_not_ready():
    with pytest.raises(EngineError) as err:
        dealing_in(build_hand("4556p123789sZZF")[0], STANDARD)
    assert err.value.field == "revealed"


def test_assumptions_are_written_in_both_languages():
    assert {a.key for a in ASSUMPTIONS} >= {"draws", "unseen", "discards", "score", "play", "method", "danger"}
    assert all(a.title and a.title_en and a.text and a.text_en for a in ASSUMPTIONS)


@settings(max_examples=40)
@given(counts=hands(13), draws=st.integers(0, 7))
def test_more_draws_never_lower_the_chances(counts, draws):
    assume(shanten(counts) <= 1)
    hand = Hand(counts)
    fewer = evaluate_hand(hand, EMPTY, STANDARD, EVParams(draws))
    more = evaluate_hand(hand, EMPTY, STANDARD, EVParams(draws + 1))
    assert more.win_probability >= fewer.win_probability - 1e-12
    assert more.ready_probability >= fewer.ready_probability - 1e-12


@st.composite
def near_complete(draw: st.DrawFn) -> tuple[int, ...]:
    """A complete two-suit hand with one tile swapped: 14 tiles with several ready discards."""
    counts = [0] * 21
    for _ in range(4):
        base = draw(st.sampled_from([0, 9]))
        if draw(st.integers(0, 3)):
            start = base + draw(st.integers(0, 6))
            group = [start, start + 1, start + 2]
        else:
            group = [draw(st.integers(0, 20))] * 3
        for k in group:
            counts[k] += 1
    counts[draw(st.integers(0, 17))] += 2
    out = draw(st.sampled_from([k for k in range(21) if counts[k]]))
    counts[out] -= 1
    counts[draw(st.integers(0, 17))] += 1
    assume(max(counts) <= 4)
    return tuple(counts)


@settings(max_examples=60, suppress_health_check=[HealthCheck.filter_too_much])
@given(counts=near_complete(), draws=st.integers(1, 12))
@example(counts=parse_tiles("12444888p678sZZZ"), draws=3)  # ready discards worth 3, 4 and 7
@example(counts=parse_tiles("2789p5677778sZZZ"), draws=12)
@example(counts=parse_tiles("6p2334567999sFFF"), draws=1)
@example(counts=parse_tiles("22223455556678s"), draws=8)  # 打二条 (19 live) wins more often, 打五条 (16) scores a little more
def test_ev_agrees_with_the_plain_ranking_when_every_wait_is_worth_the_same(counts, draws):
    """Every tile thrown leaves the same unseen tiles, so where each wait pays the same, more live copies win more often; and
    with one own draw left (the last tile: every self-draw a 海底捞) they score more too. With more draws an earlier win can
    forestall a 海底捞 that pays double, so the expected score may rank them the other way (the second example)."""
    hand = Hand(counts)
    plain = [o for o in discard_options(hand, EMPTY, STANDARD) if o.result.shanten == 0]
    sides = {(w.self_draw.total, w.discard.total, w.discard.allowed) for o in plain for w in o.result.waits}
    assume(len(plain) >= 2 and len(sides) == 1)
    ev = {o.discard: o.estimate for o in evaluate_discards(hand, EMPTY, STANDARD, draws)}
    for a in plain:
        for b in plain:
            if a.result.value > b.result.value:
                assert ev[a.discard].win_probability > ev[b.discard].win_probability
                assert draws > 1 or ev[a.discard].expected_score > ev[b.discard].expected_score
            elif a.result.value == b.result.value:
                assert abs(ev[a.discard].expected_score - ev[b.discard].expected_score) < 1e-9


def test_compare_rankings_finds_where_ev_and_effective_tiles_disagree():
    hand, visible = build_hand("34556p123789sZZZ")
    both = compare_rankings(hand, visible, STANDARD, 12)
    assert both.ev_best == (kind_of("3p"),)
    assert kind_of("3p") in both.plain_best  # 3p is also best by the §4 value: no drill here
    assert not both.differs
    assert [o.discard for o in both.plain_options] == [o.discard for o in discard_options(hand, visible, STANDARD)]


def test_compare_rankings_on_a_hand_where_they_differ():
    # discarding Z waits wider for less; keeping 4-6 for 卡五星 (discard 3p) waits on two copies for ×2.
    # With few draws the wider wait scores more, with many the win is likely anyway and ×2 pays.
    hand, visible = build_hand("34556p123789sZZZ")
    short = compare_rankings(hand, visible, STANDARD, 3)
    assert short.ev_best == (kind_of("Z"),) and short.plain_best == (kind_of("3p"),) and short.differs


def _play_out(model: ExactModel, start: Counts, discard: int, rng: random.Random) -> tuple[int, int, float]:
    """One hand played from a shuffled wall: real draws without replacement, the programme's own choices."""
    wall = [k for k in range(NUM_KINDS) for _ in range(model.unseen[k])]
    rng.shuffle(wall)
    counts, drawn, ready = start, [0] * NUM_KINDS, 0
    for i, tile in enumerate(wall[: model.draws]):
        shanten, kinds = model.status(counts)
        if shanten <= 0:
            ready = 1
            rows = model.waits(counts, kinds)
            for _turn in range(2):  # each opponent throws a given undrawn winning copy with chance r / unseen
                x = rng.random() * (model.total - i)
                for k, _, _, thrown, _ in rows:
                    if thrown >= 0:
                        x -= model.rate * (model.unseen[k] - drawn[k])
                        if x < 0:
                            return 1, 1, thrown
        drawn[tile] += 1
        if shanten <= 0:
            for k, own, last, _, _ in rows:
                if k == tile:
                    return 1, 1, last if i == model.draws - 1 else own
        elif tile in kinds:
            left = model.draws - i - 1
            choices = model.advances(counts, tile, shanten - 1)
            counts = choices[0]
            for after in choices[1:]:
                if better_outlook(model.value(after, discard)[left], model.value(counts, discard)[left]):
                    counts = after
    return (1 if ready or model.status(counts)[0] <= 0 else 0), 0, 0.0


def test_exact_figures_of_step_back_discards_agree_with_a_simulation():
    # Bank puzzle e00006. Discarding 4s or 5s steps back to 2-shanten; redrawing the thrown kind on the
    # way must leave one copy fewer unseen (the old pool, counted from the 14 tiles, showed 1.434 for 5s).
    text, visible, rules, draws = "344p11244566s[FFF]", "1158p57s", make_rules("shiyan"), 12
    hand, seen = build_hand(text, visible=visible)
    exact = {o.discard: o.estimate for o in evaluate_discards(hand, seen, rules, draws)}
    model = ExactModel(hand, seen, rules, EVParams(draws))
    rng, n = random.Random(20261201), 10_000
    step_back = [k for k, e in exact.items() if e.shanten > min(e.shanten for e in exact.values())]
    assert sorted(step_back) == [kind_of("4s"), kind_of("5s")]
    for kind in step_back:
        runs = [_play_out(model, hand.with_tile(kind, -1).concealed, kind, rng) for _ in range(n)]
        e = exact[kind]
        for figure, got in ((e.ready_probability, [r for r, _, _ in runs]), (e.win_probability, [w for _, w, _ in runs]), (e.expected_score, [s for _, _, s in runs])):
            mean = statistics.fmean(got)
            stderr = statistics.stdev(got) / math.sqrt(n)
            assert abs(mean - figure) < 3.5 * stderr + 1e-9, (TILE_IDS[kind], figure, mean, stderr)


class _PerDiscard(ExactModel):
    """The programme with a memo per discarded kind: no state shared between discards."""

    def value(self, counts, start=-1):
        key = (counts, start)
        if key not in self.memo:
            shanten, kinds = self.status(counts)
            ready = shanten <= 0
            self.memo[key] = self._ready(counts, kinds, start) if ready else self._improving(counts, shanten, kinds, start)
        return self.memo[key]


@settings(max_examples=15, deadline=None)
@given(counts=hands(14), draws=st.integers(1, 8))
def test_discards_sharing_the_memo_get_what_each_gets_alone(counts, draws):
    # states whose outlook cannot depend on the discarded kind are shared between the discards
    assume(min(shanten(tuple(c - (k == j) for k, c in enumerate(counts))) for j in range(NUM_KINDS) if counts[j]) <= 1)
    hand = Hand(counts)
    shared = ExactModel(hand, EMPTY, STANDARD, EVParams(draws))
    alone = _PerDiscard(hand, EMPTY, STANDARD, EVParams(draws))
    for kind in (k for k in range(NUM_KINDS) if counts[k]):
        start = hand.with_tile(kind, -1).concealed
        if shared.status(start)[0] <= 2:
            assert shared.value(start, kind) == alone.value(start, kind)


COSTLIEST = "13579p13579sZFB1p"  # 14 tiles, 3 and 4 from ready: the most work one request can ask for


def test_a_budget_bounds_the_work_and_reports_the_precision_it_got():
    budget = Budget(seconds=None)
    options = evaluate_discards(*build_hand(COSTLIEST), STANDARD, 30, liang_dao=True, budget=budget)
    assert budget.used <= REQUEST_WORK * 1.01 and budget.cut
    assert len(options) == 13
    for o in options:
        e = o.estimate
        assert e.method == "exact" or (MIN_SAMPLES <= e.samples < DEFAULT_SAMPLES and e.score_stderr > 0)
    assert [o.estimate.method for o in options[:6]] == ["exact"] * 6  # the fewest shanten are worked out first
    again = evaluate_discards(*build_hand(COSTLIEST), STANDARD, 30, liang_dao=True, budget=Budget(seconds=None))
    assert again == options  # work units, not the clock: the same request gets the same answer


def test_without_a_budget_or_within_one_nothing_changes():
    args = (*build_hand("34556p123789sZZZ"), STANDARD, 12)
    budget = Budget(seconds=None)
    assert evaluate_discards(*args, budget=budget) == evaluate_discards(*args) and not budget.cut
    assert 0 < budget.used < REQUEST_WORK


def test_the_cpu_backstop_stops_the_work_on_a_slow_machine():
    clock = iter(range(10**9))
    budget = Budget(work=10**9, seconds=0.05, clock=lambda: next(clock) * 0.01)  # 10 ms per look at the clock
    options = evaluate_discards(*build_hand(COSTLIEST), STANDARD, 30, budget=budget)
    assert budget.cut and budget.timed_out and budget.used < REQUEST_WORK
    assert all(o.estimate.method == "monte_carlo" and o.estimate.samples == MIN_SAMPLES for o in options[6:])


@pytest.mark.parametrize("text", ["4556p123789sZZZ", "2345p123789sZZZ", PING_HU, "4556p123789sZZF"])
def test_the_sampler_ranks_ready_hands_by_the_section_4_value(text):
    # the plain ranking it follows: §4 value (copies left × (self-draw total + discard total)), then effective tiles
    hand, visible = build_hand(text)
    result = efficiency(hand, add(hand.held, visible), STANDARD)
    sampler = ev.SampledModel(hand, visible, STANDARD, EVParams(6))
    value, ukeire = sampler._plain_key(hand.concealed, result.shanten, [0] * NUM_KINDS)
    assert (value if result.shanten == 0 else None, ukeire) == (result.value if result.shanten == 0 else None, result.ukeire)

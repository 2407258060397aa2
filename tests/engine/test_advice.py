"""Table-aware advice: worlds consistent with what the seat sees, rollouts, early stop and the budget."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.bots.basic import BasicBot
from kwx.hand.rules import make_rules
from kwx.hand.tiles import Hand, kind_of, with_tile
from kwx.table.advice import PASS, Margin, advise, sample_world
from kwx.table.record import replay
from kwx.table.selfplay import advance, seeded_deal
from kwx.table.table import Action, deal
from kwx.table.view import view_for
from tests.engine.test_selfplay import Person, tiles_on_the_table
from tests.engine.test_table import record


def basic_seats():
    bot = BasicBot()
    return [bot, bot, bot]


def position(seed: int, decisions: int):
    """A state where seat 0 must choose after ``decisions`` choices played as the basic bot would."""
    d = seeded_deal(seed, seed % 3)
    state = deal(d.hands, d.dealer, make_rules(), d.wall)
    bot = BasicBot()
    answer = None
    for _ in range(decisions + 1):
        state, _taken, over = advance(state, [Person(answer), bot, bot])
        if over:
            return None
        view = view_for(state, 0)
        if state.phase in ("act", "pong"):
            answer = bot.act(view)
        else:
            answer = bot.claim(view) or "pass"
    return state


@settings(max_examples=25)
@given(seed=st.integers(0, 10**6), stop=st.integers(0, 8), world_seed=st.integers(0, 10**6))
def test_a_world_keeps_what_the_seat_sees_and_deals_the_rest_anew(seed, stop, world_seed):
    state = position(seed, stop)
    if state is None:
        return
    world = sample_world(view_for(state, 0), random.Random(world_seed))
    assert tiles_on_the_table(world) == 84
    assert world.seats[0] == state.seats[0]
    assert view_for(world, 0).seen == view_for(state, 0).seen
    for a, b in zip(world.seats, state.seats):
        assert (a.river, a.melds, a.liang_dao, sum(a.concealed)) == (b.river, b.melds, b.liang_dao, sum(b.concealed))
    assert world.wall_left == state.wall_left and world.drawn == state.drawn
    assert max(world.dealt) <= 4


def test_worlds_differ_only_in_hidden_tiles():
    state = position(3, 2)
    worlds = {sample_world(view_for(state, 0), random.Random(s)).seats[1].concealed for s in range(5)}
    assert len(worlds) > 1


def test_dealing_into_a_revealed_hand_is_estimated_worse_than_a_safe_tile():
    # seat 1 has declared 亮倒 waiting on 5p; seat 2 (to advise) holds 5p and a useless Z
    hands = ("12378pZZBB1239s", "46p12345678sFFZ", "599p124689sBBFF")
    state = replay(record(hands, "0d3s 0x3s 1d9s 1!Z 2d6s")).final
    assert state.phase == "act" and state.turn == 2
    advice = advise(view_for(state, 2), basic_seats, seed=5, cpu_budget=float("inf"), max_worlds=12, min_worlds=12)
    by_tile = {e.action.tile: e for e in advice.estimates if e.action and e.action.verb == "discard" and not e.action.liang_dao}
    assert by_tile["5p"].mean < by_tile["F"].mean - 1
    assert advice.worlds == 12 and all(e.rollouts == 12 for e in advice.estimates)


def test_the_same_seed_gives_the_same_advice():
    state = position(8, 3)
    a = advise(view_for(state, 0), basic_seats, seed=2, cpu_budget=float("inf"), max_worlds=6, min_worlds=6)
    b = advise(view_for(state, 0), basic_seats, seed=2, cpu_budget=float("inf"), max_worlds=6, min_worlds=6)
    assert a.estimates == b.estimates


def test_the_cpu_budget_stops_the_rollouts():
    state = position(8, 3)
    ticks = itertools.count(0, 0.6)  # each look at the clock: 0.6 s more
    advice = advise(view_for(state, 0), basic_seats, seed=2, cpu_budget=0.5, clock=lambda: next(ticks))
    assert advice.worlds == 2 and not advice.clear


@pytest.mark.parametrize("looks", [0, 1, 3, 7])
def test_a_request_budget_is_looked_at_before_every_rollout_the_first_ones_too(looks):
    from kwx.hand.ev import Budget

    state = position(8, 3)
    ticks = itertools.count()  # the budget's clock: 1 s per look; made at 0, it runs out after ``looks`` more looks
    budget = Budget(seconds=looks + 0.5, clock=lambda: float(next(ticks)))
    played = []

    def seats():
        played.append(1)
        return basic_seats()

    advice = advise(view_for(state, 0), seats, seed=2, cpu_budget=float("inf"), budget=budget)
    assert len(played) == looks and budget.timed_out  # one rollout per look, none after it ran out
    per_world = len(view_for(state, 0).decision.choices)
    assert advice.worlds == looks // per_world and all(e.rollouts == advice.worlds for e in advice.estimates)


def test_a_claim_includes_passing():
    hands = ("123557pZZBBF19s", "46p123456789sFF", "11589p23468sZBB")
    state = replay(record(hands, "0d9p 0x5p")).final
    options = view_for(state, 1).decision.choices
    assert PASS in options and Action(1, "win", kind_of("5p")) in options
    assert view_for(state, 2).decision.choices == ()


def test_the_advice_bot_switches_only_on_clear_evidence():
    from kwx.bots.advised import clearly_better
    from kwx.table.advice import Advice, ChoiceWorth

    prior, other = Action(0, "discard", 1), Action(0, "discard", 2)

    def made(prior_values, other_values):
        est = sorted(
            [ChoiceWorth(prior, sum(prior_values) / 4, 0.0, 4), ChoiceWorth(other, sum(other_values) / 4, 0.0, 4)],
            key=lambda e: -e.mean,
        )
        return Advice(0, tuple(est), 4, False, 0.0, ((prior, tuple(prior_values)), (other, tuple(other_values))))

    assert clearly_better(made([0, 0, 0, 0], [3, 2, 3, 4]), prior) == other  # better in every world
    assert clearly_better(made([0, 0, 0, 0], [9, -8, 9, -7]), prior) == prior  # better on average, by noise
    assert clearly_better(made([5, 5, 5, 5], [0, 0, 0, 0]), prior) == prior
    assert clearly_better(made([0, 0, 0, 0], [0.3, 0.2, 0.3, 0.4]), prior) == prior  # clear but too small (SWITCH: half a stake)
    assert clearly_better(made([0, 0, 0, 0], [0.3, 0.2, 0.3, 0.4]), prior, Margin(2.0)) == other


def test_the_work_budget_stops_the_rollouts_the_same_way_everywhere():
    state = position(8, 3)
    runs = [advise(view_for(state, 0), basic_seats, seed=4, cpu_budget=float("inf"), max_actions=1) for _ in range(2)]
    assert runs[0].worlds == runs[1].worlds == 2 and runs[0].estimates == runs[1].estimates


def test_a_world_in_the_rob_phase_holds_nothing_of_the_kong_adders_real_hand():
    state = position(135, 10)  # seat 0 may rob a 蓄杠 (抢杠)
    assert state.phase == "rob" and state.turn != 0 and state.tile is not None
    adder = state.turn
    other_waits = frozenset(range(9)) - state.seats[adder].ready_on
    told = replace(state, seats=tuple(replace(s, ready_on=other_waits) if i == adder else s for i, s in enumerate(state.seats)))
    for world_seed in range(5):
        world = sample_world(view_for(state, 0), random.Random(world_seed))
        assert world == sample_world(view_for(told, 0), random.Random(world_seed))  # the real waits do not reach the world
        dealt = world.seats[adder]
        assert dealt.concealed[state.tile] >= 1  # the tile being added is shown, so it is in every world
        assert dealt.ready_on == Hand(with_tile(dealt.concealed, state.tile, -1), dealt.melds).winning_kinds()


def test_ahead_only_when_the_best_beats_every_other_by_three_paired_standard_errors():
    from kwx.table.advice import Advice, ChoiceWorth, mean_se

    def advice(results):
        estimates = sorted((ChoiceWorth(a, *mean_se(v), len(v)) for a, v in results), key=lambda e: -e.mean)
        return Advice(0, tuple(estimates), len(results[0][1]), False, 0.0, tuple((a, tuple(v)) for a, v in results))

    noise = [4.0, -4.0, 0.0, 2.0, -2.0, 1.0, -1.0, 0.0]  # 8 worlds, five choices level at 0.00 ± 1.41
    tied = advice([(f"c{i}", noise[i:] + noise[:i]) for i in range(5)])  # the same results, in other worlds
    assert not tied.ahead() and tied.gaps()[0] == (0.0, 0.0)
    assert all(gap == 0 and se > 0.8 for gap, se in tied.gaps()[1:])
    ahead = advice([("a", [x + 3.0 for x in noise]), ("b", [x + 0.1 * (n % 2) for n, x in enumerate(noise)])])
    gap, se = ahead.gaps()[1]
    assert gap > 3 * se and ahead.ahead()  # the same worlds: the spread of the means does not hide a steady gap
    near = advice([("a", [x + 0.2 * (n % 2) for n, x in enumerate(noise)]), ("b", noise)])
    assert not near.ahead() and near.ahead(margin=Margin(0.5))
    few = advice([("a", [x + 3.0 for x in noise[:7]]), ("b", [x + 0.1 * (n % 2) for n, x in enumerate(noise[:7])])])
    assert not few.ahead() and few.ahead(Margin(3.0, deals=7))  # fewer worlds than a clear call needs: nothing is called


def test_one_margin_rule_with_named_instances_serves_every_caller():
    """The review, the analyzer, the bots and the drills all read "clearly better" from kwx.table.advice."""
    from analysis import table_advice
    from kwx import hand_review
    from kwx.bots.advised import AdvisedBot
    from kwx.bots.judge import JudgeBot
    from kwx.drills.table_drills import RULE
    from kwx.table import advice as rollouts

    assert RULE.margin is rollouts.CONFIRM and RULE.hopeless is rollouts.HOPELESS
    assert AdvisedBot().margin is JudgeBot().margin is rollouts.SWITCH
    assert (hand_review.COSTLY_MARGIN, hand_review.COSTLY_FLOOR) == (rollouts.COSTLY.sigmas, rollouts.COSTLY.money)
    assert table_advice.CLEAR is rollouts.CLEAR
    assert rollouts.CLEAR.clear(3.1, 1.0) and not rollouts.CLEAR.clear(2.9, 1.0) and not rollouts.CLEAR.clear(-5.0, 0.0)
    assert not rollouts.COSTLY.clear(0.49, 0.01) and rollouts.COSTLY.clear(0.5, 0.1)
    assert not rollouts.CLEAR.between([1.0] * 7, [0.0] * 7) and rollouts.CLEAR.between([1.0] * 8, [0.0] * 8)


def test_a_world_deals_the_triplets_a_later_declarer_keeps_face_down_from_tiles_nobody_holds_and_keeps_its_own():
    # seat 2 declares 亮倒 keeping 111p and 999s face down (半亮); seat 1, before it in the deal, is hidden
    hands = ("2345678p1238sBB", "2345678p4568sZZ", "111p234s567s999sF")
    data = record(hands, "0d5s 0x5s 1d9p 1x9p 2dZ 2!Z 0d3p", rules="yingcheng")
    data["actions"][5]["kou"] = ["1p", "9s"]
    state = replay(data).final
    assert state.seats[2].kou == {kind_of("1p"), kind_of("9s")} and not state.seats[1].liang_dao
    view = view_for(state, 0)
    kept = set()
    for seed in range(40):
        world = sample_world(view, random.Random(seed), progress=True)
        assert tiles_on_the_table(world) == 84
        wall = world.wall[world.drawn :]
        for k in range(21):  # every copy of every kind once: in a hand, a meld, a river or the wall
            placed = sum(s.concealed[k] + sum(m.type.size for m in s.melds if m.kind == k) + s.river.count(k) for s in world.seats)
            assert placed + wall.count(k) == 4, (seed, k)
        kept |= world.seats[2].kou
    assert len(kept) > 2  # the face-down triplets are dealt anew, not the real ones
    advice = advise(view, basic_seats, seed=1, cpu_budget=float("inf"), max_worlds=6, min_worlds=6)  # each settled
    assert advice.worlds == 6
    data["actions"].pop()  # just after the declaring discard: the declarer's own worlds keep its triplets face down
    declared = replay(data).final
    own = view_for(declared, 2)
    assert own.kou == declared.seats[2].kou and view.kou == frozenset()
    assert sample_world(own, random.Random(1)).seats[2] == declared.seats[2]

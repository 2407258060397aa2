"""Whole hands played by bots: tiles conserved, money balanced, records that replay to the same hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.bots.basic import BasicBot
from kwx.hand.rules import make_rules
from kwx.table.record import replay
from kwx.table.selfplay import Waiting, advance, play, seeded_deal
from kwx.table.settlement import settle
from kwx.table.table import WALL_AFTER_DEAL, Action, Table, deal
from kwx.table.view import SeatView, view_for


class RandomBot:
    """Any legal action, chosen by a seeded generator: reaches 亮倒, kongs, passes and robs."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        wins = [a for a in view.options if a.verb == "win"]
        return wins[0] if wins and self.rng.random() < 0.7 else self.rng.choice(view.options)

    def claim(self, view: SeatView) -> Action | None:
        return self.rng.choice(view.options + (None,))


def tiles_on_the_table(state: Table) -> int:
    """Concealed, melded and river tiles of every seat plus the wall still to draw."""
    held = sum(sum(s.concealed) + sum(m.type.size for m in s.melds) + len(s.river) for s in state.seats)
    return held + WALL_AFTER_DEAL - state.drawn


def check_hand(done) -> None:
    final = done.final
    assert tiles_on_the_table(final) == 84
    assert sum(done.settlement.nets) == 0
    again = replay(done.record.to_json())
    assert again.result == done.result
    assert again.settlement.nets == done.settlement.nets
    assert again.next_dealer == done.next_dealer
    assert [(k.seat, k.type, k.kind, k.chain) for k in again.final.kongs] == [(k.seat, k.type, k.kind, k.chain) for k in final.kongs]
    if done.result is not None:
        assert done.result in ("self_draw", "discard", "rob_kong", "draw")
        assert done.next_dealer in (0, 1, 2)
    for seat in range(3):
        assert max(view_for(final, seat).seen) <= 4


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2), rules=st.sampled_from(["standard", "xiangyang", "shiyan"]))
def test_random_play_is_legal_and_balanced(seed, dealer, rules):
    bots = [RandomBot(seed + i) for i in range(3)]
    check_hand(play(seeded_deal(seed, dealer), bots, rules=rules, piao=(seed % 3, 0, 5)))


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 2))
def test_basic_self_play_is_legal_balanced_and_deterministic(seed, dealer):
    bot = BasicBot()
    done = play(seeded_deal(seed, dealer), [bot, bot, bot])
    check_hand(done)
    assert play(seeded_deal(seed, dealer), [bot, bot, bot]).actions == done.actions


def test_every_result_kind_happens_in_random_play():
    results = set()
    for seed in range(400):
        done = play(seeded_deal(seed, seed % 3), [RandomBot(seed * 3 + i) for i in range(3)])
        results.add(done.result)
        if len(done.final.wins) == 2:
            results.add("double")
        if any(k.chain > 1 for k in done.final.kongs):
            results.add("chain")
        if done.final.liang_dao:
            results.add("liang_dao")
    assert {"self_draw", "discard", "draw", "liang_dao"} <= results, results


class Person:
    """A seat that answers only with what it was told, else waits (as the play page does)."""

    def __init__(self, choice=None):
        self.choice = choice

    def _answer(self, view, passing):
        if self.choice is None:
            raise Waiting(view.seat, view.options)
        choice, self.choice = self.choice, None
        return None if passing and choice == "pass" else choice

    def act(self, view):
        return self._answer(view, False)

    def claim(self, view):
        return self._answer(view, True)


def test_a_waiting_seat_stops_the_hand_and_resuming_plays_the_same_hand_as_straight_through():
    bot = BasicBot()
    straight = play(seeded_deal(7, 0), [bot, bot, bot])
    d = seeded_deal(7, 0)
    state = deal(d.hands, 0, make_rules(), d.wall)
    person = Person()
    taken: list = []
    while True:
        state, actions, over = advance(state, [person, bot, bot])
        taken.extend(actions)
        if over:
            break
        assert state.phase in ("act", "pong", "claim", "rob")
        # answer what the basic bot would have answered in the person's place
        view = view_for(state, 0)
        if state.phase in ("act", "pong"):
            person.choice = bot.act(view)
        else:
            person.choice = bot.claim(view) or "pass"
    assert tuple(taken) == straight.actions


def test_a_table_win_is_scored_once_and_settled_as_the_table_valued_it():
    played = [play(seeded_deal(seed, seed % 3), [BasicBot(), BasicBot(), BasicBot()], "xiaogan") for seed in range(12)]
    won = [r for r in played if r.states[-1].wins]
    assert won
    for r in won:
        final = r.states[-1]
        assert r.settlement.wins is final.wins  # the table's own valued wins, not scored again
        assert r.settlement.input.winners == tuple(w.winner for w in final.wins)
        assert all(not ({"liang_dao", "qiang_gang_hu"} & w.situation) for w in r.settlement.input.winners)
        assert settle(r.settlement.input) == r.settlement  # the calculator's way, scoring the winners, gives the same money

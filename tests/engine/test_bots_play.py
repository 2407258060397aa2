"""Whole hands played by the bots: legal choices, 84 tiles, zero-sum nets, records that replay, hidden tiles unread."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.hand.tiles import COPIES, NUM_KINDS, Hand
from kwx.table.record import record_json, replay
from kwx.table.selfplay import play, seeded_deal
from kwx.table.table import SEATS, Action, Table, legal_actions, winning_kinds

BOTS = {"basic": BasicBot(), "strong": StrongBot()}


def hidden_shuffled(state: Table, seat: int, rng: random.Random) -> Table:
    """The same table as ``seat`` sees it, with every tile it cannot see dealt again at random.

    The concealed tiles of the other seats that have not declared 亮倒 and the rest of the
    wall are pooled, shuffled and handed back in the same numbers.
    """
    hidden = [o for o in SEATS if o != seat and not state.seats[o].liang_dao]
    pool = [k for o in hidden for k in range(NUM_KINDS) for _ in range(state.seats[o].concealed[k])]
    assert state.wall is not None
    pool += list(state.wall[state.drawn :])
    rng.shuffle(pool)
    seats = list(state.seats)
    for o in hidden:
        size = sum(state.seats[o].concealed)
        counts = [0] * NUM_KINDS
        for k in pool[:size]:
            counts[k] += 1
        del pool[:size]
        hand = Hand(tuple(counts), seats[o].melds)
        seats[o] = replace(seats[o], concealed=hand.concealed, ready_on=winning_kinds(hand) if hand.tile_count == 13 else frozenset())
    wall = state.wall[: state.drawn] + tuple(pool)
    return replace(state, seats=(seats[0], seats[1], seats[2]), wall=wall)


class Checked:
    """A bot whose every choice is checked: among the options, the options all legal, and blind to hidden tiles."""

    def __init__(self, bot, rng: random.Random) -> None:
        self.bot, self.rng, self.calls = bot, rng, 0

    def _check(self, state: Table, seat: int, options: tuple[Action, ...], choice: Action | None, ask) -> None:
        self.calls += 1
        legal = legal_actions(state)
        assert all(o in legal for o in options)
        assert choice is None or choice in options
        if self.calls % 4 == 0:  # the same choice with every unseen tile elsewhere
            assert ask(hidden_shuffled(state, seat, self.rng), seat, options) == choice

    def act(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action:
        choice = self.bot.act(state, seat, options)
        self._check(state, seat, options, choice, self.bot.act)
        return choice

    def claim(self, state: Table, seat: int, options: tuple[Action, ...]) -> Action | None:
        choice = self.bot.claim(state, seat, options)
        self._check(state, seat, options, choice, self.bot.claim)
        return choice


def tiles_in_sight(state: Table) -> list[int]:
    """Every tile of the final state: concealed, melds, rivers and the undrawn wall, per kind."""
    counts = [0] * NUM_KINDS
    for s in state.seats:
        for k in range(NUM_KINDS):
            counts[k] += s.hand.held[k]
        for k in s.river:
            counts[k] += 1
    assert state.wall is not None
    for k in state.wall[state.drawn :]:
        counts[k] += 1
    return counts


@settings(max_examples=12)
@given(st.integers(0, 10**9), st.integers(0, 2), st.lists(st.sampled_from(sorted(BOTS)), min_size=3, max_size=3))
def test_bot_hands_are_legal_whole_and_replay(seed, dealer, names):
    rng = random.Random(seed)
    policies = [Checked(BOTS[n], rng) for n in names]
    hand = play(seeded_deal(seed, dealer), policies)
    final = hand.final
    assert hand.result is not None and final.is_over
    assert tiles_in_sight(final) == [COPIES] * NUM_KINDS
    assert sum(hand.settlement.nets) == 0
    again = replay(record_json(hand.header, hand.actions))
    assert again.result == hand.result
    assert again.settlement.nets == hand.settlement.nets
    assert [(w.seat, w.kind, w.value.total) for w in again.final.wins] == [(w.seat, w.kind, w.value.total) for w in final.wins]
    assert again.final.liang_dao == final.liang_dao and again.next_dealer == hand.next_dealer


def test_a_strong_hand_is_the_same_hand_every_time():
    deal = seeded_deal(7, 1)
    first = play(deal, [StrongBot(), BasicBot(), StrongBot()])
    second = play(deal, [StrongBot(), BasicBot(), StrongBot()])
    assert first.actions == second.actions and first.settlement.nets == second.settlement.nets

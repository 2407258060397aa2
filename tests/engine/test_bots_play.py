"""Whole hands played by the bots: legal choices, 84 tiles, zero-sum nets, records that replay, hidden tiles unread.

A bot sees the table only through a SeatView (blind by construction). The tests here check
both halves of that: the view of a seat is the same whatever the hidden tiles are (every
other seat's concealed tiles and the wall dealt again), and every choice of every decision
of a hand is the same when the bot is asked with a view read back from JSON — a view with no
table behind it at all, so no code path of the bot can reach a hidden tile.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kwx.bots.basic import BasicBot
from kwx.bots.companion import CompanionBot
from kwx.bots.judge import ALL_KINDS, BoostedJudgeBot, JudgeBot
from kwx.bots.strong import StrongBot
from kwx.hand.tiles import COPIES, NUM_KINDS, Hand
from kwx.table.record import replay
from kwx.table.selfplay import play, seeded_deal
from kwx.table.table import SEATS, Table, legal_actions
from kwx.table.view import SeatView, decision_for, view_for

BOTS = {"basic": BasicBot, "companion": CompanionBot, "strong": StrongBot, "judge": JudgeBot, "boosted": BoostedJudgeBot}


def hidden_shuffled(state: Table, seat: int, rng: random.Random) -> Table:
    """The same table as ``seat`` sees it, with every tile it cannot see dealt again at random.

    The concealed tiles of the other seats that have not declared 亮倒 and the rest of the
    wall are pooled, shuffled and handed back in the same numbers (a tile being added to a
    pong stays where it is: it is shown).
    """
    hidden = [o for o in SEATS if o != seat and not state.seats[o].liang_dao]
    shown = state.tile if state.phase == "rob" else None
    pool = []
    for o in hidden:
        counts = list(state.seats[o].concealed)
        if o == state.turn and shown is not None:
            counts[shown] -= 1
        pool += [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    assert state.wall is not None
    pool += list(state.wall[state.drawn :])
    rng.shuffle(pool)
    seats = list(state.seats)
    for o in hidden:
        size = sum(state.seats[o].concealed) - (o == state.turn and shown is not None)
        counts = [0] * NUM_KINDS
        for k in pool[:size]:
            counts[k] += 1
        del pool[:size]
        hand = Hand(tuple(counts), seats[o].melds)
        if o == state.turn and shown is not None:
            counts[shown] += 1
        seats[o] = replace(seats[o], concealed=tuple(counts), ready_on=hand.winning_kinds() if hand.tile_count == 13 else frozenset(), passed=0)
    wall = state.wall[: state.drawn] + tuple(pool)
    return replace(state, seats=(seats[0], seats[1], seats[2]), wall=wall)


class Checked:
    """A bot whose every choice is checked: allowed by its decision, and the same when a twin bot is asked with the view read back from JSON (no table behind it)."""

    def __init__(self, bot, twin) -> None:
        self.bot, self.twin, self.calls = bot, twin, 0

    def act(self, view: SeatView):
        choice = self.bot.act(view)
        assert choice is not None and view.decision.allows(choice)
        assert self.twin.act(SeatView.from_json(view.to_json())) == choice
        self.calls += 1
        return choice

    def claim(self, view: SeatView):
        choice = self.bot.claim(view)
        assert view.decision.allows(choice)
        if not view.wins:
            assert self.twin.claim(SeatView.from_json(view.to_json())) == choice
        self.calls += 1
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


def every_decision(states: tuple[Table, ...]):
    """(state, seat) of every decision a seat had in a hand's states (own turn or a claim)."""
    for state in states:
        if state.phase == "draw" or state.wins and state.wins[0].side == "self_draw":
            continue
        for seat in SEATS:
            if decision_for(state, seat).is_open:
                yield state, seat


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 2), st.lists(st.sampled_from(sorted(BOTS)), min_size=3, max_size=3))
@example(1040, 0, ["basic", "basic", "companion"])  # an 暗杠 of tiles already held: its view's JSON lost ``drawn``
def test_bot_hands_are_legal_whole_replay_and_blind(seed, dealer, names):
    rng = random.Random(seed)
    hand = play(seeded_deal(seed, dealer), [BOTS[n]() for n in names])
    final = hand.final
    assert hand.result is not None and final.is_over
    assert tiles_in_sight(final) == [COPIES] * NUM_KINDS
    assert sum(hand.settlement.nets) == 0
    again = replay(hand.record.to_json())
    assert again.result == hand.result
    assert again.settlement.nets == hand.settlement.nets
    assert [(w.seat, w.kind, w.value.total) for w in again.final.wins] == [(w.seat, w.kind, w.value.total) for w in final.wins]
    assert again.final.liang_dao == final.liang_dao and again.next_dealer == hand.next_dealer
    checked = 0
    for state, seat in every_decision(hand.states):
        if state.wins:
            continue  # the second win of 一炮双响: views after a win are not stored as JSON
        view = view_for(state, seat)
        legal = legal_actions(state)
        assert all(o in legal for o in view.options)
        assert view_for(hidden_shuffled(state, seat, rng), seat) == view  # nothing hidden reaches the view
        blind = SeatView.from_json(view.to_json())  # a view with no table behind it
        assert blind == view
        bot = BOTS[names[seat]]()
        ask = bot.act if state.phase in ("act", "pong") else bot.claim
        choice = ask(blind)
        assert view.decision.allows(choice)
        assert ask(view) == choice
        checked += 1
    assert checked > 0


def test_a_strong_hand_is_the_same_hand_every_time():
    deal = seeded_deal(7, 1)
    first = play(deal, [StrongBot(), BasicBot(), StrongBot()])
    second = play(deal, [StrongBot(), BasicBot(), StrongBot()])
    assert first.actions == second.actions and first.settlement.nets == second.settlement.nets


def small_judge() -> JudgeBot:
    """A judge with a tiny budget: the same code paths, a few rollouts a decision."""
    return JudgeBot(work=100, worlds=2, min_worlds=2, candidates=2, kinds=ALL_KINDS)


def test_the_judge_chooses_from_its_view_only_on_every_decision_of_a_hand():
    rng = random.Random(5)
    judge = small_judge()
    checked = Checked(judge, small_judge())
    hand = play(seeded_deal(41, 2), [CompanionBot(), checked, StrongBot()])
    assert hand.result is not None and checked.calls > 0
    assert any(d.kind != "plain" for d in judge.decisions)
    asked = 0
    for state, seat in every_decision(hand.states):
        if seat != 1 or state.wins:
            continue
        # every tile the judge cannot see dealt again: its view (all it is given) is the same
        assert view_for(hidden_shuffled(state, seat, rng), seat) == view_for(state, seat)
        asked += 1
    assert asked == checked.calls

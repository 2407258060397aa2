"""Twenty players at their tables at once, each move sent twice, and two tabs pressing the same button together.

Every client is its own Django test client in its own thread with its own database
connection (SQLite as a server runs it: one writer at a time, IMMEDIATE transactions);
on PostgreSQL the hand's row lock (select_for_update) is real.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client

from kwx.bots.registry import policy_factory
from kwx.table import seats
from kwx.table.record import replay
from kwx.table.view import decision_for
from play.forms import parse_choice
from play.models import Game, Hand
from tests.concurrency import run_together
from tests.play.helpers import move_for

pytestmark = pytest.mark.django_db(transaction=True)
PLAYERS = 20


def _seen(client: Client, game_id: int) -> int:
    page = client.get(f"/play/{game_id}/").content.decode()
    return int(re.search(r'name="seen" value="(\d+)"', page).group(1))


def _person_moves(hand: Hand) -> int:
    """The person's decisions the record holds: each state before an action where seat 0 had a choice
    (a second win on the same discard is applied with the first, so states after a win do not count)."""
    states = seats.replayed(hand.kwx_record).states
    return sum(1 for state in states[:-1] if decision_for(state, 0).is_open and not state.wins)


def test_twenty_players_at_once_lose_no_action_and_count_a_double_submit_once():
    sent: dict[int, int] = {}

    def player_job(i: int) -> None:
        client = Client()
        response = client.post("/play/", {"level": "strong" if i % 2 else "basic", "rules": "standard", "base": "1", "piao": "0"})
        assert response.status_code == 302, response.status_code
        game_id = int(response["Location"].strip("/").split("/")[-1])
        moves = 0
        for _ in range(120):
            hand = Game.objects.get(pk=game_id).hands.get()
            if hand.over:
                break
            body = {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)}
            first = client.post(f"/play/{game_id}/", body)
            again = client.post(f"/play/{game_id}/", body)  # the double submit
            assert first.status_code == again.status_code == 302
            moves += 1
        sent[game_id] = moves

    errors = run_together([lambda i=i: player_job(i) for i in range(PLAYERS)])
    assert not errors, errors
    assert len(sent) == PLAYERS
    for game_id, moves in sent.items():
        hand = Game.objects.get(pk=game_id).hands.get()
        assert hand.over
        done = replay(hand.record)  # a legal hand, every action in order
        assert done.result == hand.result and list(done.settlement.nets) == hand.nets
        assert _person_moves(hand) == moves  # each move sent (twice) is in the record exactly once


def test_two_tabs_pressing_the_same_button_at_once_apply_it_once():
    owner = Client()
    response = owner.post("/play/", {"level": "basic", "rules": "standard", "base": "1", "piao": "0"})
    game_id = int(response["Location"].strip("/").split("/")[-1])
    hand = Game.objects.get(pk=game_id).hands.get()
    body = {"hand": hand.pk, "seen": hand.action_count, "move": move_for(hand)}
    tabs = []
    for _ in range(6):  # six tabs of the same session
        tab = Client()
        tab.cookies = owner.cookies
        tabs.append(tab)
    statuses: list[int] = []
    errors = run_together([lambda t=t: statuses.append(t.post(f"/play/{game_id}/", body).status_code) for t in tabs])
    assert not errors and statuses == [302] * 6
    after = Game.objects.get(pk=game_id).hands.get()
    one_tab = Client()
    one_tab.cookies = owner.cookies
    expected = hand.record["actions"]
    # the same move applied once: replaying it alone gives the stored record
    done, _over = seats.play_on(seats.replayed(hand.kwx_record, hand.seed), policy_factory("basic")(), parse_choice(body["move"]))
    assert after.record["actions"] == done.record.to_json()["actions"]
    assert len(after.record["actions"]) > len(expected)
    assert _seen(one_tab, game_id) == after.action_count

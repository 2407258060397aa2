"""Play selectors: what one may see of games, hands and review items."""

from __future__ import annotations

import pytest

from accounts.models import Player
from play import selectors, services

pytestmark = pytest.mark.django_db


def test_another_players_hand_game_and_item_are_not_found():
    me, other = Player.objects.create(), Player.objects.create()
    game = services.start_game(player=me, level="basic", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    for lookup in (lambda: selectors.game_for(other, game.pk), lambda: selectors.hand_for(other, hand.pk), lambda: selectors.game_for(None, game.pk), lambda: selectors.shared_hand("")):
        assert lookup() is None
    assert selectors.game_for(me, game.pk) == game and selectors.hand_for(me, hand.pk) == hand


def test_the_review_reads_its_step_and_asks_an_item_only_where_a_decision_is():
    me = Player.objects.create()
    hand = services.start_game(player=me, level="basic", rules="standard", base=1, piao=0).hands.get()
    reads = selectors.review_reads(hand, "", "", False)
    assert reads.step == hand.action_count and not reads.asked and reads.item is None and reads.branches == [] and reads.status["state"] == hand.review_state
    assert selectors.review_reads(hand, "0", "", False).step == 0 and selectors.review_reads(hand, "99999", "", False).step == hand.action_count
    asked = selectors.review_reads(hand, "0", "7", False)
    assert asked.asked and asked.item is None  # no review done: no item is asked at any step
    assert not selectors.review_reads(hand, "0", "7", True).asked  # a shared page never asks
    assert selectors.finished_hands(hand.game) == []

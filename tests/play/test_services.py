"""Play services: a game from the first deal to the next hand, stale and repeated actions, uploads, sharing, merging."""

from __future__ import annotations

import json

import pytest

from accounts.models import Player
from accounts.services import merge_players
from kwx.hand.tiles import TILE_IDS
from kwx.table import seats
from kwx.table.record import replay
from play import forms, review_work, services
from play.models import Game, Hand, ReviewItem
from play.services import PlayError

from .helpers import SHORT_DEALS, move_for, upload

pytestmark = [pytest.mark.django_db, pytest.mark.deals(SHORT_DEALS)]
"""The games here deal from ``SHORT_DEALS`` on, the person dealing first: a random deal could end before the person's first
decision (a bot's win), and a test that answers that decision then failed (a fresh run's PostgreSQL half did)."""


def play_out(player: Player, game: Game) -> Hand:
    """Answer every decision of the game's current hand until it is over."""
    hand = game.hands.order_by("-number").first()
    while not hand.over:
        hand, changed, _state = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(move_for(hand)), hand_id=hand.pk)
        assert changed
    return hand


def test_a_game_plays_a_hand_to_its_settlement_and_the_record_replays_to_it():
    player = Player.objects.create()
    game = services.start_game(player=player, level="strong", rules="standard", base=2, piao=1)
    hand = game.hands.get()
    assert hand.seed is not None and hand.record["piao"] == [1, 0, 0] and hand.record["base"] == 2
    hand = play_out(player, game)
    done = replay(hand.record)
    assert done.result == hand.result and list(done.settlement.nets) == hand.nets and sum(hand.nets) == 0
    assert hand.next_dealer == done.next_dealer
    assert set(hand.bot_result) == {"won", "dealt_in", "liang_dao", "net"}


def test_the_next_hand_is_dealt_by_the_next_dealer_once_and_takes_the_new_piao():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    first = play_out(player, game)
    second = services.next_hand(player=player, game_id=game.pk, number=first.number, piao=5)
    again = services.next_hand(player=player, game_id=game.pk, number=first.number, piao=5)  # the same form sent twice
    assert second.pk == again.pk and game.hands.count() == 2
    assert second.record["dealer"] == first.next_dealer and second.record["piao"] == [5, 0, 0]
    if not second.over:  # the new hand is not over: asking for a third changes nothing
        assert services.next_hand(player=player, game_id=game.pk, number=second.number, piao=0).pk == second.pk


def test_a_stale_or_repeated_action_changes_nothing():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    seen = hand.action_count
    move = forms.parse_choice(move_for(hand))
    after, changed, done = services.act(player=player, game_id=game.pk, seen=seen, choice=move, hand_id=hand.pk)
    assert changed and after.action_count > seen
    assert seats.replayed(after.kwx_record, after.seed).final == done.final  # the table it returns is the stored one
    again, changed_again, none = services.act(player=player, game_id=game.pk, seen=seen, choice=move, hand_id=hand.pk)  # a double submit
    assert not changed_again and none is None and again.record == after.record
    old, changed_old, _none = services.act(player=player, game_id=game.pk, seen=0, choice=move, hand_id=hand.pk)
    assert not changed_old and old.record == after.record
    with pytest.raises(services.StaleHand):  # another hand's page, whatever its count
        services.act(player=player, game_id=game.pk, seen=after.action_count, choice=move, hand_id=after.pk + 1)
    with pytest.raises(services.StaleHand):  # a page that named no hand
        services.act(player=player, game_id=game.pk, seen=after.action_count, choice=move, hand_id=None)
    unread, changed_unread, _none = services.act(player=player, game_id=game.pk, seen=None, choice=move, hand_id=after.pk)  # a count the form could not read
    assert not changed_unread and unread.record == after.record
    assert Hand.objects.get(pk=after.pk).record == after.record


def test_a_choice_the_table_does_not_offer_is_refused_and_changes_nothing():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    state = seats.replayed(hand.kwx_record, hand.seed).final
    held = {k for k in range(21) if state.seats[0].concealed[k]}
    missing = next(k for k in range(21) if k not in held)
    with pytest.raises(PlayError):
        verb = "pong" if state.phase in ("claim", "rob") else "discard"
        services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(f"{verb} {TILE_IDS[missing]}"), hand_id=hand.pk)
    assert Hand.objects.get(pk=hand.pk).record == hand.record


def test_another_players_game_is_not_found():
    me, other = Player.objects.create(), Player.objects.create()
    game = services.start_game(player=me, level="basic", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    with pytest.raises(Game.DoesNotExist):
        services.act(player=other, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice("pass"), hand_id=hand.pk)
    with pytest.raises(Game.DoesNotExist):
        services.next_hand(player=other, game_id=game.pk, number=1, piao=0)
    with pytest.raises(Hand.DoesNotExist):
        services.share(player=other, hand_id=hand.pk)


def test_an_uploaded_record_is_stored():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    hand = play_out(player, game)
    text = json.dumps(hand.record)
    stored = upload(player, text, 1)
    assert stored.source == Hand.UPLOAD and stored.seat == 1 and stored.over and stored.nets == hand.nets


def test_share_gives_one_unguessable_token():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    hand = game.hands.get()
    token = services.share(player=player, hand_id=hand.pk).share_token
    assert len(token) >= 20 and services.share(player=player, hand_id=hand.pk).share_token == token


def test_merging_a_session_moves_its_games_hands_and_review_items():
    anonymous, account = Player.objects.create(), Player.objects.create()
    game = services.start_game(player=anonymous, level="basic", rules="standard", base=1, piao=0)
    hand = play_out(anonymous, game)
    from kwx import hand_review

    method = hand_review.Method("strong", 30)
    figures = hand_review.review_hand(hand_review.Reviewed.from_json(hand.record), 0, method)
    figures["decisions"][0]["costly"] = True  # at least one item to move
    review_work.store_review(hand=hand, figures=figures)
    merged = merge_players(source=anonymous, target=account)
    assert Game.objects.get(pk=game.pk).player_id == merged.pk
    assert Hand.objects.get(pk=hand.pk).player_id == merged.pk
    assert ReviewItem.objects.filter(player=merged).count() >= 1


def test_answer_review_judges_the_choice_against_the_figures_and_moves_the_item():
    from datetime import UTC, datetime

    from puzzles.review import review as fsrs_review

    player, other = Player.objects.create(), Player.objects.create()
    hand = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0).hands.get()
    options = [{"verb": "discard", "tile": "5p", "liang_dao": False, "clear": False}, {"verb": "discard", "tile": "1s", "liang_dao": False, "clear": True}]
    Hand.objects.filter(pk=hand.pk).update(review={"decisions": [{"step": 3, "options": options}]}, review_state=Hand.DONE)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    card, due = fsrs_review(None, False, now)
    item = ReviewItem.objects.create(player=player, hand=hand, step=3, cost=1.0, card=card, due=due)
    right = services.answer_review(player=player, item_id=item.pk, choice=forms.parse_choice("discard 5p"), now=now)
    assert right.correct is True and right.item.due > now
    wrong = services.answer_review(player=player, item_id=item.pk, choice=forms.parse_choice("discard 1s"), now=now)
    assert wrong.correct is False and ReviewItem.objects.get(pk=item.pk).due == fsrs_review(right.item.card, False, now)[1]
    assert services.answer_review(player=player, item_id=item.pk, choice=None, now=now).correct is False
    Hand.objects.filter(pk=hand.pk).update(review_state=Hand.RUNNING)  # worked out again: nothing to judge by
    before = ReviewItem.objects.get(pk=item.pk)
    unjudged = services.answer_review(player=player, item_id=item.pk, choice=forms.parse_choice("discard 5p"), now=now)
    assert unjudged.correct is None and ReviewItem.objects.get(pk=item.pk).card == before.card
    with pytest.raises(ReviewItem.DoesNotExist):
        services.answer_review(player=other, item_id=item.pk, choice=None)

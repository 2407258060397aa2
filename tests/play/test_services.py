"""Play services: a game from the first deal to the next hand, stale and repeated actions, uploads, sharing, merging."""

from __future__ import annotations

import json

import pytest

from kwx.hand.tiles import TILE_IDS
from kwx.table.record import replay
from play import seats, services
from play.models import Game, Hand, ReviewItem
from play.services import PlayError
from puzzles.models import Player
from puzzles.services import merge_players

from .helpers import move_for

pytestmark = pytest.mark.django_db


def play_out(player: Player, game: Game) -> Hand:
    """Answer every decision of the game's current hand until it is over."""
    hand = game.hands.order_by("-number").first()
    while not hand.over:
        hand, changed, _state = services.act(player, game.pk, hand.action_count, services.parse_choice(move_for(hand)))
        assert changed
    return hand


def test_a_game_plays_a_hand_to_its_settlement_and_the_record_replays_to_it():
    player = Player.objects.create()
    game = services.start_game(player, "strong", "standard", "2", "1")
    hand = game.hands.get()
    assert hand.seed is not None and hand.record["piao"] == [1, 0, 0] and hand.record["base"] == 2
    hand = play_out(player, game)
    done = replay(hand.record)
    assert done.result == hand.result and list(done.settlement.nets) == hand.nets and sum(hand.nets) == 0
    assert hand.next_dealer == done.next_dealer
    assert set(hand.bot_result) == {"won", "dealt_in", "liang_dao", "net"}


def test_the_next_hand_is_dealt_by_the_next_dealer_once_and_takes_the_new_piao():
    player = Player.objects.create()
    game = services.start_game(player, "basic", "standard", "1", "0")
    first = play_out(player, game)
    second = services.next_hand(player, game.pk, first.number, "5")
    again = services.next_hand(player, game.pk, first.number, "5")  # the same form sent twice
    assert second.pk == again.pk and game.hands.count() == 2
    assert second.record["dealer"] == first.next_dealer and second.record["piao"] == [5, 0, 0]
    if not second.over:  # the new hand is not over: asking for a third changes nothing
        assert services.next_hand(player, game.pk, second.number, "0").pk == second.pk


def test_a_stale_or_repeated_action_changes_nothing():
    player = Player.objects.create()
    game = services.start_game(player, "basic", "standard", "1", "0")
    hand = game.hands.get()
    seen = hand.action_count
    move = services.parse_choice(move_for(hand))
    after, changed, done = services.act(player, game.pk, seen, move)
    assert changed and after.action_count > seen
    assert seats.replayed(after.record, after.seed).final == done.final  # the table it returns is the stored one
    again, changed_again, none = services.act(player, game.pk, seen, move)  # a double submit
    assert not changed_again and none is None and again.record == after.record
    old, changed_old, _none = services.act(player, game.pk, "0", move)
    assert not changed_old and old.record == after.record
    with pytest.raises(services.StaleHand):  # another hand's page, whatever its count
        services.act(player, game.pk, after.action_count, move, hand_id=after.pk + 1)
    assert Hand.objects.get(pk=after.pk).record == after.record


def test_a_choice_the_table_does_not_offer_is_refused_and_changes_nothing():
    player = Player.objects.create()
    game = services.start_game(player, "basic", "standard", "1", "0")
    hand = game.hands.get()
    state = seats.replayed(hand.record, hand.seed).final
    held = {k for k in range(21) if state.seats[0].concealed[k]}
    missing = next(k for k in range(21) if k not in held)
    with pytest.raises(PlayError):
        verb = "pong" if state.phase in ("claim", "rob") else "discard"
        services.act(player, game.pk, hand.action_count, services.parse_choice(f"{verb} {TILE_IDS[missing]}"))
    assert Hand.objects.get(pk=hand.pk).record == hand.record


@pytest.mark.parametrize("move", ["", "discard", "discard 9z", "pong 5p extra", "draw 5p", "discard 5p xx"])
def test_a_malformed_move_names_the_move(move):
    with pytest.raises(PlayError) as exc:
        services.parse_choice(move)
    assert exc.value.field == "move"


def test_another_players_game_is_not_found():
    me, other = Player.objects.create(), Player.objects.create()
    game = services.start_game(me, "basic", "standard", "1", "0")
    hand = game.hands.get()
    with pytest.raises(Game.DoesNotExist):
        services.act(other, game.pk, hand.action_count, services.parse_choice("pass"))
    with pytest.raises(Game.DoesNotExist):
        services.next_hand(other, game.pk, 1, "0")
    with pytest.raises(Hand.DoesNotExist):
        services.share(other, hand.pk)


@pytest.mark.parametrize(
    "field,values",
    [
        ("level", ("expert", "standard", "1", "0")),
        ("level", ("advice", "standard", "1", "0")),
        ("rules", ("basic", "riichi", "1", "0")),
        ("base", ("basic", "standard", "0", "0")),
        ("base", ("basic", "standard", "²", "0")),
        ("piao", ("basic", "standard", "1", "3")),
    ],
)
def test_bad_settings_name_their_field(field, values):
    with pytest.raises(PlayError) as exc:
        services.start_game(Player.objects.create(), *values)
    assert exc.value.field == field


def test_an_uploaded_record_is_stored_and_a_bad_one_names_the_action_at_fault():
    player = Player.objects.create()
    game = services.start_game(player, "basic", "standard", "1", "0")
    hand = play_out(player, game)
    text = json.dumps(hand.record)
    stored = services.upload(player, text, "1")
    assert stored.source == Hand.UPLOAD and stored.seat == 1 and stored.over and stored.nets == hand.nets
    bad = dict(hand.record, actions=list(hand.record["actions"]))
    bad["actions"][3] = {"seat": (bad["actions"][3]["seat"] + 1) % 3, **{k: v for k, v in bad["actions"][3].items() if k != "seat"}}
    with pytest.raises(PlayError) as exc:
        services.upload(player, json.dumps(bad))
    assert exc.value.action == 3 and "3" in str(exc.value.message)
    with pytest.raises(PlayError) as exc:
        services.upload(player, "{not json")
    assert exc.value.field == "record"


def test_share_gives_one_unguessable_token():
    player = Player.objects.create()
    game = services.start_game(player, "basic", "standard", "1", "0")
    hand = game.hands.get()
    token = services.share(player, hand.pk).share_token
    assert len(token) >= 20 and services.share(player, hand.pk).share_token == token


def test_merging_a_session_moves_its_games_hands_and_review_items():
    anonymous, account = Player.objects.create(), Player.objects.create()
    game = services.start_game(anonymous, "basic", "standard", "1", "0")
    hand = play_out(anonymous, game)
    from play import review

    method = review.Method("strong", 30)
    figures = review.review_hand(hand.record, 0, review.policies(method.policy), method)
    figures["decisions"][0]["costly"] = True  # at least one item to move
    services.store_review(hand, figures)
    merged = merge_players(anonymous, account)
    assert Game.objects.get(pk=game.pk).player_id == merged.pk
    assert Hand.objects.get(pk=hand.pk).player_id == merged.pk
    assert ReviewItem.objects.filter(player=merged).count() >= 1

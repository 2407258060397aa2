"""Play under a town (issue 35 item 6): the game stores its preset and every resolved option, each hand's record carries
them (and the dice of 上楼 from the wall's seed), and the table from the person's chair says what the town's rules do.

The seeded deals below were found by playing seeds 1, 2, 3 … with ``kwx.table.selfplay.play``, the person's seat
answering as the keyboard e2e does (win when offered, pass every claim, discard the drawn tile: ``Keys``), the other
seats the named bots, the dealer ``seed % 3``, and keeping the first seeds where the situation arises.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation

from accounts.models import Player
from kwx.hand.notation import parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.tiles import KIND_OF_ID, TILE_IDS
from kwx.rules import PRESETS, record_options
from kwx.table.record import replay
from kwx.table.selfplay import seeded_deal
from kwx.table.table import Action, IllegalAction, apply, check, deal, forced_kong
from kwx.table.view import decision_for
from kwx_site.text import tile_label
from play import forms, presenter, services
from play.models import Game, Hand
from settlement.text import error_text, kind_text, payment_words

from .helpers import keys_hand, move_for

pytestmark = pytest.mark.django_db


def seeded(monkeypatch, seed: int, dealer: int) -> None:
    """The next game's first hand is dealt from ``seed`` by ``dealer`` (the secrets the service draws)."""
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)
    monkeypatch.setattr(services.secrets, "randbelow", lambda n: dealer)


def play_out(player: Player, game: Game) -> Hand:
    hand = game.hands.order_by("-number").first()
    while not hand.over:
        hand, _changed, _done = services.act(player=player, game_id=game.pk, seen=hand.action_count, choice=forms.parse_choice(move_for(hand)), hand_id=hand.pk)
    return hand


def test_a_town_game_stores_every_option_and_each_hands_record_carries_them():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="xiaogan", base=2, piao=1, options={"cap": 8, "dui_liang_dui_fan": True})
    values = PRESETS["xiaogan"].switched({"cap": 8, "dui_liang_dui_fan": True})
    game.refresh_from_db()
    assert game.rules == "xiaogan" and game.options == values.as_dict() and game.values == values
    hand = game.hands.get()
    assert hand.record["rules"] == "xiaogan" and hand.record["options"] == record_options("xiaogan", values)
    assert "dice" not in hand.record  # 孝感 plays no 上楼
    hand = play_out(player, game)
    done = replay(hand.record)
    assert done.final.rules.options == values and list(done.settlement.nets) == hand.nets and done.result == hand.result


def test_the_longest_preset_key_fits_and_a_legacy_game_writes_what_it_always_wrote():
    player = Player.objects.create()
    longest = max(PRESETS, key=len)
    game = services.start_game(player=player, level="basic", rules=longest, base=1, piao=0)
    assert Game.objects.get(pk=game.pk).rules == longest
    legacy = services.start_game(player=player, level="basic", rules="standard", base=1, piao=0)
    assert legacy.hands.get().record["options"] == {} and legacy.values == PRESETS["standard"].values
    old = Game.objects.create(player=player, level="basic", rules="xiangyang")  # a game made before towns: no options stored
    assert old.values == PRESETS["xiangyang"].values


def test_under_shang_lou_the_record_holds_the_dice_rolled_from_the_walls_seed(monkeypatch):
    seeded(monkeypatch, 4, 1)
    game = services.start_game(player=Player.objects.create(), level="basic", rules="shiyan_town", base=1, piao=0)
    hand = game.hands.get()
    assert hand.seed == 4 and hand.record["dice"] == list(seeded_deal(4, 1).dice)
    assert replay(hand.record).header.dice == seeded_deal(4, 1).dice


@pytest.mark.parametrize(("mode", "first", "asked", "expected"), [("per_hand", 1, 5, 5), ("fixed", 1, 5, 1), ("off", 0, 5, 0)])
def test_the_persons_piao_follows_the_piao_mode(mode, first, asked, expected):
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="xiaogan", base=1, piao=first if mode != "off" else 2, options={"piao_mode": mode})
    hand = play_out(player, game)
    assert hand.record["piao"][0] == first
    following = services.next_hand(player=player, game_id=game.pk, number=hand.number, piao=asked)
    assert following.record["piao"][0] == expected


def test_a_branch_played_on_from_a_review_step_keeps_the_town():
    player = Player.objects.create()
    game = services.start_game(player=player, level="basic", rules="xiaogan", base=1, piao=0, options={"cap": 8})
    hand = play_out(player, game)
    done = replay(hand.record)
    step = next(i for i, a in enumerate(done.actions) if a.seat == 0 and a.verb == "discard")
    other = next(a for a in decision_for(done.states[step], 0).options if a != done.actions[step])
    branch = services.branch(player=player, hand_id=hand.pk, step=step, choice=forms.parse_choice(presenter.move_value(other)))
    assert branch.record["rules"] == "xiaogan" and branch.record["options"] == hand.record["options"]


def test_a_drawn_xiaogan_hand_shows_every_hand_its_best_wait_rank_and_the_cha_da_jiao_payments_in_words():
    done = keys_hand(4, 1, "xiaogan", "basic")  # seed 4: the wall runs out; 下家 and 上家 are ready, you are not
    assert done.result == "draw"
    with translation.override("en"):
        card = presenter.end_card(done, 0)
    assert [r["name"] for r in card["ready"]] == ["You", "下家 (right)", "上家 (left)"]
    ranks = {r.seat: r for r in done.settlement.ready}
    assert [r["rank"] for r in card["ready"]] == [ranks[s].rank for s in range(3)] and not card["ready"][0]["ready"]
    assert all(r["tile"] == TILE_IDS[ranks[s].kind] for s, r in enumerate(card["ready"]) if r["ready"])
    payments = done.settlement.payments
    with translation.override("en"):
        assert [p["kind_text"] for p in card["payments"]] == [kind_text(p) for p in payments] and "cha_da_jiao" in {p.kind for p in payments}
        assert [p["text"] for p in card["payments"]] == [" · ".join(payment_words(done.settlement, p)) for p in payments]
    assert any("坎" in p["text"] for p in card["payments"])  # 数坎: the collector's 坎 is a part of its payment


def test_a_suizhou_self_draw_turns_its_horse_and_the_end_card_scores_it():
    done = keys_hand(1, 1, "suizhou", "companion")  # seed 1: 下家 declares 亮倒 and self-draws: 独马
    assert done.final.horses
    win = presenter.end_card(done, 0)["wins"][0]
    assert win["horses"] == [TILE_IDS[h] for h in done.final.horses] and win["ma"] == done.settlement.extras[0].ma
    with translation.override("en"):
        log = presenter.action_log(done, done.actions, 0, True)
        assert log[0]["text"] == "下家 (right): turns the horses (买马) " + " ".join(tile_label(TILE_IDS[h]) for h in done.final.horses)


def test_a_sha_ma_kong_is_said_in_the_log():
    done = keys_hand(2, 2, "suizhou", "companion")  # seed 2: 下家's declared triplet takes the fourth tile off a discard (action 38)
    assert forced_kong(done.states[38]) == done.actions[38]
    lines = presenter.action_log(done, done.actions[:39], 0, False)
    assert "杀马" in lines[0]["text"] and lines[0]["money"]


def test_an_undeclared_pinghu_self_draw_under_self_draw_min_2_is_not_offered_and_says_why():
    done = keys_hand(349, 1, "yingcheng", "basic")  # seed 349: after 11 actions you draw a winning tile worth ×1
    state = done.states[11]
    assert state.turn == 0 and state.phase == "act" and not presenter.choices(state).wins
    refused = presenter.refused(state)
    assert [TILE_IDS[state.tile]] in [r["tiles"] for r in refused]
    with pytest.raises(IllegalAction) as why:
        check(state, Action(0, "win", state.tile))
    assert error_text(why.value) in [r["why"] for r in refused]


def test_a_discard_that_would_feed_a_declared_hand_is_refused_with_the_tables_reason():
    hands = (parse_tiles("15p23p78p9p11s456sF", "h"), parse_tiles("4556p123s789sZZZ", "h"), parse_tiles("6677889p234s67sB", "h"))
    state = deal(hands, 0, make_rules("xiaogan", (), {"no_feed_liang_dao": True}))
    state = apply(state, Action(0, "draw", KIND_OF_ID["F"]))
    seat1 = state.seats[1]
    state = replace(state, seats=(state.seats[0], replace(seat1, liang_dao=True, waits=seat1.ready_on), state.seats[2]))
    feeding = sorted(k for k in state.seats[1].waits if state.seats[0].concealed[k])
    assert feeding
    shown = presenter.choices(state)
    assert not {TILE_IDS[k] for k in feeding} & shown.discards
    refused = presenter.refused(state)
    assert [r["tiles"] for r in refused] == [[TILE_IDS[k] for k in feeding]]
    assert "declared" in refused[0]["why"] or "亮倒" in refused[0]["why"]


def test_a_half_declaration_is_offered_with_its_triplets_and_others_see_backs():
    done = keys_hand(228, 0, "yingcheng", "basic")  # seed 228: your first draw leaves you ready with three 6p to keep face down
    state = done.states[1]
    shown = presenter.choices(state)
    assert ("1s", ("6p", "6p", "6p"), "discard 1s ld kou 6p") in shown.half
    choice = forms.parse_choice("discard 1s ld kou 6p")
    declared = apply(state, choice.action)
    assert declared.seats[0].kou == frozenset({KIND_OF_ID["6p"]})
    from kwx.table.view import view_for
    from kwx_site.table import table_shown

    from_right = table_shown(view_for(declared, 1)).left  # 下家 sees you on its left
    assert from_right.face_down == (("back", "back", "back"),) and "6p" not in from_right.tiles
    assert "6p" in table_shown(view_for(declared, 0)).me.tiles


def test_the_hint_opens_the_analyzer_under_the_games_rules_and_switches():
    hands = (parse_tiles("15p23p78p9p11s456sF", "h"), parse_tiles("4556p123s789sZZZ", "h"), parse_tiles("6677889p234s67sB", "h"))
    state = apply(deal(hands, 0, make_rules("xiaogan", (), {"cap": 8})), Action(0, "draw", KIND_OF_ID["F"]))
    from kwx.table.view import view_for

    fields = dict(presenter.hint(view_for(state, 0))["fields"])
    assert fields["rules"] == "xiaogan" and fields["cap"] == "8"


def test_a_review_names_the_triplets_a_declaration_kept_face_down_and_judges_that_choice_alone():
    from kwx import hand_review

    plain, half = Action(0, "discard", KIND_OF_ID["1s"], True), Action(0, "discard", KIND_OF_ID["1s"], True, frozenset({KIND_OF_ID["6p"]}))
    assert "kou" not in hand_review.choice_key(plain) and hand_review.choice_key(half)["kou"] == ["6p"]
    figures = {"options": [{**hand_review.choice_key(plain), "clear": True}, {**hand_review.choice_key(half), "clear": False}]}
    assert hand_review.judge(figures, forms.parse_choice("discard 1s ld kou 6p")) and not hand_review.judge(figures, forms.parse_choice("discard 1s ld"))

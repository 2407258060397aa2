"""The player's town chooses which drills and quiz items they get (issue 35 item 7): their preset's items where a shipped bank holds some of
that kind, else the legacy banks' (and the page says which rules, ``town_notice``); one rating per skill across towns."""

from __future__ import annotations

import random

import pytest

from accounts.models import Player
from accounts.selectors import Town, player_town
from accounts.services import choose_rules
from kwx.rules import LEGACY_PRESETS, town_presets
from puzzles import selectors
from puzzles.models import Puzzle
from puzzles.services import answer_puzzle
from tests.puzzles.factories import aid, ensure_bank, ev_puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def banks():
    ensure_bank()


def _player(rules: str | None, **options) -> Player:
    player = Player.objects.create()
    if rules is not None:
        choose_rules(player=player, rules=rules, options=options)
    return player


def _drawn(player: Player, mode: str = "rated", n: int = 12, **kw) -> list[Puzzle]:
    found = [selectors.next_puzzle(player, mode, rng=random.Random(seed), **kw) for seed in range(n)]
    assert all(p is not None for p in found)
    return found  # type: ignore[return-value]


def test_a_xiaogan_player_gets_xiaogan_drills_and_quiz_items(banks):
    player = _player("xiaogan")
    for puzzle in _drawn(player) + _drawn(player, "streak") + _drawn(player, "theme", theme="ka_wu_xing"):
        assert puzzle.rules == "xiaogan" and puzzle.kind == Puzzle.DISCARD and puzzle.key.startswith("xiaogan-")
    ev_puzzle("34556p123789sZZZ", 3)
    assert {p.rules for p in _drawn(player, "theme", theme="ev")} <= set(LEGACY_PRESETS)  # 期望值: no bank for 孝感, the legacy one
    assert {p.rules for p in _drawn(player, "quiz")} == {"xiaogan"}
    assert selectors.asked_rules(kind=Puzzle.DISCARD, town=player_town(player=player)) == ("xiaogan",)


def test_a_switched_town_gets_its_presets_items_and_the_label_says_so(banks):
    player = _player("xiaogan", cap=8)
    town = player_town(player=player)
    assert town.label() == "孝感（改）"
    puzzle = _drawn(player, n=1)[0]
    assert puzzle.rules == "xiaogan" and puzzle.rules_label() == "孝感"
    notice = selectors.town_notice(puzzle=puzzle, town=town)
    assert notice is None  # asked under the preset the player chose: its own label says which values


def test_where_the_town_has_no_bank_of_a_kind_the_legacy_items_come_with_a_notice(banks):
    player = _player("shiyan_town")
    town = player_town(player=player)
    drills = _drawn(player)  # 十堰 has a quiz of its own, no 何切
    assert {p.rules for p in drills} <= set(LEGACY_PRESETS)
    notice = selectors.town_notice(puzzle=drills[0], town=town)
    assert notice is not None and notice.town == "十堰（地方规则）" and not notice.has_bank
    assert {p.rules for p in _drawn(player, "quiz")} == {"shiyan_town"}
    table = _drawn(_player("xiaogan"), kind="defence", n=3)  # the table drills are made under the standard rules only
    assert {p.rules for p in table} == {"standard"}
    assert selectors.town_notice(puzzle=table[0], town=Town("xiaogan", chosen=True)) == selectors.TownNotice("孝感", False)
    assert selectors.town_notice(puzzle=table[0], town=Town("xiaogan", chosen=True), english=True) == selectors.TownNotice("Xiaogan", False)


def test_an_item_of_another_town_opened_by_link_names_both(banks):
    xiaogan = Puzzle.objects.filter(rules="xiaogan", kind=Puzzle.QUIZ).first()
    assert xiaogan is not None
    notice = selectors.town_notice(puzzle=xiaogan, town=Town("suizhou", chosen=True))
    assert notice == selectors.TownNotice("随州", True)  # 随州 has a quiz of its own: this one is asked under 孝感's rules
    assert selectors.town_notice(puzzle=xiaogan, town=Town()) is None  # no town chosen: the item's label says it all


def test_a_player_who_never_chose_gets_the_legacy_items_as_before(banks):
    player = _player(None)
    assert not player_town(player=player).chosen
    for puzzle in _drawn(player, n=30) + _drawn(player, "quiz", n=30):
        assert puzzle.rules in LEGACY_PRESETS and puzzle.key.split("-")[0] not in town_presets()
    assert len({p.rules for p in _drawn(player, n=60)}) >= 2  # the legacy presets mixed, as before


def test_a_legacy_preset_chosen_gets_that_presets_items(banks):
    player = _player("shiyan")
    assert {p.rules for p in _drawn(player)} == {"shiyan"}
    assert {p.rules for p in _drawn(player, "quiz")} == {"shiyan"}


def test_one_rating_per_skill_across_towns(banks):
    player = _player("xiaogan")
    drill = _drawn(player, n=1)[0]
    quiz = _drawn(player, "quiz", n=1)[0]
    answer_puzzle(player=player, puzzle=drill, answer=drill.accepted[0], attempt_id=aid("t1"))
    result = answer_puzzle(player=player, puzzle=quiz, answer=quiz.accepted[0], attempt_id=aid("t2"), mode="quiz")
    choose_rules(player=player, rules="standard", options={})
    player.refresh_from_db()
    assert player.rating > 1500 and player.quiz_rating == result.player.quiz_rating > 1500  # the same two ratings under any town
    assert _drawn(player, n=1)[0].rules == "standard"

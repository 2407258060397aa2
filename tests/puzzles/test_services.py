"""Answering, rating once per puzzle, idempotent attempts, streaks, review cards, the anonymous→account merge."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from puzzles.models import Attempt, Player, ReviewCard
from puzzles.rating import PLAYER_CAP
from puzzles.services import SESSION_KEY, AnswerError, answer_puzzle, merge_players, player_for
from tests.puzzles.factories import aid, discard_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db
HAND = "34556p123789sZZZ"  # 3p is best: 4556p waits on a 卡五星 5p


@pytest.fixture
def puzzle():
    return discard_puzzle(HAND)


def test_right_answer_raises_player_and_lowers_puzzle(puzzle):
    player = Player.objects.create()
    result = answer_puzzle(player, puzzle, "3p", aid("a1"))
    assert result.correct and result.attempt.rated
    player.refresh_from_db()
    puzzle.refresh_from_db()
    assert 1500 < player.rating <= 1500 + PLAYER_CAP and puzzle.rating < 1500
    assert result.rating_json()["after"] == round(player.rating)
    assert not ReviewCard.objects.exists()


def test_wrong_answer_makes_a_review_card(puzzle):
    player = Player.objects.create()
    result = answer_puzzle(player, puzzle, "Z", aid("a1"))
    assert not result.correct and player.attempts.get().answer == "Z"
    assert ReviewCard.objects.get(player=player, puzzle=puzzle).due > result.attempt.created


def test_same_attempt_id_counts_once(puzzle):
    player = Player.objects.create()
    first = answer_puzzle(player, puzzle, "3p", aid("same"))
    again = answer_puzzle(player, puzzle, "Z", aid("same"))
    assert again.replay and again.correct and again.attempt.pk == first.attempt.pk
    assert Attempt.objects.count() == 1
    player.refresh_from_db()
    assert player.rating == first.player.rating


def test_rating_changes_only_on_the_first_try(puzzle):
    player = Player.objects.create()
    answer_puzzle(player, puzzle, "Z", aid("a1"))
    player.refresh_from_db()
    after_first = player.rating
    second = answer_puzzle(player, puzzle, "3p", aid("a2"))
    assert not second.attempt.rated and second.rating_change == 0
    player.refresh_from_db()
    assert player.rating == after_first
    assert not ReviewCard.objects.get().card["state"] == 0


def test_an_attempt_id_is_tied_to_its_puzzle(puzzle):
    player = Player.objects.create()
    answer_puzzle(player, puzzle, "3p", aid("x"))
    with pytest.raises(AnswerError) as err:
        answer_puzzle(player, discard_puzzle("124568p45566789s"), "1p", aid("x"))
    assert err.value.field == "attempt"


@pytest.mark.parametrize("answer, field", [("9p", "discard"), ("x", "discard"), ("", "discard"), (None, "discard")])
def test_bad_discards_are_refused_and_change_nothing(puzzle, answer, field):
    player = Player.objects.create()
    with pytest.raises(AnswerError) as err:
        answer_puzzle(player, puzzle, answer, aid("a1"))
    assert err.value.field == field and not Attempt.objects.exists()


@pytest.mark.parametrize("attempt", ["x" * 65, "a1", "", "a\x00b", "3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3\x00", "3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3g", 17, None])
def test_an_attempt_id_that_is_not_a_uuid_is_refused(puzzle, attempt):
    with pytest.raises(AnswerError) as err:
        answer_puzzle(Player.objects.create(), puzzle, "3p", attempt)
    assert err.value.field == "attempt" and not Attempt.objects.exists()


@pytest.mark.parametrize("attempt", ["3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3a", "3F2B8C1E6D4A4E0B9A7C2D5E8F1B0C3A"])
def test_a_uuid_with_or_without_hyphens_is_an_attempt_id(puzzle, attempt):
    assert answer_puzzle(Player.objects.create(), puzzle, "3p", attempt).attempt.attempt_id == attempt


def test_streak_counts_up_and_resets(puzzle):
    player = Player.objects.create()
    answer_puzzle(player, puzzle, "3p", aid("s1"), mode="streak")
    answer_puzzle(player, discard_puzzle(HAND), "3p", aid("s2"), mode="streak")
    player.refresh_from_db()
    assert (player.streak, player.best_streak, player.rating) == (2, 2, 1500)
    answer_puzzle(player, discard_puzzle(HAND), "Z", aid("s3"), mode="streak")
    player.refresh_from_db()
    assert (player.streak, player.best_streak) == (0, 2)


def test_quiz_answer_is_a_choice():
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")  # 卡五星 self-draw: ×2
    player = Player.objects.create()
    assert answer_puzzle(player, quiz, "2", aid("q1"), mode="quiz").correct
    assert not answer_puzzle(player, quiz_puzzle("4556p123789sZZZ", "5p"), "×4", aid("q2"), mode="quiz").correct
    with pytest.raises(AnswerError) as err:
        answer_puzzle(player, quiz, "3", aid("q3"), mode="quiz")
    assert err.value.field == "choice"


def test_merge_moves_attempts_without_double_counting(puzzle):
    other = discard_puzzle(HAND)
    user = User.objects.create_user("ann", password="pw-12345678")
    account = Player.objects.create(user=user)
    answer_puzzle(account, puzzle, "3p", aid("shared-id"))
    anonymous = Player.objects.create()
    answer_puzzle(anonymous, puzzle, "3p", aid("shared-id"))  # the same client attempt sent before logging in
    answer_puzzle(anonymous, puzzle, "Z", aid("anon-2"))  # rated here, but the account already rated this puzzle
    answer_puzzle(anonymous, other, "Z", aid("anon-3"))
    account.refresh_from_db()
    before = account.rating
    gained = Attempt.objects.get(attempt_id=aid("anon-3"))
    merged = merge_players(anonymous, account)
    assert Player.objects.get(pk=anonymous.pk).merged_into == merged and not Attempt.objects.filter(player=anonymous).exists()
    ids = sorted(merged.attempts.values_list("attempt_id", flat=True))
    assert ids == sorted(aid(label) for label in ["anon-2", "anon-3", "shared-id"])
    assert merged.attempts.filter(puzzle=puzzle, rated=True).count() == 1
    assert merged.rating == pytest.approx(before + gained.rating_after - gained.rating_before)
    assert set(ReviewCard.objects.filter(player=merged).values_list("puzzle_id", flat=True)) == {puzzle.pk, other.pk}


def test_merge_into_a_fresh_account_takes_the_session_rating(puzzle):
    anonymous = Player.objects.create()
    answer_puzzle(anonymous, puzzle, "3p", aid("a1"))
    anonymous.refresh_from_db()
    account = Player.objects.create(user=User.objects.create_user("bo", password="pw-12345678"))
    merged = merge_players(anonymous, account)
    assert merged.rating == anonymous.rating and merged.attempts.count() == 1


def test_a_quiz_answer_moves_the_quiz_rating_and_never_the_puzzle_rating(puzzle):
    player = Player.objects.create()
    result = answer_puzzle(player, quiz_puzzle("4556p123789sZZZ", "5p"), "4", aid("q1"), mode="quiz")  # wrong: ×2
    player.refresh_from_db()
    assert result.attempt.rated and player.rating == 1500 and player.quiz_rating < 1500
    assert result.attempt.rating_before == 1500 and result.attempt.rating_after == player.quiz_rating
    assert result.rating_json()["track"] == "quiz" and result.rating_json()["player"] == round(player.quiz_rating)
    drill = answer_puzzle(player, puzzle, "3p", aid("d1"))
    player.refresh_from_db()
    assert drill.attempt.rating_before == 1500 and player.rating > 1500 and drill.rating_json()["track"] == "discard"


def test_merge_keeps_each_rating_on_its_own_track(puzzle):
    account = Player.objects.create(user=User.objects.create_user("cy", password="pw-12345678"))
    answer_puzzle(account, puzzle, "3p", aid("d1"))
    account.refresh_from_db()
    discard_rating = account.rating
    anonymous = Player.objects.create()
    answer_puzzle(anonymous, quiz_puzzle("4556p123789sZZZ", "5p"), "2", aid("q1"), mode="quiz")
    anonymous.refresh_from_db()
    merged = merge_players(anonymous, account)
    assert merged.rating == discard_rating  # the quiz answer moved nothing here
    assert merged.quiz_rating == anonymous.quiz_rating > 1500  # the account had no quiz track: it takes the session's


def test_signing_up_keeps_the_current_streak(puzzle):
    anonymous = Player.objects.create()
    answer_puzzle(anonymous, puzzle, "3p", aid("s1"), mode="streak")
    answer_puzzle(anonymous, discard_puzzle(HAND), "3p", aid("s2"), mode="streak")
    anonymous.refresh_from_db()
    account = Player.objects.create(user=User.objects.create_user("di", password="pw-12345678"))
    merged = merge_players(anonymous, account)
    assert (merged.streak, merged.best_streak, merged.streak_floor) == (2, 2, anonymous.streak_floor)


def test_logging_in_without_a_session_streak_keeps_the_account_run(puzzle):
    account = Player.objects.create(user=User.objects.create_user("ed", password="pw-12345678"), streak=3, best_streak=3, streak_floor=1600)
    anonymous = Player.objects.create()
    answer_puzzle(anonymous, puzzle, "3p", aid("r1"))
    merged = merge_players(anonymous, account)
    assert (merged.streak, merged.streak_floor) == (3, 1600)


def test_an_answer_for_a_player_merged_meanwhile_goes_to_the_account(puzzle):
    """player_for() found the anonymous player, then a log-in merged it before the answer locked its row."""
    account = Player.objects.create(user=User.objects.create_user("mid", password="pw-12345678"))
    anonymous = Player.objects.create()
    merge_players(anonymous, account)
    result = answer_puzzle(anonymous, puzzle, "3p", aid("in-flight"))
    assert result.player.pk == account.pk and account.attempts.count() == 1


def test_a_second_merge_of_the_same_session_changes_nothing(puzzle):
    account = Player.objects.create(user=User.objects.create_user("twice", password="pw-12345678"))
    anonymous = Player.objects.create()
    answer_puzzle(anonymous, puzzle, "3p", aid("once"))
    merge_players(anonymous, account)
    account.refresh_from_db()
    rating = account.rating
    merge_players(Player.objects.get(pk=anonymous.pk), account)  # two tabs logging in at once
    account.refresh_from_db()
    assert account.rating == rating and account.attempts.count() == 1


def test_a_merged_sessions_pointer_is_honoured_only_for_a_request_begun_before_the_merge(puzzle):
    from datetime import timedelta

    from django.utils import timezone

    account = Player.objects.create(user=User.objects.create_user("fix", password="pw-12345678"))
    anonymous = Player.objects.create()
    session = {SESSION_KEY: anonymous.pk}
    before = timezone.now() - timedelta(seconds=1)
    merge_players(anonymous, account)
    assert player_for(None, dict(session), began=before).pk == account.pk  # in flight in another tab during the log-in
    later = dict(session)
    fresh = player_for(None, later, began=timezone.now())
    assert fresh.pk not in (account.pk, anonymous.pk) and later[SESSION_KEY] == fresh.pk
    assert player_for(None, dict(session)).pk != account.pk  # no start time: never the account

"""The daily set, called directly: the day's drill chosen once and stored, who solved it, the day streak (site time, Asia/Shanghai)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import Player
from play.models import Game, Hand
from play.services import LEVELS
from puzzles import selectors, services
from puzzles.models import Attempt, DailyDrill, Puzzle, ReviewCard
from puzzles.services import answer_puzzle
from tests.puzzles.factories import aid, discard_puzzle, ensure_bank, ev_puzzle

pytestmark = pytest.mark.django_db

MONDAY = date(2026, 3, 2)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    """An instant of ``day`` at that hour of the site's clock (Asia/Shanghai)."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=selectors.DAY_ZONE)


def answered(player: Player, puzzle: Puzzle, when: datetime, right: bool = True, label: object = None) -> Attempt:
    """An answer to ``puzzle`` made at ``when`` (through the service, then dated)."""
    answer = puzzle.accepted[0] if right else next(t for t in (puzzle.choices or puzzle.hand_tiles or puzzle.options["choices"]) if str(t) not in puzzle.accepted)
    result = answer_puzzle(player=player, puzzle=puzzle, answer=str(answer), attempt_id=aid(label or (player.pk, puzzle.pk, when)))
    Attempt.objects.filter(pk=result.attempt.pk).update(created=when)
    return result.attempt


def hand_played(player: Player, when: datetime, level: str = selectors.DAILY_LEVEL, over: bool = True) -> Hand:
    """A hand of a game against ``level`` dealt at ``when`` (finished unless ``over`` is False)."""
    game = Game.objects.create(player=player, level=level)
    hand = Hand.objects.create(player=player, game=game, record={}, over=over)
    Hand.objects.filter(pk=hand.pk).update(created=when)
    return hand


def day_done(player: Player, day: date, hour: int = 12) -> None:
    """The day's set done: its drill answered and a hand against the judge finished, both that day."""
    answered(player, services.daily_drill(day=day), at(day, hour))
    hand_played(player, at(day, hour, 30))


def test_the_daily_level_is_a_level_one_can_play():
    assert selectors.DAILY_LEVEL in LEVELS


def test_the_day_runs_midnight_to_midnight_china_time():
    assert selectors.site_day(datetime(2026, 3, 1, 15, 59, tzinfo=UTC)) == date(2026, 3, 1)
    assert selectors.site_day(datetime(2026, 3, 1, 16, 0, tzinfo=UTC)) == date(2026, 3, 2)  # 00:00 in Shanghai
    start, end = selectors.day_span(date(2026, 3, 2))
    assert start == datetime(2026, 3, 1, 16, 0, tzinfo=UTC) and end - start == timedelta(days=1)


def test_the_days_drill_is_stored_once_and_the_same_for_everyone():
    ensure_bank()
    first = services.daily_drill(day=MONDAY)
    assert first is not None and services.daily_drill(day=MONDAY) == first
    assert DailyDrill.objects.filter(day=MONDAY).count() == 1
    DailyDrill.objects.all().delete()  # a fresh database with the same bank (another server, a restart) derives the same drill
    assert services.daily_drill(day=MONDAY) == first


def test_a_drill_another_server_stored_first_is_the_days_drill(monkeypatch):
    ensure_bank()
    theirs = Puzzle.objects.filter(kind=Puzzle.QUIZ, retired=False).order_by("-key").first()
    DailyDrill.objects.create(day=MONDAY, puzzle=theirs)
    real = selectors.stored_daily
    calls = iter([None])  # this server looked before the other stored it
    monkeypatch.setattr(selectors, "stored_daily", lambda *, day: next(calls, real(day=day)))
    assert selectors.daily_choice(day=MONDAY) != theirs
    assert services.daily_drill(day=MONDAY) == theirs and DailyDrill.objects.count() == 1


def test_a_week_of_daily_drills_goes_round_every_kind_without_a_repeat():
    ensure_bank()
    ev_puzzle("34556p123789sZZZ", 3)  # the shipped 期望值 bank is empty (docs/drills.md): a drill of the kind for its day
    week = [services.daily_drill(day=MONDAY + timedelta(days=n)) for n in range(7)]
    kinds = ["ev" if p.is_ev else p.kind for p in week]
    assert kinds == list(selectors.DAILY_ROTATION) and sorted(set(kinds)) == sorted(["ev", *Puzzle.DRILL_KINDS, Puzzle.QUIZ])
    assert len({p.pk for p in week}) == 7 and not any(p.retired for p in week)
    assert kinds[0] == "discard" and not week[0].is_ev  # a Monday is a plain 何切


def test_a_day_whose_kind_has_no_drill_takes_the_next_kind_in_turn():
    ensure_bank()
    Puzzle.objects.filter(draws_left__isnull=False).update(retired=True)  # no 期望值 drill served
    sunday, monday = services.daily_drill(day=MONDAY + timedelta(days=6)), services.daily_drill(day=MONDAY + timedelta(days=7))
    assert sunday.kind == monday.kind == Puzzle.DISCARD and not sunday.is_ev and sunday != monday


def test_a_retired_puzzle_is_never_the_days_drill():
    ensure_bank()
    chosen = selectors.daily_choice(day=MONDAY)
    Puzzle.objects.filter(pk=chosen.pk).update(retired=True)
    again = selectors.daily_choice(day=MONDAY)
    assert again is not None and again != chosen and not again.retired


def test_an_empty_bank_has_no_daily_drill():
    DailyDrill.objects.all().delete()
    Puzzle.objects.all().delete()
    assert services.daily_drill(day=MONDAY) is None
    shown = selectors.daily_set(player=Player.objects.create(), day=MONDAY, puzzle=None)
    assert shown.puzzle is None and not shown.drill_done and shown.solvers == selectors.DailySolvers()


def test_solvers_count_each_player_once_and_their_first_answer_of_the_day_decides():
    puzzle = discard_puzzle("34556p123789sZZZ")
    right, wrong_then_right, yesterday = (Player.objects.create() for _ in range(3))
    answered(right, puzzle, at(MONDAY, 9), right=True, label="r1")
    answer_puzzle(player=right, puzzle=puzzle, answer=puzzle.accepted[0], attempt_id=aid("r1"))  # the same answer sent twice
    answered(right, puzzle, at(MONDAY, 10), right=True, label="r2")
    answered(wrong_then_right, puzzle, at(MONDAY, 8), right=False, label="w1")
    answered(wrong_then_right, puzzle, at(MONDAY, 8, 5), right=True, label="w2")
    answered(yesterday, puzzle, at(MONDAY, 0) - timedelta(minutes=1), label="y1")  # 23:59 the day before
    assert selectors.daily_solvers(puzzle=puzzle, day=MONDAY) == selectors.DailySolvers(answered=2, solved=1)


def test_the_day_is_done_with_the_drill_answered_and_a_hand_against_the_judge_finished():
    ensure_bank()
    player = Player.objects.create()
    puzzle = services.daily_drill(day=MONDAY)
    shown = selectors.daily_set(player=player, day=MONDAY, puzzle=puzzle)
    assert not shown.drill_done and not shown.hand_done and not shown.done and shown.streak == 0
    answered(player, puzzle, at(MONDAY, 7), right=False)
    hand_played(player, at(MONDAY, 8), level="strong")  # not the judge
    hand_played(player, at(MONDAY, 9), over=False)  # still at the table
    shown = selectors.daily_set(player=player, day=MONDAY, puzzle=puzzle)
    assert shown.drill_done and shown.drill_right is False and not shown.hand_done and not shown.done and shown.open_game is not None
    hand_played(player, at(MONDAY, 23, 59))
    shown = selectors.daily_set(player=player, day=MONDAY, puzzle=puzzle)
    assert shown.done and (shown.streak, shown.best_streak) == (1, 1)


def test_an_answer_after_midnight_china_time_counts_for_the_next_day():
    ensure_bank()
    player = Player.objects.create()
    tuesday = MONDAY + timedelta(days=1)
    answered(player, services.daily_drill(day=MONDAY), at(tuesday, 0, 5))  # Monday's drill, answered on Tuesday
    hand_played(player, at(MONDAY, 20))
    assert selectors.daily_drill_days(player=player) == set()
    answered(player, services.daily_drill(day=tuesday), at(tuesday, 0, 10))
    hand_played(player, at(tuesday, 0, 20))
    assert selectors.daily_drill_days(player=player) == {tuesday} and selectors.daily_hand_days(player=player) == {MONDAY, tuesday}


def test_the_streak_counts_consecutive_done_days_and_keeps_the_best():
    ensure_bank()
    player = Player.objects.create()
    for n in (0, 1, 2, 4, 5):  # three days, a day missed, two days
        day_done(player, MONDAY + timedelta(days=n))
    answered(player, services.daily_drill(day=MONDAY + timedelta(days=3)), at(MONDAY + timedelta(days=3), 9))  # the drill only: not done
    on = MONDAY + timedelta(days=5)
    shown = selectors.daily_set(player=player, day=on, puzzle=services.daily_drill(day=on))
    assert (shown.streak, shown.best_streak) == (2, 3)
    tomorrow = on + timedelta(days=1)  # not done yet tomorrow: the run still stands until that day is over
    assert selectors.daily_set(player=player, day=tomorrow, puzzle=services.daily_drill(day=tomorrow)).streak == 2
    later = on + timedelta(days=2)
    assert (selectors.daily_set(player=player, day=later, puzzle=None).streak, selectors.streaks({MONDAY}, later)[1]) == (0, 1)


@pytest.mark.parametrize(
    ("done", "today", "expected"),
    [
        (set(), MONDAY, (0, 0)),
        ({MONDAY}, MONDAY, (1, 1)),
        ({MONDAY - timedelta(days=1)}, MONDAY, (1, 1)),
        ({MONDAY - timedelta(days=2)}, MONDAY, (0, 1)),
        ({MONDAY - timedelta(days=n) for n in (0, 1, 2, 5, 6, 7, 8)}, MONDAY, (3, 4)),
    ],
)
def test_streaks(done, today, expected):
    assert selectors.streaks(done, today) == expected


def test_a_visitor_with_no_player_sees_the_days_drill_and_who_solved_it():
    ensure_bank()
    puzzle = services.daily_drill(day=MONDAY)
    answered(Player.objects.create(), puzzle, at(MONDAY, 11))
    shown = selectors.daily_set(player=None, day=MONDAY, puzzle=puzzle)
    assert shown.puzzle == puzzle and shown.solvers == selectors.DailySolvers(1, 1) and not shown.done and shown.due == 0


def test_the_reviews_due_are_the_players_due_count():
    ensure_bank()
    player = Player.objects.create()
    missed = discard_puzzle("34556p123789sZZZ")
    answered(player, missed, at(MONDAY, 6), right=False)
    assert selectors.daily_set(player=player, day=MONDAY, puzzle=None).due == 0  # the miss comes back later
    ReviewCard.objects.filter(player=player).update(due=timezone.now() - timedelta(minutes=1))
    assert selectors.daily_set(player=player, day=MONDAY, puzzle=None).due == 1

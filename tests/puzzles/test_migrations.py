"""The migration that splits off the 算番 rating keeps every player's data."""

from __future__ import annotations

import pytest
from django.db import connection

from puzzles import rating as glicko
from tests.migrating import migrate
from tests.puzzles.factories import discard_puzzle, quiz_puzzle

BEFORE, AFTER = ("puzzles", "0004_load_ev_bank"), ("puzzles", "0005_quiz_rating_streak_floor")


@pytest.fixture
def old_schema():
    """The apps as they were before the split; the newest schema is back afterwards, whatever the test did."""
    try:
        yield migrate([BEFORE])
    finally:
        migrate()
        with connection.cursor() as cursor:
            assert "quiz_rating" in {c.name for c in connection.introspection.get_table_description(cursor, "puzzles_player")}


@pytest.mark.django_db(transaction=True)
def test_quiz_attempts_move_to_their_own_track_and_the_puzzle_rating_stays(old_schema):
    Player, Puzzle, Attempt = (old_schema.get_model("puzzles", n) for n in ("Player", "Puzzle", "Attempt"))
    drill_pk = discard_puzzle("34556p123789sZZZ", model=Puzzle).pk  # a table the split leaves alone, in the schema of then
    quiz_pk = quiz_puzzle("4556p123789sZZZ", "5p", model=Puzzle).pk
    quiz, drill = Puzzle.objects.get(pk=quiz_pk), Puzzle.objects.get(pk=drill_pk)
    player = Player.objects.create(rating=1430.0, rating_deviation=200.0, streak=2, best_streak=4)
    Attempt.objects.create(player=player, puzzle=drill, attempt_id="d", answer="3p", correct=True, rated=True, rating_before=1500, rating_after=1505, mode="streak")
    Attempt.objects.create(player=player, puzzle=quiz, attempt_id="q", answer="1", correct=False, rated=True, rating_before=1505, rating_after=1430, mode="quiz")
    new = migrate([AFTER])
    moved = new.get_model("puzzles", "Player").objects.get(pk=player.pk)
    expected, _item = glicko.rate_answer(glicko.Rating(), glicko.Rating(quiz.rating, quiz.rating_deviation, quiz.volatility), False)
    assert (moved.rating, moved.rating_deviation, moved.best_streak, moved.streak) == (1430.0, 200.0, 4, 2)
    assert moved.quiz_rating == pytest.approx(expected.rating) and moved.quiz_rating < 1500
    assert moved.streak_floor == drill.rating
    attempts = {a.attempt_id: a for a in new.get_model("puzzles", "Attempt").objects.filter(player_id=player.pk)}
    assert (attempts["d"].rating_before, attempts["d"].rating_after) == (1500, 1505)
    assert (attempts["q"].rating_before, attempts["q"].rating_after) == (1500, pytest.approx(expected.rating))

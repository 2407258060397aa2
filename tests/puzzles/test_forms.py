"""The answer form: what an answer to a puzzle may be (a tile held, a quiz multiplier, a table choice), a UUID attempt id, a known mode."""

from __future__ import annotations

import pytest

from accounts.models import Player
from puzzles.forms import AnswerForm
from puzzles.models import Attempt
from tests.puzzles.factories import aid, discard_puzzle, quiz_puzzle

pytestmark = pytest.mark.django_db


@pytest.fixture
def puzzle():
    return discard_puzzle("34556p123789sZZZ")


def _refused(form: AnswerForm) -> str:
    assert not form.is_valid() and form.refusal is not None
    return form.refusal.field


@pytest.mark.parametrize("answer", ["9p", "x", "", None, True, ["3p"]])
def test_bad_discards_are_refused_by_their_field(puzzle, answer):
    assert _refused(AnswerForm({"discard": answer, "attempt": aid("a1"), "mode": "rated"}, puzzle=puzzle)) == "discard"
    assert not Attempt.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize("attempt", ["x" * 65, "a1", "", "a\x00b", "3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3\x00", "3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3g", 17, None])
def test_an_attempt_id_that_is_not_a_uuid_is_refused(puzzle, attempt):
    assert _refused(AnswerForm({"discard": "3p", "attempt": attempt, "mode": "rated"}, puzzle=puzzle)) == "attempt"


@pytest.mark.parametrize("attempt", ["3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3a", "3F2B8C1E6D4A4E0B9A7C2D5E8F1B0C3A"])
def test_a_uuid_with_or_without_hyphens_is_an_attempt_id(puzzle, attempt):
    form = AnswerForm({"discard": " 3p ", "attempt": attempt, "mode": "rated"}, puzzle=puzzle)
    assert form.is_valid() and form.answer() == {"answer": "3p", "attempt_id": attempt, "mode": "rated"}


@pytest.mark.parametrize("mode", ["blitz", None, 3])
def test_an_unknown_mode_is_refused(puzzle, mode):
    assert _refused(AnswerForm({"discard": "3p", "attempt": aid("m"), "mode": mode}, puzzle=puzzle)) == "mode"


def test_a_quiz_answer_is_one_of_its_choices_with_or_without_its_times_sign():
    quiz = quiz_puzzle("4556p123789sZZZ", "5p")
    for sent, stored in (("2", "2"), ("×4", "4"), (8, "8")):
        form = AnswerForm({"choice": sent, "attempt": aid(sent), "mode": "quiz"}, puzzle=quiz)
        assert form.is_valid() and form.cleaned_data["answer"] == stored
    assert _refused(AnswerForm({"choice": "3", "attempt": aid("q3"), "mode": "quiz"}, puzzle=quiz)) == "choice"

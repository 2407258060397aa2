"""Concurrent answers by one player: no lost rating update, and one attempt id counts once.

Threads each use their own database connection. On PostgreSQL the player's row lock
(``select_for_update``) serialises them; SQLite serialises writers itself.
"""

from __future__ import annotations

import pytest

from accounts.models import Player
from puzzles.models import Attempt
from puzzles.services import answer_puzzle
from tests.concurrency import run_together
from tests.puzzles.factories import aid, discard_puzzle

pytestmark = pytest.mark.django_db(transaction=True)
THREADS = 6


def _run_together(jobs):
    """Start every job at the same moment; re-raise the first error."""
    errors = run_together(jobs)
    if errors:
        raise errors[0]


def test_concurrent_answers_never_lose_a_rating_update():
    player = Player.objects.create()
    puzzles = [discard_puzzle("34556p123789sZZZ") for _ in range(THREADS)]
    _run_together([lambda p=p, i=i: answer_puzzle(player=player, puzzle=p, answer="3p", attempt_id=aid(f"a{i}")) for i, p in enumerate(puzzles)])
    attempts = sorted(Attempt.objects.filter(player=player), key=lambda a: a.rating_before)
    assert len(attempts) == THREADS and all(a.rated for a in attempts)
    for earlier, later in zip(attempts, attempts[1:]):
        assert later.rating_before == earlier.rating_after  # each answer saw the one before it
    player.refresh_from_db()
    assert player.rating == attempts[-1].rating_after


def test_the_same_attempt_sent_concurrently_counts_once():
    player = Player.objects.create()
    puzzle = discard_puzzle("34556p123789sZZZ")
    _run_together([lambda: answer_puzzle(player=player, puzzle=puzzle, answer="3p", attempt_id=aid("same")) for _ in range(THREADS)])
    assert Attempt.objects.filter(player=player).count() == 1
    player.refresh_from_db()
    assert player.rating == Attempt.objects.get().rating_after

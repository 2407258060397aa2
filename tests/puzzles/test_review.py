"""FSRS scheduling of missed puzzles."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from puzzles.review import review

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


def test_a_miss_makes_a_card_due_soon():
    card, due = review(None, correct=False, now=NOW)
    assert NOW < due <= NOW + timedelta(hours=1)
    assert card["last_review"].startswith("2026-01-01T12:00")


def test_right_answers_push_the_card_further_out_each_time():
    card, due = review(None, False, NOW)
    gaps = []
    for _ in range(4):
        before = due
        card, due = review(card, True, before)
        gaps.append(due - before)
    assert gaps == sorted(gaps) and gaps[-1] >= timedelta(days=1)


def test_a_later_miss_brings_the_card_back_sooner_than_a_right_answer():
    card, due = review(None, False, NOW)
    for _ in range(3):
        card, due = review(card, True, due)
    _, right = review(card, True, due)
    _, wrong = review(card, False, due)
    assert wrong < right

"""Memorise mode's services and selectors: fsrs scheduling per player, most overdue first, repeats counted once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from fsrs import Rating

from accounts.models import Player
from learn.content import couplets
from learn.models import VerseCard
from learn.selectors import next_prompt, prompt_for
from learn.services import grade


@pytest.fixture
def user(db):
    """A player: a visitor's session or an account alike."""
    return Player.objects.create()


def _card(user, number, due):
    return VerseCard.objects.create(player=user, couplet=number, due=due, state=2, stability=3.0, difficulty=5.0, last_review=due - timedelta(days=3), reviews=1)


@pytest.mark.parametrize("rating", list(Rating))
def test_a_graded_card_is_due_in_the_future(user, rating):
    now = timezone.now()
    card, applied = grade(player=user, number=3, rating=rating, reviews_seen=0, now=now)
    assert applied and card.reviews == 1
    assert card.due > now and card.last_review == now
    assert card.stability is not None and card.difficulty is not None


def test_easy_schedules_later_than_again(user):
    now = timezone.now()
    other = Player.objects.create()
    easy, _ = grade(player=user, number=1, rating=Rating.Easy, reviews_seen=0, now=now)
    again, _ = grade(player=other, number=1, rating=Rating.Again, reviews_seen=0, now=now)
    assert easy.due > again.due


def test_a_second_grade_of_the_same_showing_counts_once(user):
    now = timezone.now()
    first, applied = grade(player=user, number=5, rating=Rating.Good, reviews_seen=0, now=now)
    again, repeated = grade(player=user, number=5, rating=Rating.Again, reviews_seen=0, now=now + timedelta(seconds=2))
    assert applied and not repeated
    assert again.reviews == 1 and again.due == first.due


def test_the_most_overdue_couplet_comes_next(user):
    now = timezone.now()
    _card(user, 2, now - timedelta(days=1))
    _card(user, 7, now - timedelta(days=5))
    _card(user, 4, now + timedelta(days=2))
    prompt = next_prompt(user, now)
    assert prompt.couplet.number == 7 and prompt.overdue
    assert (prompt.due_now, prompt.learned) == (2, 3)


def test_with_nothing_due_a_new_couplet_comes_next_in_order(user):
    now = timezone.now()
    _card(user, 1, now + timedelta(days=1))
    prompt = next_prompt(user, now)
    assert prompt.couplet.number == 2 and prompt.card is None


def test_with_every_couplet_learned_and_none_due_the_soonest_comes(user):
    now = timezone.now()
    for c in couplets():
        _card(user, c.number, now + timedelta(days=c.number if c.number != 9 else 0.5))
    prompt = next_prompt(user, now)
    assert prompt.couplet.number == 9 and not prompt.overdue


def test_a_visitor_without_a_player_yet_starts_at_the_first_couplet(db):
    assert next_prompt(None, timezone.now()).couplet.number == 1
    assert prompt_for(None, 99, timezone.now()) is None

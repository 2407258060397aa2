"""Models of the learn pages: one spaced-repetition card per player (``accounts.Player``) and 口诀 couplet."""

from __future__ import annotations

from django.db import models

from accounts.models import Player


class VerseCard(models.Model):
    """A player's memory of one couplet, in the fields of an ``fsrs.Card`` (scheduled by fsrs)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="verse_cards")
    couplet = models.PositiveSmallIntegerField(help_text="Number of the couplet in learn/data/kouque.txt, from 1.")
    state = models.PositiveSmallIntegerField(default=1, help_text="fsrs.State: 1 learning, 2 review, 3 relearning.")
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField()
    last_review = models.DateTimeField(null=True, blank=True)
    reviews = models.PositiveIntegerField(default=0, help_text="Grades counted so far; a repeated form post is ignored.")

    class Meta:
        db_table = "analysis_versecard"  # the table from before the learn app was split off analysis
        constraints = [models.UniqueConstraint(fields=["player", "couplet"], name="verse_card_once_per_couplet")]
        indexes = [models.Index(fields=["player", "due"], name="verse_card_due")]

    def __str__(self) -> str:
        return f"{self.player_id} #{self.couplet} due {self.due:%Y-%m-%d %H:%M}"

"""Models of the settlement calculator and score sheets."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from accounts.models import Player
from kwx.rules import RuleSet, stored


class ScoreSheet(models.Model):
    """A game night: three players, a base stake and rules (a preset and its options), and its hands in order.

    Its owner is a player (``accounts.Player``: an account, or a visitor's session, whose
    sheets follow them into their account when they log in or sign up).
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="score_sheets")
    title = models.CharField(max_length=60, blank=True, default="")
    players = models.JSONField(help_text="Three names, in seat order.")
    base = models.PositiveIntegerField(default=1)
    rules = models.CharField(max_length=20, default="standard")
    options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The sheet's rule options as kwx.rules.record_options stores them (every option under a town preset); read with kwx.rules.stored, so a later change to a preset never changes the sheet.",
    )
    first_dealer = models.PositiveSmallIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "analysis_scoresheet"  # the tables from before the settlement app was split off analysis
        ordering = ["-updated", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(first_dealer__lte=2), name="score_sheet_dealer_is_a_player"),
        ]

    def __str__(self) -> str:
        return self.title or " · ".join(self.players)

    @property
    def rule_set(self) -> RuleSet:
        """The sheet's rules as stored (an option it does not store takes its legacy value, never a town's current one)."""
        return stored(self.rules, self.options)


class SheetHand(models.Model):
    """One hand of a sheet, stored as its input (players by seat 0–2); payments are recomputed from it."""

    sheet = models.ForeignKey(ScoreSheet, on_delete=models.CASCADE, related_name="hands")
    position = models.PositiveIntegerField()
    data = models.JSONField(help_text="The engine's hand input without players, base and rules.")
    token = models.CharField(max_length=36, blank=True, default="", help_text="Form token: a form sent twice adds one hand.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "analysis_sheethand"
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "token"], condition=~Q(token=""), name="sheet_hand_token_once"),
        ]

    def __str__(self) -> str:
        return f"{self.sheet_id}#{self.position}"

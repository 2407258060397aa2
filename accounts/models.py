"""Accounts: the one owner of a person's drills, games, memorise cards and score sheets."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from puzzles import rating as glicko


class Player(models.Model):
    """Whoever uses the site: an account, or a visitor's session (``user`` empty) until they sign up or log in.

    The one owner of everything a person makes here: drill attempts, review cards and ratings
    (puzzles), games, hands and review items (play), memorise cards (learn) and score sheets
    (settlement). ``accounts.selectors.request_player`` reads it (``services.player_for`` makes it on a first write); ``merge_players`` folds a session's
    player into an account's when the visitor logs in or signs up.

    Two Glicko-2 ratings, one per skill: ``rating`` for 何切 puzzles and ``quiz_rating``
    for 算番 quiz items, so counting fans never moves the discard rating.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="kwx_player")
    rating = models.FloatField(default=glicko.DEFAULT_RATING)
    rating_deviation = models.FloatField(default=glicko.DEFAULT_RD)
    volatility = models.FloatField(default=glicko.DEFAULT_VOLATILITY)
    quiz_rating = models.FloatField(default=glicko.DEFAULT_RATING, help_text="算番 quiz rating.")
    quiz_rating_deviation = models.FloatField(default=glicko.DEFAULT_RD)
    quiz_volatility = models.FloatField(default=glicko.DEFAULT_VOLATILITY)
    streak = models.PositiveIntegerField(default=0, help_text="Current streak-mode run.")
    streak_floor = models.FloatField(default=0.0, help_text="Rating of the run's last puzzle: the next one is rated higher.")
    best_streak = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="An anonymous player folded into an account: answers still in flight with its session go there.",
    )
    merged_at = models.DateTimeField(null=True, blank=True)
    sheet_key = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_index=True,
        help_text="The score-sheet key a visitor's session held before sheets had a player (settle_owner): that session finds this player by it.",
    )
    rules = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="The player's town: a preset key of kwx.rules.PRESETS (empty: never chosen, the standard rules). Set by accounts.services.choose_rules.",
    )
    rule_options = models.JSONField(
        default=dict,
        blank=True,
        help_text="The room switches of that preset the player changed (town-rules.md §3.3), as {option: value}; coupled options follow from them.",
    )
    rules_chosen_at = models.DateTimeField(null=True, blank=True, help_text="When the town was last chosen (a merge keeps the later choice).")

    class Meta:
        db_table = "puzzles_player"  # the table from before the owner moved to accounts: every row and key stays

    TRACKS = {"discard": ("rating", "rating_deviation", "volatility"), "quiz": ("quiz_rating", "quiz_rating_deviation", "quiz_volatility")}
    """The rating fields of each track: 何切 (every drill kind) and 算番."""

    @staticmethod
    def track_of(kind: str) -> str:
        """The rating track a puzzle kind moves: ``quiz`` for 算番 items, ``discard`` for every drill."""
        return "quiz" if kind == "quiz" else "discard"  # Puzzle.QUIZ

    def __str__(self) -> str:
        return f"player {self.pk} ({self.user or 'anonymous'})"

    def track(self, kind: str) -> glicko.Rating:
        """The player's rating for puzzles of this kind."""
        return glicko.Rating(*(getattr(self, name) for name in self.TRACKS[self.track_of(kind)]))

    def set_track(self, kind: str, value: glicko.Rating) -> None:
        """Set the player's rating for puzzles of this kind (not saved)."""
        for name, number in zip(self.TRACKS[self.track_of(kind)], (value.rating, value.rd, value.volatility)):
            setattr(self, name, number)

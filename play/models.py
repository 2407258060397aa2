"""Play: games (a session of hands against two bots), hands (each a kwx-hand/1 record) and review items."""

from __future__ import annotations

from django.db import models

from accounts.models import Player
from kwx.rules import RuleSet, stored
from kwx.table.record import Record
from kwx.table.seat_record import SeatRecord
from kwx.table.seats import Auto, read_record
from kwx_site.text import level_name


class Game(models.Model):
    """A session of hands at one table: the bots' level, the rules (a preset and every option resolved) and base, and whose it is."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="games")
    level = models.CharField(max_length=12, help_text="The bots' level, a key of kwx.bots.registry.BOTS (play.services.LEVELS).")
    rules = models.CharField(max_length=40, default="standard", help_text="A preset key of kwx.rules.PRESETS.")
    options = models.JSONField(
        default=dict, blank=True, help_text="Every rule option as resolved when the game began (kwx.rules.stored reads it; empty: a game made before towns, the preset's legacy values)."
    )
    base = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    auto_win = models.BooleanField(default=False, help_text="自动胡: every win offered to the person is taken (play.seats.auto_choice).")
    auto_pass = models.BooleanField(default=False, help_text="自动过: a claim offering only pongs that do not lower the shanten is passed.")

    class Meta:
        ordering = ["-created", "-id"]

    @property
    def auto(self) -> Auto:
        """The person's switches as kwx.table.seats.Auto."""
        return Auto(win=self.auto_win, passes=self.auto_pass)

    @property
    def values(self) -> RuleSet:
        """Every option the game plays under: as stored, so a later change to a preset never changes a game."""
        return stored(self.rules, self.options)

    @property
    def level_name(self) -> str:
        """The bots' level in the active language."""
        return level_name(self.level)


class Hand(models.Model):
    """One hand: its kwx-hand/1 record (``record``, actions included), the secret wall seed, its end.

    A hand played here has a ``game`` and a ``seed`` (the wall, never sent to the client);
    a pasted or uploaded record has neither. Its review is worked out by a background task
    once the hand is over (``play.tasks.review_hand``): ``review_state`` says where it is,
    ``review_done`` of ``review_total`` decisions are judged, and ``review`` holds the figures
    (complete only when the state is ``done``); ``review_beat`` is when it was queued or last
    progressed, ``review_client`` whose address queued it (a keyed hash: the queue's fairness). ``bot_result`` is what a bot in the person's
    seat made of the same wall. A **branch** ("play on from here") has no game: its ``origin`` is
    the hand it was played on from, ``origin_step`` the actions of the origin it keeps; it has the
    origin's seed (the same wall) and is played against the origin's bots.
    """

    PLAY, UPLOAD, BRANCH = "play", "upload", "branch"
    NOT_ASKED, QUEUED, RUNNING, DONE, FAILED = "", "queued", "running", "done", "failed"
    REVIEW_STATES = [(NOT_ASKED, "not asked"), (QUEUED, "queued"), (RUNNING, "running"), (DONE, "done"), (FAILED, "failed")]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hands")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(default=1, help_text="Its place in the game, from 1.")
    source = models.CharField(max_length=8, default=PLAY, choices=[(PLAY, "played"), (UPLOAD, "uploaded"), (BRANCH, "played on from a step")])
    seat = models.PositiveSmallIntegerField(default=0, help_text="The person's seat.")
    seed = models.BigIntegerField(null=True, blank=True)
    record = models.JSONField()
    over = models.BooleanField(default=False)
    result = models.CharField(max_length=10, blank=True)
    nets = models.JSONField(null=True, blank=True)
    next_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    review = models.JSONField(null=True, blank=True)
    review_state = models.CharField(max_length=8, blank=True, default=NOT_ASKED, choices=REVIEW_STATES)
    review_done = models.PositiveIntegerField(default=0, help_text="Decisions judged so far.")
    review_total = models.PositiveIntegerField(default=0, help_text="Decisions to judge (0 until the task starts).")
    review_beat = models.DateTimeField(null=True, blank=True, help_text="When the review was queued, or its worker last showed progress (a heartbeat).")
    review_client = models.CharField(max_length=64, blank=True, help_text="A keyed hash of the client address that queued the review (its place in the queue).")
    outcome = models.JSONField(null=True, blank=True, help_text="The person's figures: won, dealt_in, liang_dao, net.")
    bot_result = models.JSONField(null=True, blank=True)
    share_token = models.CharField(max_length=32, null=True, blank=True, unique=True)
    origin = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="branches", help_text="The hand this one was played on from (a branch).")
    origin_step = models.PositiveIntegerField(null=True, blank=True, help_text="The origin's actions this branch keeps; its own choice comes next.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_hand_per_number")]
        indexes = [models.Index(fields=["review_state", "player"], name="hand_review_queue")]

    @property
    def reviewable(self) -> bool:
        """Whether a review may be worked out: a hand over, or an uploaded record however far it goes (never a hand still at the table)."""
        return self.over or self.source == self.UPLOAD

    @property
    def kwx_record(self) -> Record | SeatRecord:
        """The stored record read: the whole hand, or one seat's view (a hand entered from a real table)."""
        return read_record(self.record)

    @property
    def action_count(self) -> int:
        """How many actions the record holds (what a client must have seen to act)."""
        return len(self.record.get("actions", []))


class ReviewItem(models.Model):
    """A costly decision of a hand, scheduled like a missed drill (FSRS); it opens the review at ``step``."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="play_reviews")
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="review_items")
    step = models.PositiveIntegerField(help_text="Actions before the decision (the review's ?step=).")
    cost = models.FloatField()
    card = models.JSONField(help_text="fsrs.Card.to_dict()")
    due = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["due", "id"]
        constraints = [models.UniqueConstraint(fields=["hand", "step"], name="one_item_per_decision")]

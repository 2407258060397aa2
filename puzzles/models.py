"""Drills: the puzzle bank, attempts and review cards (their owner is ``accounts.Player``)."""

from __future__ import annotations

from functools import cached_property

from django.db import models
from django.db.models import Q

from accounts.models import Player
from kwx.hand.notation import format_meld
from kwx.hand.tiles import KIND_OF_ID, Meld, MeldType
from kwx.rules import PRESETS, OptionValue, RuleSet, label, stored
from kwx.table.view import FORMAT as VIEW_FORMAT
from kwx.table.view import SeatView

from . import rating as glicko


class Puzzle(models.Model):
    """A drill with its Glicko-2 rating: a 何切 puzzle (``discard``), a 算番 quiz item (``quiz``) or a
    table decision (碰不碰 ``pong``, 杠不杠 ``kong``, 亮不亮 ``declare``, ``defence`` against a 亮倒 hand)."""

    DISCARD, QUIZ = "discard", "quiz"
    PONG, KONG, DECLARE, DEFENCE = "pong", "kong", "declare", "defence"
    KINDS = [
        (DISCARD, "What to discard"),
        (QUIZ, "Count the fans"),
        (PONG, "Pong or pass"),
        (KONG, "Kong or not"),
        (DECLARE, "Declare or not"),
        (DEFENCE, "Defence"),
    ]
    TABLE_KINDS = (PONG, KONG, DECLARE, DEFENCE)
    """Decisions at the table, answered by choice (not by a tile of a 14-tile hand), verified by rollouts."""
    DRILL_KINDS = (DISCARD, *TABLE_KINDS)
    """Every kind the drill page serves; all of them move the 何切 rating."""

    key = models.CharField(max_length=32, unique=True, help_text="Stable id in the shipped bank, e.g. h00001, or xiaogan-h00001 in a town's bank.")
    kind = models.CharField(max_length=8, choices=KINDS, default=DISCARD, db_index=True)
    hand = models.CharField(max_length=40, help_text="Concealed tiles, canonical text.")
    melds = models.JSONField(default=list, help_text='[{"type": "pong", "tile": "5p"}, ...]')
    visible = models.CharField(max_length=120, blank=True)
    rules = models.CharField(max_length=20, default="standard", help_text="The preset it is asked under (kwx.rules.PRESETS).")
    rule_options = models.JSONField(default=dict, blank=True, help_text="Its options as stored (town-rules.md §3.1): every option under a town preset, none under a legacy one.")
    situation = models.JSONField(default=list)
    turn = models.PositiveSmallIntegerField(default=0)
    wall_left = models.PositiveSmallIntegerField(default=0)
    win_tile = models.CharField(max_length=2, blank=True, help_text="Quiz: the winning tile.")
    win_side = models.CharField(max_length=10, blank=True, help_text="Quiz: self_draw or discard.")
    accepted = models.JSONField(help_text="Discard: the best tiles. Quiz: the total multiplier as text.")
    options = models.JSONField(help_text="Discard: the option table, best first. Quiz: choices and fans.")
    draws_left = models.PositiveSmallIntegerField(null=True, blank=True, help_text="期望值 puzzles: own draws still to come.")
    ev = models.JSONField(default=dict, blank=True, help_text='期望值 puzzles: {"options": EV ranking rows, "plain_best": [...]}.')
    table = models.JSONField(
        default=dict,
        blank=True,
        help_text="The table from the player's chair: me/right/left rivers and melds (亮倒: revealed, waits), dealer, wall_left, drawn, offered.",
    )
    verdict = models.JSONField(default=dict, blank=True, help_text="Table drills: the rollouts' margin and the tiles that deal into a 亮倒 hand.")
    themes = models.CharField(max_length=120, blank=True, help_text="Space-separated theme keys, padded: ' a b '.")
    rating = models.FloatField(default=glicko.DEFAULT_RATING, db_index=True)
    rating_deviation = models.FloatField(default=glicko.PUZZLE_RD)
    volatility = models.FloatField(default=glicko.DEFAULT_VOLATILITY)
    plays = models.PositiveIntegerField(default=0)
    retired = models.BooleanField(
        default=False,
        db_index=True,
        help_text="No longer in the shipped banks (a bank made again): kept for its attempts, never served, not reviewed.",
    )

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["kind", "rating"])]

    def __str__(self) -> str:
        return f"{self.key} {self.notation}"

    @cached_property
    def rule_set(self) -> RuleSet:
        """Every option it is asked under, as stored (an absent option: the legacy preset's value)."""
        return stored(self.rules, self.rule_options)

    @property
    def changed_options(self) -> dict[str, OptionValue]:
        """The options on which it differs from its preset as the preset stands now (what a link to the analyzer adds to the preset)."""
        return {key: self.rule_set.value(key) for key in PRESETS[self.rules].changed(self.rule_set)}

    def rules_label(self, english: bool = False) -> str:
        """The rules it is asked under in words: "孝感", "十堰（改）", "Standard" …"""
        return label(self.rules, self.rule_set, english)

    @property
    def meld_values(self) -> tuple[Meld, ...]:
        """The melds as engine values."""
        return tuple(Meld(MeldType(m["type"]), KIND_OF_ID[m["tile"]]) for m in self.melds)

    @property
    def notation(self) -> str:
        """Canonical text with melds in brackets, as the analyzer takes it."""
        return self.hand + "".join(format_meld(m) for m in self.meld_values)

    @property
    def is_ev(self) -> bool:
        """Whether this is a 期望值 puzzle (answers by expected score with ``draws_left`` draws to come)."""
        return self.draws_left is not None and bool(self.ev)

    @property
    def is_table(self) -> bool:
        """Whether this is a table decision (碰不碰, 杠不杠, 亮不亮, defence), answered by one of its choices."""
        return self.kind in self.TABLE_KINDS

    @property
    def choices(self) -> list[str]:
        """A table decision's answers, as posted (pong, pass, kong, declare, hidden, or a tile for defence)."""
        return [o["answer"] for o in self.options] if self.is_table else []

    @property
    def theme_list(self) -> list[str]:
        """The theme keys."""
        return self.themes.split()

    @cached_property
    def view(self) -> SeatView | None:
        """The table from the player's chair as the drill stores it (``kwx-view/1``), None for a puzzle without one."""
        table = self.table or {}
        return SeatView.from_json(table) if table.get("format") == VIEW_FORMAT else None

    @property
    def hand_tiles(self) -> list[str]:
        """The concealed tiles, one id per tile, in order (for drawing and tapping)."""
        from kwx.hand.notation import parse_tiles
        from kwx.hand.tiles import TILE_IDS, kinds_of

        return [TILE_IDS[k] for k in kinds_of(parse_tiles(self.hand, "hand"))]


class Attempt(models.Model):
    """One answer to one puzzle. ``attempt_id`` is the client's id: the same one never counts twice."""

    MODES = [
        ("rated", "Rated"),
        ("theme", "By theme"),
        ("review", "Review"),
        ("streak", "Streak"),
        ("quiz", "Fan quiz"),
        ("puzzle", "Shared puzzle"),
        ("daily", "Daily drill"),
    ]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attempts")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    attempt_id = models.CharField(max_length=64)
    mode = models.CharField(max_length=8, choices=MODES, default="rated")
    answer = models.CharField(max_length=8)
    correct = models.BooleanField()
    rated = models.BooleanField(default=False)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "attempt_id"], name="attempt_once_per_player"),
            models.UniqueConstraint(fields=["player", "puzzle"], condition=Q(rated=True), name="rated_once_per_puzzle"),
        ]

    @property
    def mode_name(self) -> str:
        """The mode's name in the active language."""
        from .text import MODES

        return str(MODES.get(self.mode, self.mode))


class ReviewCard(models.Model):
    """An FSRS card: a missed puzzle that comes back on a schedule."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="review_cards")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="+")
    card = models.JSONField(help_text="fsrs.Card.to_dict()")
    due = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "puzzle"], name="one_card_per_puzzle")]


class DailyDrill(models.Model):
    """The daily drill of one day of the site's time zone (``selectors.DAY_ZONE``): chosen once from the bank by the date
    (``selectors.daily_choice``) and stored, one row a day, so every server and every restart shows the same drill."""

    day = models.DateField(unique=True)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day"]

    def __str__(self) -> str:
        return f"{self.day}: {self.puzzle.key}"


class DrillReport(models.Model):
    """A player's report that a drill is wrong; open until staff mark it ``resolved``. One open report per player, drill and kind."""

    ANSWER, POSITION, EXPLANATION, OTHER = "answer", "position", "explanation", "other"
    KINDS = [
        (ANSWER, "The answer is wrong"),
        (POSITION, "The position is impossible"),
        (EXPLANATION, "The explanation is wrong"),
        (OTHER, "Something else"),
    ]
    TEXT_MAX = 500
    """The most characters of a report's own words."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="reports")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="drill_reports")
    kind = models.CharField(max_length=12, choices=KINDS)
    text = models.CharField(max_length=TEXT_MAX, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    resolved = models.DateTimeField(null=True, blank=True, help_text="When staff marked it resolved (empty: open).")

    class Meta:
        ordering = ["created", "id"]
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "player", "kind"], condition=Q(resolved__isnull=True), name="one_open_report_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.puzzle.key} {self.kind} by player {self.player_id}"


class DrillShard(models.Model):
    """One shard of table-drill work run as a background task (``puzzles.drill_shards``): making the bank (``generate``: drill indices
    ``i`` with ``i mod shards = shard``) or confirming the shipped bank (``confirm``: its drills at those positions). ``rows`` as the caches store them."""

    JOBS = [("generate", "Generate"), ("confirm", "Confirm")]

    job = models.CharField(max_length=8, choices=JOBS)
    params = models.CharField(max_length=200, help_text="generate: kinds=…;indices=…; confirm: the digest of the bank file confirmed.")
    shards = models.PositiveIntegerField()
    shard = models.PositiveIntegerField()
    rows = models.JSONField()
    cpu_seconds = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "params", "shards", "shard"], name="drill_shard_once")]

    def __str__(self) -> str:
        return f"{self.job} {self.params}: shard {self.shard} of {self.shards}"

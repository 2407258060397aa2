"""What changes state in the drills: answering a puzzle, the day's drill chosen once, reports of a bad drill, and the drills' part of merging a visitor into an account.

Every change runs in one transaction with the player's row locked
(``select_for_update``), so concurrent answers never lose a rating update on
PostgreSQL, and the unique (player, attempt id) constraint makes an answer sent
twice count once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Player
from kwx_site.retry import SQLITE_RETRIES, back_off

from . import rating as glicko
from . import selectors
from .models import Attempt, DailyDrill, DrillReport, Puzzle, ReviewCard
from .review import review

UNRATED_MODES = frozenset({"streak", "review"})


class AnswerError(ValueError):
    """A refused answer: ``field`` says which input, ``message`` what is wrong."""

    def __init__(self, field: str, message: Any) -> None:
        super().__init__(str(message))
        self.field = field
        self.message = message


@dataclass(frozen=True)
class AnswerResult:
    """What an answer did: right or not, the accepted answers, rating changes, and whether it was a replay."""

    attempt: Attempt
    puzzle: Puzzle
    player: Player
    replay: bool

    @property
    def correct(self) -> bool:
        """Whether the answer was one of the accepted ones."""
        return self.attempt.correct

    @property
    def rating_change(self) -> float:
        """How far this attempt moved the player's rating (0 when unrated)."""
        a = self.attempt
        return (a.rating_after - a.rating_before) if a.rated and a.rating_after is not None else 0.0

    @property
    def player_rating(self) -> glicko.Rating:
        """The player's rating for this puzzle's kind (何切 or 算番) after the answer."""
        return self.player.track(self.puzzle.kind)

    def rating_json(self) -> dict[str, Any]:
        """The API's ``rating`` object; ``track`` says which of the player's two ratings it is."""
        mine = self.player_rating
        return {
            "rated": self.attempt.rated,
            "track": Player.track_of(self.puzzle.kind),
            "before": round(self.attempt.rating_before or mine.rating),
            "after": round(self.attempt.rating_after or mine.rating),
            "change": round(self.rating_change),
            "player": round(mine.rating),
            "deviation": round(mine.rd),
            "puzzle": round(self.puzzle.rating),
        }


def _schedule_review(player: Player, puzzle: Puzzle, correct: bool, now: datetime) -> None:
    """A miss makes or resets the puzzle's review card; a right answer moves an existing card on."""
    card = ReviewCard.objects.filter(player=player, puzzle=puzzle).first()
    if card is None and correct:
        return
    data, due = review(card.card if card else None, correct, now)
    if card is None:
        ReviewCard.objects.create(player=player, puzzle=puzzle, card=data, due=due)
    else:
        card.card, card.due = data, due
        card.save(update_fields=["card", "due"])


def _existing(player: Player, attempt_id: str, puzzle: Puzzle) -> AnswerResult | None:
    """The earlier answer with this attempt id (a replay), or None."""
    earlier = Attempt.objects.filter(player=player, attempt_id=attempt_id).select_related("puzzle").first()
    if earlier is None:
        return None
    if earlier.puzzle_id != puzzle.pk:
        raise AnswerError("attempt", _("This attempt id was already used for another puzzle."))
    return AnswerResult(earlier, earlier.puzzle, Player.objects.get(pk=player.pk), replay=True)


def answer_puzzle(*, player: Player | Callable[[], Player], puzzle: Puzzle, answer: str, attempt_id: str, mode: str = "rated") -> AnswerResult:
    """Record one answer (as ``forms.AnswerForm`` cleaned it) in one transaction: the attempt, both ratings (first try only), the streak, the review card.

    ``player`` may be a function that finds or makes the player: it is called only once the
    answer is to be recorded, so a refused answer makes no anonymous player (nor a session).
    An attempt id already used for another puzzle raises AnswerError.
    """
    stored = answer
    if callable(player):
        player = player()
    for tries in range(SQLITE_RETRIES):
        try:
            return _record(player, puzzle, stored, attempt_id, mode)
        except _Merged as moved:  # merged into an account while this answer waited for the row
            player = Player.objects.get(pk=moved.target)
        except IntegrityError:
            earlier = _existing(player, attempt_id, puzzle)
            if earlier is None:
                raise
            return earlier
        except OperationalError as exc:
            back_off(exc, tries)
    raise AssertionError("unreachable")


class _Merged(Exception):
    """The player was folded into ``target`` (a log-in) before its row could be locked."""

    def __init__(self, target: int) -> None:
        super().__init__(target)
        self.target = target


def _record(player: Player, puzzle: Puzzle, stored: str, attempt_id: str, mode: str) -> AnswerResult:
    """One try at recording an answer, with the player's row locked."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.merged_into_id is not None:
            raise _Merged(locked.merged_into_id)
        earlier = _existing(locked, attempt_id, puzzle)
        if earlier is not None:
            return earlier
        correct = stored in puzzle.accepted
        first = not Attempt.objects.filter(player=locked, puzzle=puzzle).exists()
        attempt = Attempt(player=locked, puzzle=puzzle, attempt_id=attempt_id, mode=mode, answer=stored, correct=correct)
        if first and mode not in UNRATED_MODES:
            target = Puzzle.objects.select_for_update().get(pk=puzzle.pk)
            before = locked.track(target.kind)
            me, it = glicko.rate_answer(before, glicko.Rating(target.rating, target.rating_deviation, target.volatility), correct)
            attempt.rated, attempt.rating_before, attempt.rating_after = True, before.rating, me.rating
            locked.set_track(target.kind, me)
            target.rating, target.rating_deviation, target.volatility = it.rating, it.rd, it.volatility
            target.plays += 1
            target.save(update_fields=["rating", "rating_deviation", "volatility", "plays"])
            puzzle = target
        if mode == "streak":
            locked.streak = locked.streak + 1 if correct else 0
            locked.streak_floor = puzzle.rating if correct else 0.0
            locked.best_streak = max(locked.best_streak, locked.streak)
        locked.save()
        attempt.save()
        _schedule_review(locked, puzzle, correct, datetime.now(UTC))
        return AnswerResult(attempt, puzzle, locked, replay=False)


def merge_drills(*, source: Player, target: Player) -> None:
    """Move a visitor's drill progress into an account's player (a ``player_merging`` receiver, both rows locked).

    Attempts keep their ids; one whose attempt id the account already has is dropped
    (never counted twice). A rated attempt on a puzzle the account had already rated
    becomes unrated. Each of the two ratings (何切, 算番) merges on its own: an account
    without rated attempts of that kind takes the session's rating; otherwise the
    session's rating changes are added on top of the account's. A streak run played
    in the session stays the current streak.
    Review cards move unless the account has one for the puzzle (the earlier due wins).
    Reports move too, except an open one the account has open as well (same drill and kind): one counts.
    """
    src, dst = source, target
    kinds = list(Player.TRACKS)  # each rating track: 何切 (every drill kind) and 算番
    drills = Attempt.objects.filter(player=dst, rated=True)
    had_rated = {
        "discard": drills.exclude(puzzle__kind=Puzzle.QUIZ).exists(),
        "quiz": drills.filter(puzzle__kind=Puzzle.QUIZ).exists(),
    }
    taken_ids = set(Attempt.objects.filter(player=dst).values_list("attempt_id", flat=True))
    rated_puzzles = set(Attempt.objects.filter(player=dst, rated=True).values_list("puzzle_id", flat=True))
    Attempt.objects.filter(player=src, attempt_id__in=taken_ids).delete()
    session_streak = Attempt.objects.filter(player=src, mode="streak").exists()
    gained = dict.fromkeys(kinds, 0.0)
    for attempt in Attempt.objects.filter(player=src, rated=True).select_related("puzzle"):
        if attempt.puzzle_id in rated_puzzles:
            attempt.rated = False
            attempt.save(update_fields=["rated"])
        elif attempt.rating_after is not None and attempt.rating_before is not None:
            gained[Player.track_of(attempt.puzzle.kind)] += attempt.rating_after - attempt.rating_before
    Attempt.objects.filter(player=src).update(player=dst)
    for kind in kinds:
        theirs, mine = src.track(kind), dst.track(kind)
        if not had_rated[kind]:
            dst.set_track(kind, theirs)
        else:
            dst.set_track(kind, glicko.Rating(mine.rating + gained[kind], min(mine.rd, theirs.rd), mine.volatility))
    if session_streak:  # the run played in this browser is the current one
        dst.streak, dst.streak_floor = src.streak, src.streak_floor
    dst.best_streak = max(dst.best_streak, src.best_streak)
    dst.save(update_fields=[*(name for fields in Player.TRACKS.values() for name in fields), "streak", "streak_floor", "best_streak"])
    for card in ReviewCard.objects.filter(player=src):
        mine_card = ReviewCard.objects.filter(player=dst, puzzle_id=card.puzzle_id).first()
        if mine_card is None:
            card.player = dst
            card.save(update_fields=["player"])
        elif card.due < mine_card.due:
            mine_card.card, mine_card.due = card.card, card.due
            mine_card.save(update_fields=["card", "due"])
    ReviewCard.objects.filter(player=src).delete()  # the account's own card for those puzzles stays
    for report in DrillReport.objects.filter(player=src, resolved__isnull=True):
        if DrillReport.objects.filter(player=dst, puzzle_id=report.puzzle_id, kind=report.kind, resolved__isnull=True).exists():
            report.delete()
    DrillReport.objects.filter(player=src).update(player=dst)


def daily_drill(*, day: date) -> Puzzle | None:
    """The daily drill of ``day`` (site time): the stored one, else ``selectors.daily_choice`` stored now; the first server to store it wins
    (one row a day), so every server shows the same drill. None while the bank is empty."""
    stored = selectors.stored_daily(day=day)
    if stored is not None:
        return stored
    chosen = selectors.daily_choice(day=day)
    if chosen is None:
        return None
    try:
        with transaction.atomic():
            DailyDrill.objects.create(day=day, puzzle=chosen)
    except IntegrityError:  # another request stored the day's drill first: theirs it is
        return selectors.stored_daily(day=day)
    return chosen


@dataclass(frozen=True)
class ReportResult:
    """A stored report, and whether it is new (False: the player's open report of that kind was there already; its words were updated)."""

    report: DrillReport
    new: bool


def report_drill(*, player: Player, puzzle: Puzzle, kind: str, text: str) -> ReportResult:
    """Store a player's report on a drill (as ``forms.ReportForm`` cleaned it): one open report per player, drill and kind,
    so a report sent twice counts once (new words replace the old ones)."""
    for _try in range(2):
        earlier = DrillReport.objects.filter(player=player, puzzle=puzzle, kind=kind, resolved__isnull=True).first()
        if earlier is not None:
            if text and text != earlier.text:
                earlier.text = text
                earlier.save(update_fields=["text"])
            return ReportResult(earlier, new=False)
        try:
            with transaction.atomic():
                return ReportResult(DrillReport.objects.create(player=player, puzzle=puzzle, kind=kind, text=text), new=True)
        except IntegrityError:  # the same report, sent twice at once: the other one was stored first
            continue
    raise AssertionError("unreachable: the open report exists or could be stored")


def resolve_reports(*, puzzle: Puzzle, report_id: int | None = None) -> int:
    """Mark a drill's open reports resolved (only ``report_id`` when given); how many were."""
    reports = DrillReport.objects.filter(puzzle=puzzle, resolved__isnull=True)
    if report_id is not None:
        reports = reports.filter(pk=report_id)
    return reports.update(resolved=timezone.now())

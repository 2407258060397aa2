"""What changes state in the drills: who the player is, answering a puzzle, merging a session into an account.

Every change runs in one transaction with the player's row locked
(``select_for_update``), so concurrent answers never lose a rating update on
PostgreSQL, and the unique (player, attempt id) constraint makes an answer sent
twice count once.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import IntegrityError, OperationalError, connection, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kwx import EngineError
from kwx.errors import printable
from kwx.hand.notation import parse_tile
from kwx.hand.tiles import TILE_IDS

from . import rating as glicko
from .models import Attempt, Player, Puzzle, ReviewCard
from .review import review

SESSION_KEY = "kwx_player"
MERGE_GRACE = 600
"""Seconds after a merge during which an answer begun before it, with the session's old cookie, still reaches the account."""
player_merging = Signal()
"""Sent inside merge_players's transaction before the session's player becomes a pointer to the account (``source``, ``target``):
other apps move what the session's player owns (play: games, hands, review items)."""
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


def player_for(user: Any, session: MutableMapping[str, Any], create: bool = True, *, began: datetime | None = None) -> Player | None:
    """The player of a user (logged in) or else of a session: the account's, or the anonymous session's (made on first need).

    A session whose player was merged into an account reaches the account only for a request
    that ``began`` before the merge (``kwx_site.middleware.began``: an answer in flight in another
    tab while the log-in happened). Anything the old cookie sends later gets a new anonymous
    player: a copy of the cookie kept from before the log-in (session fixation) never writes
    into the account nor reads it back.
    """
    if user is not None and user.is_authenticated:
        player = Player.objects.filter(user=user).first()
        if player is None and create:
            player, _created = Player.objects.get_or_create(user=user)
        return player
    pk = session.get(SESSION_KEY)
    player = Player.objects.filter(pk=pk, user__isnull=True).first() if pk else None
    if player is not None and player.merged_into_id is not None:
        # The session was folded into an account (a log-in or sign-up in another tab) while this
        # request was on its way with the old cookie: its answer goes to the account, and the
        # session is left alone, so this answer's cookie cannot replace the logged-in one.
        merged_at = player.merged_at
        recent = merged_at is not None and merged_at > timezone.now() - timedelta(seconds=MERGE_GRACE)
        if recent and began is not None and began < merged_at:
            return Player.objects.get(pk=player.merged_into_id) if create else None
        player = None
    if player is None and create:
        player = Player.objects.create()
        session[SESSION_KEY] = player.pk
    return player


def normalise_answer(puzzle: Puzzle, answer: Any) -> str:
    """The answer as stored: a tile id held in the hand, or a multiplier among the quiz's choices."""
    if not isinstance(answer, (str, int)) or isinstance(answer, bool) or str(answer).strip() == "":
        field = "discard" if puzzle.kind == Puzzle.DISCARD else "choice"
        raise AnswerError(field, _("Give one answer: a tile such as 4p, or a multiplier such as 8."))
    text = str(answer).strip()[:12]
    if puzzle.is_table:
        if text not in puzzle.choices:
            raise AnswerError("choice", _("Pick one of the choices: %(choices)s.") % {"choices": ", ".join(puzzle.choices)})
        return text
    if puzzle.kind == Puzzle.QUIZ:
        choices = [str(c) for c in puzzle.options["choices"]]
        if text.lstrip("×x") not in choices:
            raise AnswerError("choice", _("Pick one of the choices: %(choices)s.") % {"choices": ", ".join(choices)})
        return text.lstrip("×x")
    try:
        tile = TILE_IDS[parse_tile(text, "discard")]
    except EngineError as exc:
        raise AnswerError("discard", _('"%(text)s" is not a tile: write it like 4p, 7s or Z.') % {"text": printable(text)}) from exc
    if tile not in puzzle.hand_tiles:
        raise AnswerError("discard", _("%(tile)s is not in this hand.") % {"tile": tile})
    return tile


ATTEMPT_ID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.IGNORECASE)
"""A UUID, with or without its hyphens (what ``crypto.randomUUID()`` or ``uuid4().hex`` make)."""


def check_attempt_id(attempt_id: Any) -> str:
    """The client's attempt id, checked: a UUID (32 hex digits, hyphens optional), nothing else."""
    if not isinstance(attempt_id, str) or not ATTEMPT_ID.fullmatch(attempt_id.strip()):
        raise AnswerError("attempt", _("The attempt id must be a UUID, such as 3f2b8c1e-6d4a-4e0b-9a7c-2d5e8f1b0c3a."))
    return attempt_id.strip()


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


SQLITE_RETRIES = 40
"""SQLite reports a busy database instead of waiting when two transactions collide; try again."""


def _locked(exc: OperationalError) -> bool:
    return connection.vendor == "sqlite" and "locked" in str(exc)


def answer_puzzle(player: Player | Callable[[], Player], puzzle: Puzzle, answer: Any, attempt_id: Any, mode: str = "rated") -> AnswerResult:
    """Record one answer in one transaction: the attempt, both ratings (first try only), the streak, the review card.

    ``player`` may be a function that finds or makes the player: it is called only once the
    answer is valid, so a refused answer makes no anonymous player (nor a session).
    """
    stored = normalise_answer(puzzle, answer)
    attempt_id = check_attempt_id(attempt_id)
    if not isinstance(mode, str) or mode not in dict(Attempt.MODES):
        modes = ", ".join(dict(Attempt.MODES))
        raise AnswerError("mode", _('Unknown mode "%(mode)s": use %(modes)s.') % {"mode": printable(str(mode)[:20]), "modes": modes})
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
            if not _locked(exc) or tries == SQLITE_RETRIES - 1:
                raise
            time.sleep(0.005 * (1 + tries) * (1 + random.random()))
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


def merge_players(source: Player, target: Player) -> Player:
    """Move an anonymous session's progress into an account's player, in one transaction.

    Attempts keep their ids; one whose attempt id the account already has is dropped
    (never counted twice). A rated attempt on a puzzle the account had already rated
    becomes unrated. Each of the two ratings (何切, 算番) merges on its own: an account
    without rated attempts of that kind takes the session's rating; otherwise the
    session's rating changes are added on top of the account's. A streak run played
    in the session stays the current streak.
    Review cards move unless the account has one for the puzzle (the earlier due wins).
    The anonymous player stays a day as a pointer to the account (``merged_into``).
    """
    if source.pk == target.pk:
        return target
    with transaction.atomic():
        first, second = sorted([source.pk, target.pk])
        locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[first, second]).order_by("pk")}
        src, dst = locked[source.pk], locked[target.pk]
        if src.merged_into_id is not None:  # merged already (two log-ins at once): nothing is left to move
            return dst
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
        for card in ReviewCard.objects.filter(player=src):
            mine = ReviewCard.objects.filter(player=dst, puzzle_id=card.puzzle_id).first()
            if mine is None:
                card.player = dst
                card.save(update_fields=["player"])
            elif card.due < mine.due:
                mine.card, mine.due = card.card, card.due
                mine.save(update_fields=["card", "due"])
        player_merging.send(sender=Player, source=src, target=dst)
        dst.save()
        # Kept as a pointer, not deleted: an answer still in flight with the session's old
        # cookie finds the account through it (``player_for``), instead of a missing row.
        src.merged_into, src.merged_at = dst, timezone.now()
        src.save(update_fields=["merged_into", "merged_at"])
        Player.objects.filter(merged_at__lt=timezone.now() - timedelta(days=1)).delete()
        return dst


def merge_session_into_account(session: MutableMapping[str, Any], user: Any) -> None:
    """On log-in or sign-up: fold the session's anonymous player into the account's."""
    pk = session.pop(SESSION_KEY, None)
    anonymous = Player.objects.filter(pk=pk, user__isnull=True).first() if pk else None
    if anonymous is None:
        return
    account, _created = Player.objects.get_or_create(user=user)
    merge_players(anonymous, account)

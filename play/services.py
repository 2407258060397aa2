"""What changes state in play: starting a game, one action of the person, the next hand, uploads, sharing (and revoking), review items.

Every change to a hand runs in one transaction with the hand's row locked
(``select_for_update``), and an action carries the number of actions the client had seen:
a stale or repeated action (another tab, a double submit, a retry after a lost answer)
changes nothing, so no action is ever lost or applied twice.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tasks_db.compat import TASK_MAX_PRIORITY

from accounts.models import Player
from analysis import records
from kwx import hand_review
from kwx.bots.registry import policy_factory
from kwx.rules import PRESETS, OptionValue, RuleSet, record_options
from kwx.table import seats
from kwx.table.record import DEFAULT_PLAYERS, Header, Record, Replay, finish
from kwx.table.seats import PERSON, Choice
from kwx.table.selfplay import Policy, seeded_deal
from kwx.table.selfplay import play as selfplay
from kwx.table.view import view_for
from kwx_site.priorities import OFFLINE_PRIORITY
from kwx_site.retry import retrying
from puzzles.review import review as fsrs_review

from . import selectors
from .models import Game, Hand, ReviewItem
from .tasks import review_hand

logger = logging.getLogger(__name__)

LEVELS = ("basic", "companion", "strong", "judge", "boosted")
"""The bots one can sit down with: keys of registry.BOTS (the one registry of bots), weakest first (``boosted``, the judge
with regression trees, is the strongest; docs/bots.md); ``advice`` rolls hands out and is too slow to answer inside a
page's request."""
SEAT_BOT = "strong"
"""The bot replayed in the person's seat on each played hand's wall (``Hand.bot_result``), the yardstick /progress/
shows beside the person's play (the review's bot is ``settings.REVIEW_POLICY``)."""
PLAYERS = DEFAULT_PLAYERS
MAX_UPLOAD = records.MAX_RECORD
"""Characters of a pasted or uploaded record (a whole hand is about 3,000)."""


class PlayError(ValueError):
    """A refused request: ``field`` names the input at fault, ``message`` says what is wrong."""

    def __init__(self, field: str, message: Any, action: int | None = None) -> None:
        super().__init__(str(message))
        self.field = field
        self.message = message
        self.action = action


def start_game(*, player: Player, level: str, rules: str, base: int, piao: int, options: Mapping[str, OptionValue] | None = None, client: str = "") -> Game:
    """A new game against two bots and its first hand (the dealer drawn at random, §5); the values as ``forms.StartForm`` checked them.

    ``rules`` is a preset key and ``options`` the room switches turned (town-rules.md §3.3, each
    with its couplings): the game stores every option resolved, and each hand's record carries them.
    ``client``: the request's client address (``kwx_site.limits.client_ip``), whose place in the review queue a hand's review takes.
    """
    values = PRESETS[rules].switched(options or {})

    def job() -> Game:
        with transaction.atomic():
            game = Game.objects.create(player=player, level=level, rules=rules, options=values.as_dict(), base=base)
            _new_hand(game, 1, secrets.randbelow(3), hand_piao(values, piao), client)
            return game

    return retrying(job)


def hand_piao(values: RuleSet, asked: int, first: int | None = None) -> int:
    """The person's 漂 for a hand under ``piao_mode``: as asked (per hand), the first hand's (fixed: kept for the game) or 0 (off)."""
    if values.piao_mode == "off":
        return 0
    if values.piao_mode == "fixed" and first is not None:
        return first
    return asked


def _new_hand(game: Game, number: int, dealer: int, piao: int, client: str) -> Hand:
    """Deal a hand from a fresh secret seed (the wall, and the dice of 上楼 from the same seed) and let the bots play up to the person's first decision."""
    seed = secrets.randbits(62)
    dealt = seeded_deal(seed, dealer)
    values = game.values
    written = record_options(game.rules, values) if not PRESETS[game.rules].legacy else {}  # a legacy record writes what it always wrote
    dice = dealt.dice if values.shang_lou else None
    record = Record(Header(game.rules, tuple(written.items()), game.base, (piao, 0, 0), PLAYERS, dealer, dealt.hands, dice))
    done, over = seats.play_on(record.replay(dealt.wall), _bot(game.level), None, auto=game.auto)
    hand = Hand(player=game.player, game=game, number=number, seed=seed, record=done.record.to_json())
    if over:
        _finish(hand, done, client)
    hand.save()
    return hand


def _finish(hand: Hand, done: Replay, client: str = "") -> None:
    """Mark a hand over (``done``: its record played out): its result, nets and next dealer, and what the strong bot made of the same wall."""
    hand.over = True
    hand.result = done.result or ""
    hand.nets = list(done.settlement.nets)
    hand.next_dealer = done.next_dealer
    hand.outcome = outcome(done, hand.seat)
    if hand.seed is not None and hand.game is not None:
        hand.bot_result = bot_outcome(hand.seed, done.header, hand.game.level)
    if hand.source != Hand.BRANCH:  # a branch's review is worked out when its player asks for it
        queue_review(hand, client)


def outcome(done: Replay, seat: int) -> dict[str, Any]:
    """A seat's figures in a finished hand: won, dealt in, declared 亮倒, net money."""
    facts = done.seat_facts(seat)
    return {"won": facts.won, "dealt_in": facts.dealt_in, "liang_dao": facts.liang_dao, "net": facts.net}


def bot_outcome(seed: int, header: Header, level: str) -> dict[str, Any]:
    """The figures of SEAT_BOT (the strong bot) in the person's seat on the same wall, against the same bots."""
    judge, other = policy_factory(SEAT_BOT)(), policy_factory(level)()
    policies = [judge if s == PERSON else other for s in range(3)]
    done = selfplay(seeded_deal(seed, header.dealer), policies, rules=header.rules, options=header.options, base=header.base, piao=header.piao, players=header.players)
    return outcome(done, PERSON)


def _current(player: Player, game_id: int) -> Hand:
    """The game's latest hand, locked (Game.DoesNotExist unless the game is the player's)."""
    hand = Hand.objects.select_for_update().select_related("game").filter(game_id=game_id, game__player=player).order_by("-number").first()
    if hand is None:
        raise Game.DoesNotExist("no such game")
    return hand


class StaleHand(PlayError):
    """An action posted from a page of an earlier hand of the game: nothing was played."""


def act(*, player: Player, game_id: int, seen: int | None, choice: Choice, hand_id: int | None, client: str = "") -> tuple[Hand, bool, Replay | None]:
    """Apply the person's choice if the client saw the table as it is; the hand, whether it changed, and its replay (when changed).

    ``seen`` is the number of actions the client had seen: anything else (a repeat, another
    tab, an older page, None for a count that could not be read) changes nothing. ``hand_id`` is
    the hand the page showed: another hand's page (or None, a page that named none) raises
    StaleHand and changes nothing, even at the same ``seen`` (every hand's first decision is at a
    small count). A choice the table does not offer raises PlayError. ``client``: as ``start_game``.
    """

    def job() -> tuple[Hand, bool, Replay | None]:
        with transaction.atomic():
            hand = _current(player, game_id)
            if hand_id != hand.pk:
                raise StaleHand("hand", _("That move was made on the page of an earlier hand: nothing was played. This is the table of hand %(number)d now.") % {"number": hand.number})
            if hand.over or seen != hand.action_count:
                return hand, False, None
            done = seats.replayed(hand.kwx_record, hand.seed)
            if not seats.check_choice(done.final, choice):
                raise PlayError("verb", _("That is not one of your choices now."))
            done, over = seats.play_on(done, _bot(hand.game.level), choice, auto=hand.game.auto)
            hand.record = done.record.to_json()
            if over:
                _finish(hand, done, client)
            hand.save()
            return hand, True, done

    return retrying(job)


def set_auto(*, player: Player, game_id: int, win: bool, passes: bool, client: str = "") -> Hand:
    """Turn the game's 自动胡 / 自动过 switches on or off, and let them answer the decision on the table now if they cover it; the current hand.

    Kept with the game, so they hold for every later hand (Game.DoesNotExist unless the game is the player's).
    """

    def job() -> Hand:
        with transaction.atomic():
            hand = _current(player, game_id)
            game = hand.game
            game.auto_win, game.auto_pass = win, passes
            game.save(update_fields=["auto_win", "auto_pass"])
            if hand.over:
                return hand
            done = seats.replayed(hand.kwx_record, hand.seed)
            choice = seats.auto_choice(view_for(done.final, hand.seat), game.auto)
            if choice is not None:
                done, over = seats.play_on(done, _bot(game.level), choice, auto=game.auto)
                hand.record = done.record.to_json()
                if over:
                    _finish(hand, done, client)
                hand.save()
            return hand

    return retrying(job)


def next_hand(*, player: Player, game_id: int, number: int | None, piao: int, client: str = "") -> Hand:
    """Deal the game's next hand once the current one (number ``number``) is over; the dealer as §5.

    A repeat (the hand already dealt, the current one not over, or a ``number`` that is not the current hand's) changes nothing.
    """

    def job() -> Hand:
        with transaction.atomic():
            hand = _current(player, game_id)
            if not hand.over or number != hand.number:
                return hand
            dealer = hand.next_dealer if hand.next_dealer is not None else hand.kwx_record.header.dealer
            first = hand.game.hands.order_by("number").values_list("record", flat=True).first()
            kept = hand_piao(hand.game.values, piao, first["piao"][PERSON] if first else None)
            return _new_hand(hand.game, hand.number + 1, dealer, kept, client)

    try:
        return retrying(job)
    except IntegrityError:  # another request dealt it first
        return Hand.objects.filter(game_id=game_id, game__player=player).order_by("-number").first()


BOT_PLAYS = "bot"
"""The branch form's ``move`` that lets the strong bot (SEAT_BOT) play the rest of the hand in the person's seat."""


def _bot(level: str) -> Policy:
    """A bot of ``level`` (a key of ``kwx.bots.registry``), the one policy of both bot seats."""
    return policy_factory(level)()


def bots_of(hand: Hand) -> str:
    """The bots' level a hand was played against: its game's, or for a branch its origin's."""
    while hand.game is None and hand.origin is not None:
        hand = hand.origin
    return hand.game.level if hand.game is not None else SEAT_BOT


def branch(*, player: Player, hand_id: int, step: int | None, choice: Choice) -> Hand:
    """Play on from a decision of the player's finished hand with ``choice``: the same wall and the same bots, a new hand linked to its origin.

    The branch's kwx-hand/1 record is the origin's first ``step`` actions, then the choice, then
    the bots' play up to the person's next decision (or the hand's end). Raises PlayError for a
    hand whose wall is not known (an upload), a step that is not a decision, or a choice not
    offered there. The same choice at the same step again (a double submit) gives the branch
    already made: the bots play as they did, so its record starts the same way.
    """
    step_n = step

    def job() -> Hand:
        with transaction.atomic():
            origin = _own_locked(player, hand_id)
            if not origin.over or origin.seed is None:
                raise PlayError("hand", _("Only a hand played here can be played on from a step, once it is over: an uploaded record does not say the wall."))
            if step_n is None or not 0 <= step_n < origin.action_count:
                raise PlayError("step", _("The step must be a whole number from 0 to %(last)d.") % {"last": origin.action_count - 1})
            done = seats.replayed(origin.kwx_record, origin.seed)
            state = done.states[step_n]
            if not seats.check_choice(state, choice, origin.seat):
                raise PlayError("move", _("That is not one of your choices at step %(step)d.") % {"step": step_n})
            kept = Record(done.record.header, done.record.actions[:step_n])
            played, over = seats.play_on(finish(kept, done.states[: step_n + 1]), _bot(bots_of(origin)), choice, origin.seat)
            actions = played.record.actions
            for made in origin.branches.filter(origin_step=step_n):
                if made.kwx_record.actions[: len(actions)] == actions:
                    return made
            hand = Hand(player=player, source=Hand.BRANCH, seat=origin.seat, seed=origin.seed, number=origin.number, record=played.record.to_json(), origin=origin, origin_step=step_n)
            if over:
                _finish(hand, played)
            hand.save()
            return hand

    return retrying(job)


def act_branch(*, player: Player, hand_id: int, seen: int | None, choice: Choice | None) -> tuple[Hand, Replay | None]:
    """One choice of the person in a branch (None: the strong bot plays the rest for them); a page that is not the branch as it is (``seen``) changes nothing."""
    seen_n = seen

    def job() -> tuple[Hand, Replay | None]:
        with transaction.atomic():
            hand = _own_locked(player, hand_id)
            if hand.source != Hand.BRANCH:
                raise Hand.DoesNotExist("no such branch")
            if hand.over or seen_n != hand.action_count:
                return hand, None
            done = seats.replayed(hand.kwx_record, hand.seed)
            if choice is None:
                done, over = seats.bot_plays_on(done, _bot(bots_of(hand)), _bot(SEAT_BOT), hand.seat), True
            else:
                if not seats.check_choice(done.final, choice, hand.seat):
                    raise PlayError("verb", _("That is not one of your choices now."))
                done, over = seats.play_on(done, _bot(bots_of(hand)), choice, hand.seat)
            hand.record = done.record.to_json()
            if over:
                _finish(hand, done)
            hand.save()
            return hand, done

    return retrying(job)


def upload(*, player: Player, data: dict[str, Any], replay: Replay, seat: int = PERSON, client: str = "") -> Hand:
    """Store a pasted or uploaded record (``data``, and ``replay``, the one replay ``forms.UploadForm`` made of it) as the player's hand, to review from ``seat``'s chair
    (``client``: as ``start_game``)."""
    done = replay
    hand = Hand(player=player, source=Hand.UPLOAD, seat=seat, record=data)
    with transaction.atomic():
        if done.result is not None:
            hand.over, hand.result, hand.nets, hand.next_dealer = True, done.result, list(done.settlement.nets), done.next_dealer
            hand.outcome = outcome(done, hand.seat)
        queue_review(hand, client)  # the task reads the hand's id once this transaction commits
        hand.save()
    return hand


def _own_locked(player: Player, hand_id: int) -> Hand:
    """The player's hand, its row locked (Hand.DoesNotExist for anyone else's)."""
    hand = Hand.objects.select_for_update().filter(pk=hand_id, player=player).first()
    if hand is None:
        raise Hand.DoesNotExist("no such hand")
    return hand


def share(*, player: Player, hand_id: int) -> Hand:
    """Give the player's hand an unguessable share token (kept once made)."""
    with transaction.atomic():
        hand = _own_locked(player, hand_id)
        if not hand.share_token:
            hand.share_token = secrets.token_urlsafe(16)
            hand.save(update_fields=["share_token"])
        return hand


def unshare(*, player: Player, hand_id: int) -> Hand:
    """Revoke the player's share token of the hand (a later share makes a new one)."""
    with transaction.atomic():
        hand = _own_locked(player, hand_id)
        if hand.share_token:
            hand.share_token = None
            hand.save(update_fields=["share_token"])
        return hand


REVIEW_FIELDS = ["review", "review_state", "review_done", "review_total", "review_beat", "review_client"]
"""What ``queue_review`` sets (for a ``save(update_fields=…)``)."""
REVIEW_TOP = TASK_MAX_PRIORITY
"""The task priority of a player's first review in the queue (a played hand's)."""
REVIEW_FLOOR = OFFLINE_PRIORITY + 1
"""The lowest priority a review gets: still before the offline shards (tournaments, drill banks)."""


def client_key(address: str) -> str:
    """The review queue's name for a client address: a keyed hash (the address itself is not stored); empty for none."""
    if not address:
        return ""
    return hmac.new(settings.SECRET_KEY.encode(), address.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:32]


def queue_review(hand: Hand, client: str = "") -> None:
    """Inside the transaction that ends a hand (or asks again): its review queued, the task enqueued once that transaction commits.

    ``client`` (the request's address) and the hand's player decide its place in the queue (``review_priority``)."""
    hand.review, hand.review_state, hand.review_done, hand.review_total = None, Hand.QUEUED, 0, 0
    hand.review_beat, hand.review_client = timezone.now(), client_key(client)
    transaction.on_commit(lambda: enqueue_review(hand.pk), robust=True)


def review_priority(hand_id: int) -> int:
    """The task priority of a hand's review: players (and client addresses) are served in turn, played hands before uploads and branches.

    Issue 37: claims go by priority, then first in, first out, so one visitor who ended 20 hands in a minute
    made everyone else's reviews wait behind them. A review's priority falls by 2 for each review its player,
    or its client address (a visitor may drop its cookie), already has queued or running, and by 1 more when
    the hand was not played here (an upload, a branch asked for): everyone's first review comes before
    anyone's second, and within a turn played hands come first.
    """
    hand = Hand.objects.filter(pk=hand_id).values("player_id", "review_client", "source").first()
    if hand is None:
        return REVIEW_FLOOR
    waiting = Hand.objects.filter(review_state__in=(Hand.QUEUED, Hand.RUNNING)).exclude(pk=hand_id)
    ahead = waiting.filter(player_id=hand["player_id"]).count()
    if hand["review_client"]:
        ahead = max(ahead, waiting.filter(review_client=hand["review_client"]).count())
    played = hand["source"] == Hand.PLAY
    return max(REVIEW_FLOOR, REVIEW_TOP - 2 * ahead - (0 if played else 1))


def enqueue_review(hand_id: int) -> None:
    """Put the hand's review task in the queue at its priority; if the queue refuses it, the review is marked failed (the page offers to try again)."""
    try:
        review_hand.using(priority=review_priority(hand_id)).enqueue(hand_id)
    except Exception:
        logger.exception("could not enqueue the review of hand %s", hand_id)
        Hand.objects.filter(pk=hand_id, review_state=Hand.QUEUED).update(review_state=Hand.FAILED)


def request_review(*, player: Player | None, hand_id: int, client: str = "") -> Hand:
    """Queue the review of the player's finished hand again when it failed, was never asked for, or is stuck (a repeat changes nothing).

    Stuck (``selectors.review_stuck``): queued, but its task is in no queue (its enqueue was lost), or running
    without progress for long (its worker is gone: its task would wait for the lease)."""

    def job() -> Hand:
        with transaction.atomic():
            hand = Hand.objects.select_for_update().filter(pk=hand_id, player=player).first() if player else None
            if hand is None:
                raise Hand.DoesNotExist("no such hand")
            if hand.reviewable and (hand.review_state in (Hand.NOT_ASKED, Hand.FAILED) or selectors.review_stuck(hand)):
                queue_review(hand, client)
                hand.save(update_fields=REVIEW_FIELDS)
            return hand

    return retrying(job)


@dataclass(frozen=True)
class Answered:
    """A review item answered: the item, and whether the answer was right.

    ``correct`` None: its review is being worked out again, nothing to judge by, the item unmoved."""

    item: ReviewItem
    correct: bool | None


def answer_review(*, player: Player | None, item_id: int, choice: Choice | None, now: datetime | None = None) -> Answered:
    """Judge an answer to a review item and move the item on its FSRS schedule (right: Good, wrong: Again).

    ``choice`` None: no answer the form could read (wrong). Raises ReviewItem.DoesNotExist for anyone else's item."""
    now = now or datetime.now(UTC)
    with transaction.atomic():
        item = ReviewItem.objects.select_for_update(of=("self",)).filter(pk=item_id, player=player).select_related("hand").first() if player else None
        if item is None:
            raise ReviewItem.DoesNotExist("no such review item")
        decision = selectors.decision_at(item.hand, item.step)
        if decision is None:
            return Answered(item, None)
        correct = choice is not None and hand_review.judge(decision, choice)
        item.card, item.due = fsrs_review(item.card, correct, now)
        item.save(update_fields=["card", "due"])
        return Answered(item, correct)

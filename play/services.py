"""What changes state in play: starting a game, one action of the person, the next hand, uploads, sharing (and revoking), review items.

Every change to a hand runs in one transaction with the hand's row locked
(``select_for_update``), and an action carries the number of actions the client had seen:
a stale or repeated action (another tab, a double submit, a retry after a lost answer)
changes nothing, so no action is ever lost or applied twice.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils.translation import gettext_lazy as _

from analysis import records
from kwx.bots.registry import policy_factory
from kwx.errors import printable
from kwx.hand.rules import PRESETS
from kwx.hand.tiles import KIND_OF_ID
from kwx.numbers import read_whole
from kwx.table.record import DEFAULT_PLAYERS, Header, Record, Replay
from kwx.table.selfplay import play as selfplay
from kwx.table.selfplay import seeded_deal
from kwx.table.settlement import MAX_BASE, PIAO_CHOICES
from kwx.table.table import Action
from puzzles.models import Player
from puzzles.review import review as fsrs_review

from . import review, seats
from .models import Game, Hand, ReviewItem
from .seats import PERSON, Choice

logger = logging.getLogger(__name__)

LEVELS = ("basic", "companion", "strong")
"""The bots one can sit down with: keys of registry.BOTS (the one registry of bots); ``advice`` and
``judge`` roll hands out and are too slow to answer inside a page's request."""
ADVICE_BOT = "strong"
"""The bot whose choices the review shows and whose play in the person's seat /progress/ compares."""
PLAYERS = DEFAULT_PLAYERS
SQLITE_RETRIES = 40
MAX_UPLOAD = records.MAX_RECORD
"""Characters of a pasted or uploaded record (a whole hand is about 3,000)."""
T = TypeVar("T")


class PlayError(ValueError):
    """A refused request: ``field`` names the input at fault, ``message`` says what is wrong."""

    def __init__(self, field: str, message: Any, action: int | None = None) -> None:
        super().__init__(str(message))
        self.field = field
        self.message = message
        self.action = action


def _retrying(job: Callable[[], T]) -> T:
    """Run a transaction, trying again when SQLite reports the database busy."""
    for tries in range(SQLITE_RETRIES):
        try:
            return job()
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc) or tries == SQLITE_RETRIES - 1:
                raise
            time.sleep(0.005 * (1 + tries) * (1 + random.random()))
    raise AssertionError("unreachable")


def check_settings(level: Any, rules: Any, base: Any, piao: Any) -> tuple[str, str, int, int]:
    """The start form's values, checked (raises PlayError naming the field)."""
    if level not in LEVELS:
        raise PlayError("level", _("Choose the bots' level: basic, companion or strong."))
    if rules not in PRESETS:
        raise PlayError("rules", _("Choose one of the rule presets."))
    return level, rules, check_base(base), check_piao(piao)


def check_base(base: Any) -> int:
    """The base stake as a whole number from 1 to MAX_BASE."""
    number = read_whole(str(base).strip())
    if number is None or not 1 <= number <= MAX_BASE:
        raise PlayError("base", _("The base stake must be a whole number from 1 to %(limit)d.") % {"limit": MAX_BASE})
    return number


def check_piao(piao: Any) -> int:
    """漂 as one of 0, 1, 2, 5."""
    number = read_whole(str(piao).strip())
    if number is None or number not in PIAO_CHOICES:
        raise PlayError("piao", _("漂 must be 0, 1, 2 or 5."))
    return number


def start_game(player: Player, level: Any, rules: Any, base: Any, piao: Any) -> Game:
    """A new game against two bots and its first hand (the dealer drawn at random, §5)."""
    level, rules, base_n, piao_n = check_settings(level, rules, base, piao)

    def job() -> Game:
        with transaction.atomic():
            game = Game.objects.create(player=player, level=level, rules=rules, base=base_n)
            _new_hand(game, 1, secrets.randbelow(3), piao_n)
            return game

    return _retrying(job)


def _new_hand(game: Game, number: int, dealer: int, piao: int) -> Hand:
    """Deal a hand from a fresh secret seed and let the bots play up to the person's first decision."""
    seed = secrets.randbits(62)
    dealt = seeded_deal(seed, dealer)
    record = Record(Header(game.rules, (), game.base, (piao, 0, 0), PLAYERS, dealer, dealt.hands))
    done, over = seats.play_on(record.replay(dealt.wall), game.level, None)
    hand = Hand(player=game.player, game=game, number=number, seed=seed, record=done.record.to_json())
    if over:
        _finish(hand, done)
    hand.save()
    return hand


def _finish(hand: Hand, done: Replay) -> None:
    """Mark a hand over (``done``: its record played out): its result, nets and next dealer, and what the strong bot made of the same wall."""
    hand.over = True
    hand.result = done.result or ""
    hand.nets = list(done.settlement.nets)
    hand.next_dealer = done.next_dealer
    hand.outcome = outcome(done, hand.seat)
    if hand.seed is not None and hand.game is not None:
        hand.bot_result = bot_outcome(hand.seed, done.header, hand.game.level)
    queue_review(hand)


def outcome(done: Replay, seat: int) -> dict[str, Any]:
    """A seat's figures in a finished hand: won, dealt in, declared 亮倒, net money."""
    facts = done.seat_facts(seat)
    return {"won": facts.won, "dealt_in": facts.dealt_in, "liang_dao": facts.liang_dao, "net": facts.net}


def bot_outcome(seed: int, header: Header, level: str) -> dict[str, Any]:
    """The strong bot's figures in the person's seat on the same wall, against the same bots."""
    judge, other = policy_factory(ADVICE_BOT)(), policy_factory(level)()
    policies = [judge if s == PERSON else other for s in range(3)]
    done = selfplay(seeded_deal(seed, header.dealer), policies, rules=header.rules, options=header.options, base=header.base, piao=header.piao, players=header.players)
    return outcome(done, PERSON)


def _current(player: Player, game_id: int) -> Hand:
    """The game's latest hand, locked (Game.DoesNotExist unless the game is the player's)."""
    hand = Hand.objects.select_for_update().select_related("game").filter(game_id=game_id, game__player=player).order_by("-number").first()
    if hand is None:
        raise Game.DoesNotExist("no such game")
    return hand


def parse_choice(move: Any) -> Choice:
    """The person's choice from the form's ``move``: ``pass`` (过) or ``verb tile`` with ``ld`` for 亮倒 (raises PlayError)."""
    words = str(move or "").split()
    if words == [seats.PASS]:
        return Choice(None)
    if len(words) not in (2, 3) or words[0] not in ("discard", "pong", "kong", "win") or words[2:] not in ([], ["ld"]):
        raise PlayError("move", _("Choose one of the offered actions."))
    if words[1] not in KIND_OF_ID:
        raise PlayError("move", _("Choose a tile of your hand."))
    return Choice(Action(PERSON, words[0], KIND_OF_ID[words[1]], words[2:] == ["ld"]))


class StaleHand(PlayError):
    """An action posted from a page of an earlier hand of the game: nothing was played."""


def act(player: Player, game_id: int, seen: Any, choice: Choice, *, hand_id: Any = None) -> tuple[Hand, bool, Replay | None]:
    """Apply the person's choice if the client saw the table as it is; the hand, whether it changed, and its replay (when changed).

    ``seen`` is the number of actions the client had seen: anything else (a repeat, another
    tab, an older page) changes nothing. ``hand_id`` (the form's ``hand``; None: not checked) is
    the hand the page showed: another hand's page raises StaleHand and changes nothing, even at
    the same ``seen`` (every hand's first decision is at a small count). A choice the table does
    not offer raises PlayError.
    """
    seen_n = read_whole(str(seen).strip())

    def job() -> tuple[Hand, bool, Replay | None]:
        with transaction.atomic():
            hand = _current(player, game_id)
            if hand_id is not None and str(hand_id).strip() != str(hand.pk):
                raise StaleHand("hand", _("That move was made on the page of an earlier hand: nothing was played. This is the table of hand %(number)d now.") % {"number": hand.number})
            if hand.over or seen_n != hand.action_count:
                return hand, False, None
            done = seats.replayed(hand.record, hand.seed)
            if not seats.check_choice(done.final, choice):
                raise PlayError("verb", _("That is not one of your choices now."))
            done, over = seats.play_on(done, hand.game.level, choice)
            hand.record = done.record.to_json()
            if over:
                _finish(hand, done)
            hand.save()
            return hand, True, done

    return _retrying(job)


def next_hand(player: Player, game_id: int, number: Any, piao: Any) -> Hand:
    """Deal the game's next hand once the current one (number ``number``) is over; the dealer as §5.

    A repeat (the hand already dealt, or the current one not over) changes nothing.
    """
    piao_n = check_piao(piao)

    def job() -> Hand:
        with transaction.atomic():
            hand = _current(player, game_id)
            if not hand.over or str(number).strip() != str(hand.number):
                return hand
            dealer = hand.next_dealer if hand.next_dealer is not None else json_dealer(hand)
            return _new_hand(hand.game, hand.number + 1, dealer, piao_n)

    try:
        return _retrying(job)
    except IntegrityError:  # another request dealt it first
        return Hand.objects.filter(game_id=game_id, game__player=player).order_by("-number").first()


def json_dealer(hand: Hand) -> int:
    """The dealer a hand's record names."""
    return int(hand.record["dealer"])


def read_record(text: Any) -> tuple[dict[str, Any], Replay]:
    """A pasted or uploaded kwx-hand/1 record (text or the file's bytes), read by the replay API's reader; the data and its replay (raises PlayError naming the field or action)."""
    if not isinstance(text, (str, bytes)) or not text.strip():
        raise PlayError("record", _("Paste a kwx-hand/1 record (JSON) or choose a file."))
    try:
        return records.read_record(text, whole="record")
    except records.RecordRefused as exc:
        message: Any = exc.message
        if exc.action is not None:
            message = _("Action %(index)d (%(action)s): %(problem)s") % {
                "index": exc.action,
                "action": _action_text(text, exc.action),
                "problem": message,
            }
        raise PlayError(exc.field, message, exc.action) from exc


def _action_text(text: str | bytes, index: int) -> str:
    """The faulty action as it was written (short; a character that cannot be shown as its code point)."""
    try:
        return printable(json.dumps(json.loads(text)["actions"][index], ensure_ascii=False))[:80]
    except (ValueError, KeyError, IndexError, TypeError):
        return "?"


def upload(player: Player, text: Any, seat: Any = PERSON) -> Hand:
    """Store a pasted or uploaded record as the player's hand, to review from ``seat``'s chair."""
    data, done = read_record(text)
    seat_text = str(seat).strip()
    if seat_text not in ("0", "1", "2"):
        raise PlayError("seat", _("Choose the seat to review: 0, 1 or 2."))
    hand = Hand(player=player, source=Hand.UPLOAD, seat=int(seat_text), record=data)
    with transaction.atomic():
        if done.result is not None:
            hand.over, hand.result, hand.nets, hand.next_dealer = True, done.result, list(done.settlement.nets), done.next_dealer
            hand.outcome = outcome(done, hand.seat)
        queue_review(hand)  # the task reads the hand's id once this transaction commits
        hand.save()
    return hand


def _own_locked(player: Player, hand_id: int) -> Hand:
    """The player's hand, its row locked (Hand.DoesNotExist for anyone else's)."""
    hand = Hand.objects.select_for_update().filter(pk=hand_id, player=player).first()
    if hand is None:
        raise Hand.DoesNotExist("no such hand")
    return hand


def share(player: Player, hand_id: int) -> Hand:
    """Give the player's hand an unguessable share token (kept once made)."""
    with transaction.atomic():
        hand = _own_locked(player, hand_id)
        if not hand.share_token:
            hand.share_token = secrets.token_urlsafe(16)
            hand.save(update_fields=["share_token"])
        return hand


def unshare(player: Player, hand_id: int) -> Hand:
    """Revoke the player's share token of the hand (a later share makes a new one)."""
    with transaction.atomic():
        hand = _own_locked(player, hand_id)
        if hand.share_token:
            hand.share_token = None
            hand.save(update_fields=["share_token"])
        return hand


def queue_review(hand: Hand) -> None:
    """Inside the transaction that ends a hand (or asks again): its review queued, the task enqueued once that transaction commits."""
    hand.review, hand.review_state, hand.review_done, hand.review_total = None, Hand.QUEUED, 0, 0
    transaction.on_commit(lambda: enqueue_review(hand.pk), robust=True)


def enqueue_review(hand_id: int) -> None:
    """Put the hand's review task in the queue; if the queue refuses it, the review is marked failed (the page offers to try again)."""
    from .tasks import review_hand  # the task module imports this one

    try:
        review_hand.enqueue(hand_id)
    except Exception:
        logger.exception("could not enqueue the review of hand %s", hand_id)
        Hand.objects.filter(pk=hand_id, review_state=Hand.QUEUED).update(review_state=Hand.FAILED)


def request_review(player: Player | None, hand_id: int) -> Hand:
    """Queue the review of the player's finished hand again when it failed or was never asked for (a repeat changes nothing)."""

    def job() -> Hand:
        with transaction.atomic():
            hand = Hand.objects.select_for_update().filter(pk=hand_id, player=player).first() if player else None
            if hand is None:
                raise Hand.DoesNotExist("no such hand")
            if hand.reviewable and hand.review_state in (Hand.NOT_ASKED, Hand.FAILED):
                queue_review(hand)
                hand.save(update_fields=["review", "review_state", "review_done", "review_total"])
            return hand

    return _retrying(job)


def work_review(*, hand_id: int, policy: str, work_per_choice: int, decisions: int | None = None) -> str:
    """The review task's work: judge every decision of the hand's seat, storing each as it is done, then the whole review.

    Idempotent: the same record gives the same figures (seeds from the record, a work budget),
    a review already done is left as it is, and a run that finds the decisions an earlier run
    (killed mid-task) stored with the same method goes on from there. ``decisions`` stops this
    run after that many more (the review stays running; the next run goes on). An error marks
    the review failed and is raised again (the task fails).
    """
    method = review.Method(policy, work_per_choice)
    hand = Hand.objects.filter(pk=hand_id).first()
    if hand is None or not hand.reviewable:
        return "no such hand to review"
    if hand.review_state == Hand.DONE:
        return "reviewed already"
    try:
        return _work_review(hand, method, decisions)
    except Exception:
        Hand.objects.filter(pk=hand_id).exclude(review_state=Hand.DONE).update(review_state=Hand.FAILED)
        raise


def _work_review(hand: Hand, method: review.Method, limit: int | None) -> str:
    points = review.decision_points(hand.record, hand.seat)
    stored = hand.review or {}
    decisions: list[dict[str, Any]] = list(stored.get("decisions", [])) if stored.get("method") == method.as_dict() else []
    steps = {d["step"] for d in decisions}
    mark = lambda **fields: Hand.objects.filter(pk=hand.pk).update(review={"method": method.as_dict(), "decisions": decisions}, **fields)
    mark(review_state=Hand.RUNNING, review_total=len(points), review_done=len(decisions))
    todo = [p for p in points if p.step not in steps][:limit]
    for figures in review.review_points(hand.record, hand.seat, todo, review.policies(method.policy), method.work_per_choice):
        decisions.append(figures)
        mark(review_done=len(decisions))
    if len(decisions) < len(points):
        return f"{len(decisions)} of {len(points)} decisions reviewed"
    decisions.sort(key=lambda d: d["step"])
    store_review(hand, review.summary(hand.seat, decisions, method))
    return f"{len(decisions)} decisions reviewed"


def store_review(hand: Hand, figures: dict[str, Any], now: datetime | None = None) -> None:
    """Store a finished hand's review and put its clearly costly decisions in the player's review queue (storing twice changes nothing)."""
    now = now or datetime.now(UTC)
    count = len(figures["decisions"])
    with transaction.atomic():
        Hand.objects.filter(pk=hand.pk).update(review=figures, review_state=Hand.DONE, review_done=count, review_total=count)
        hand.review, hand.review_state, hand.review_done, hand.review_total = figures, Hand.DONE, count, count
        player_id = Hand.objects.filter(pk=hand.pk).values_list("player_id", flat=True).first()
        for decision in figures["decisions"]:
            if not decision.get("costly") or ReviewItem.objects.filter(hand=hand, step=decision["step"]).exists():
                continue
            card, due = fsrs_review(None, False, now)
            ReviewItem.objects.get_or_create(hand=hand, step=decision["step"], defaults={"player_id": player_id, "cost": decision["cost"], "card": card, "due": due})


def answer_review(player: Player, item_id: int, correct: bool, now: datetime | None = None) -> ReviewItem:
    """Move a review item on its FSRS schedule (right: Good, wrong: Again)."""
    now = now or datetime.now(UTC)
    with transaction.atomic():
        item = ReviewItem.objects.select_for_update().filter(pk=item_id, player=player).first()
        if item is None:
            raise ReviewItem.DoesNotExist("no such review item")
        item.card, item.due = fsrs_review(item.card, correct, now)
        item.save(update_fields=["card", "due"])
        return item


def merge_play(source: Player, target: Player) -> None:
    """Move an anonymous session's games, hands and review items to the account's player (inside the merge's transaction)."""
    Game.objects.filter(player=source).update(player=target)
    Hand.objects.filter(player=source).update(player=target)
    ReviewItem.objects.filter(player=source).update(player=target)

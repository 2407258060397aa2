"""What play pages read of the database: games and hands one may see, the score sheet, where a review is, review items, summaries (``play.presenter`` draws the pages)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from accounts.models import Player
from kwx.numbers import read_whole
from kwx.table.seats import PERSON
from kwx_site.table import seat_name

from .models import Game, Hand, ReviewItem


def game_for(player: Player | None, game_id: int) -> Game | None:
    """The player's game (None for anyone else's, or an unknown id)."""
    return Game.objects.filter(pk=game_id, player=player).first() if player else None


def current_hand(game: Game) -> Hand:
    """The game's latest hand."""
    hand = game.hands.order_by("-number").first()
    assert hand is not None
    return hand


def hand_for(player: Player | None, hand_id: int) -> Hand | None:
    """The player's own hand (None for anyone else's)."""
    return Hand.objects.filter(pk=hand_id, player=player).select_related("game").first() if player else None


SHARE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a share token can be (``secrets.token_urlsafe``): anything else is no token, and never reaches the database (a NUL is an error on PostgreSQL)."""


def shared_hand(token: str) -> Hand | None:
    """The hand shared under ``token`` (None when there is none)."""
    return Hand.objects.filter(share_token=token).select_related("game").first() if SHARE_TOKEN.fullmatch(token) else None


def score_sheet(game: Game) -> dict[str, Any]:
    """The game's running score: one row per finished hand (nets) and the totals per seat."""
    rows = []
    totals = [0, 0, 0]
    for hand in game.hands.filter(over=True).order_by("number"):
        nets = hand.nets or [0, 0, 0]
        totals = [t + n for t, n in zip(totals, nets)]
        rows.append({"number": hand.number, "nets": nets, "dealer": hand.record["dealer"], "hand": hand})
    return {"rows": rows, "totals": totals, "names": [seat_name(s, PERSON) for s in range(3)]}


REVIEW_TASK = "play.tasks.review_hand"
"""The review task's path in the task table."""
LOST_AFTER = 60
"""Seconds after which a queued review whose task is in no queue is taken as lost (its enqueue failed unseen): not
at once, since a hand's transaction commits a moment before its task is enqueued."""
STALLED_AFTER = 60
"""Seconds without progress after which a running review is taken as stalled (its worker gone): a review's worker
beats every ``kwx.processes.BEAT`` seconds while its processes work, and at each decision it stores."""


def review_task_waiting(hand_id: int) -> bool:
    """Whether a review task for the hand is in the queue or running (``django_tasks_db``'s table)."""
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    live = DBTaskResult.objects.filter(task_path=REVIEW_TASK, status__in=(TaskResultStatus.READY, TaskResultStatus.RUNNING))
    return live.filter(args_kwargs__args__0=hand_id).exists()


def _quiet_for(hand: Hand, seconds: float) -> bool:
    """Whether the review has shown no sign of life (queued, or progress) for ``seconds``."""
    return hand.review_beat is None or (timezone.now() - hand.review_beat).total_seconds() > seconds


def review_lost(hand: Hand) -> bool:
    """Queued for over ``LOST_AFTER`` seconds, and no task for it in the queue: it would stay queued for ever (issue 37)."""
    return hand.review_state == Hand.QUEUED and _quiet_for(hand, LOST_AFTER) and not review_task_waiting(hand.pk)


def review_stalled(hand: Hand) -> bool:
    """Running, and no progress for over ``STALLED_AFTER`` seconds: its worker has most likely stopped."""
    return hand.review_state == Hand.RUNNING and _quiet_for(hand, STALLED_AFTER)


def review_stuck(hand: Hand) -> bool:
    """A review that will not finish by itself soon: lost (queued, no task) or stalled (running, no progress); it may be queued again."""
    return review_lost(hand) or review_stalled(hand)


def review_status(hand: Hand) -> dict[str, Any]:
    """Where the hand's review is: its state, decisions judged of all, whether it is still being worked out, and whether it is stuck."""
    from django.conf import settings

    state = hand.review_state
    lost, stalled = review_lost(hand), review_stalled(hand)
    return {
        "state": state,
        "done": hand.review_done,
        "total": hand.review_total,
        "pending": state in (Hand.QUEUED, Hand.RUNNING) and not lost,
        "failed": state == Hand.FAILED,
        "not_asked": state == Hand.NOT_ASKED,
        "lost": lost,
        "stalled": stalled,
        "may_ask": state in (Hand.NOT_ASKED, Hand.FAILED) or lost or stalled,
        "quiet_minutes": STALLED_AFTER // 60,
        "lease_minutes": max(1, settings.TASK_LEASE // 60),
    }


def _step(text: str, last: int) -> int:
    number = read_whole(text)
    return last if number is None else min(number, last)


def branch_for(player: Player | None, hand_id: int) -> Hand | None:
    """The player's own branch (a hand played on from a step of another; None for anything else)."""
    if player is None:
        return None
    return Hand.objects.filter(pk=hand_id, player=player, source=Hand.BRANCH).select_related("origin").first()


def decision_at(hand: Hand, step: int) -> dict[str, Any] | None:
    """The reviewed figures of the decision at ``step`` (None if the review is not done or has no decision there)."""
    if hand.review_state != Hand.DONE or not hand.review:
        return None
    return next((d for d in hand.review["decisions"] if d["step"] == step), None)


def hands_of(player: Player | None) -> QuerySet[Hand]:
    """The player's hands, newest first."""
    if player is None:
        return Hand.objects.none()
    return Hand.objects.filter(player=player).order_by("-id")


def due_items(player: Player | None) -> QuerySet[ReviewItem]:
    """The player's review items from played hands that are due, soonest first."""
    if player is None:
        return ReviewItem.objects.none()
    return ReviewItem.objects.filter(player=player, due__lte=timezone.now()).select_related("hand").order_by("due", "pk")


def _rates(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(outcomes)
    if not n:
        return {"hands": 0}
    pct = lambda key: round(100 * sum(1 for o in outcomes if o[key]) / n)
    return {
        "hands": n,
        "win": pct("won"),
        "deal_in": pct("dealt_in"),
        "liang_dao": pct("liang_dao"),
        "points": round(sum(o["net"] for o in outcomes) / n, 2),
    }


def play_summary(player: Player | None) -> dict[str, Any]:
    """Across the player's finished played hands: hands, win, deal-in and 亮倒 rates, points per hand; the strong bot's in the same seat on the same walls (``services.SEAT_BOT``)."""
    mine, bots = [], []
    for outcome, bot in hands_of(player).filter(over=True, source=Hand.PLAY).values_list("outcome", "bot_result"):
        if outcome:
            mine.append(outcome)
        if bot:
            bots.append(bot)
    return {"me": _rates(mine), "bot": _rates(bots)}


def first_due(player: Player | None) -> ReviewItem | None:
    """The player's review item due soonest, if any is due."""
    return due_items(player).first()


def item_url(item: ReviewItem) -> str:
    """Where a review item opens: the review of its hand at its step, asking again."""
    return reverse("play-review", args=[item.hand_id]) + f"?step={item.step}&item={item.pk}"


def first_due_url(player: Player | None) -> str:
    """Where the costly decision due soonest opens (``item_url``); empty when none is due."""
    item = first_due(player)
    return item_url(item) if item is not None else ""


@dataclass(frozen=True)
class ReviewReads:
    """What the review page reads of the database at one step.

    The step, whether an item is asked again there and that item, the branches played on from the step, the review's status."""

    step: int
    asked: bool
    item: ReviewItem | None
    branches: list[Hand]
    status: dict[str, Any]


def review_reads(hand: Hand, step_text: str, item_text: str, shared: bool) -> ReviewReads:
    """What the review reads at the step its query names (the end when none).

    The item asked again there (never on a shared page), the branches played on from it (none while an item is asked, none shared), the review's status."""
    step = _step(step_text.strip(), hand.action_count)
    item_id = read_whole(item_text)
    asked = not shared and item_id is not None
    item = ReviewItem.objects.filter(pk=item_id, hand=hand, step=step).first() if asked and decision_at(hand, step) is not None else None
    branches = list(hand.branches.filter(origin_step=step).order_by("pk")) if not shared and not asked else []
    return ReviewReads(step, asked, item, branches, review_status(hand))


def finished_hands(game: Game) -> list[tuple[Hand, dict[str, Any]]]:
    """The game's finished hands in order, each with its review's status."""
    return [(hand, review_status(hand)) for hand in game.hands.filter(over=True).order_by("number")]

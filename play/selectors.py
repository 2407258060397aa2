"""What play pages read: the table as the person sees it, the score sheet, hints, hands one may see, summaries."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl

from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from analysis.board import Board, canonical_query
from analysis.presenter import page_context
from kwx.hand.ev_analysis import MAX_REVEALED
from kwx.hand.notation import format_hand
from kwx.hand.tiles import TILE_IDS
from kwx.numbers import read_whole
from kwx.table.record import Replay
from kwx.table.table import Action, Table
from kwx.table.view import SeatView, decision_for, view_for
from kwx_site.table import seat_name, table_shown
from kwx_site.text import tile_label
from puzzles.models import Player
from settlement.text import part_text, settlement_json

from . import review as reviewing
from . import seats
from .models import Game, Hand, ReviewItem
from .seats import PERSON

VERB_WORDS = {
    "draw": gettext_noop("draw (摸)"),
    "discard": gettext_noop("discard (打)"),
    "pong": gettext_noop("pong (碰)"),
    "kong": gettext_noop("kong (杠)"),
    "win": gettext_noop("win (胡)"),
}
LOG_LENGTH = 8
LEVEL_NAMES = {"basic": gettext_noop("basic"), "companion": gettext_noop("companion"), "strong": gettext_noop("strong")}


def level_name(level: str) -> str:
    """A bots' level in the active language."""
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


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


def action_text(action: Action, me: int = PERSON, hide_draws: bool = True) -> str:
    """One action in words; another seat's draw never names its tile."""
    who = seat_name(action.seat, me)
    verb = _(VERB_WORDS[action.verb])
    if action.verb == "draw" and hide_draws and action.seat != me:
        return f"{who}: {verb}"
    text = f"{who}: {verb} {tile_label(action.tile)}"
    if action.liang_dao:
        text += " · " + _("亮倒 (reveals the hand)")
    return text


@dataclass(frozen=True)
class Choices:
    """The buttons the person gets: each legal action once (discards are the hand's tiles)."""

    discards: frozenset[str]
    wins: tuple[str, ...]
    kongs: tuple[str, ...]
    pongs: tuple[str, ...]
    declares: tuple[str, ...]
    may_pass: bool

    @property
    def any(self) -> bool:
        """Whether the person has a decision to make."""
        return bool(self.discards or self.wins or self.kongs or self.pongs or self.declares or self.may_pass)


def choices(state: Table, seat: int = PERSON) -> Choices:
    """The person's legal choices in ``state``."""
    decision = decision_for(state, seat)
    options = decision.options
    pick = lambda verb, liang=False: tuple(sorted({a.tile for a in options if a.verb == verb and a.liang_dao == liang}, key=TILE_IDS.index))
    return Choices(
        discards=frozenset(pick("discard")),
        wins=pick("win"),
        kongs=pick("kong"),
        pongs=pick("pong"),
        declares=pick("discard", True),
        may_pass=decision.may_pass,
    )


def last_discard(actions: tuple[Action, ...]) -> int | None:
    """The seat whose river ends with the latest discard (None before any discard, or when it was claimed)."""
    for index in range(len(actions) - 1, -1, -1):
        action = actions[index]
        if action.verb == "discard":
            claimed = index + 1 < len(actions) and actions[index + 1].verb in ("pong", "kong") and actions[index + 1].seat != action.seat
            return None if claimed else action.seat
    return None


def score_sheet(game: Game) -> dict[str, Any]:
    """The game's running score: one row per finished hand (nets) and the totals per seat."""
    rows = []
    totals = [0, 0, 0]
    for hand in game.hands.filter(over=True).order_by("number"):
        nets = hand.nets or [0, 0, 0]
        totals = [t + n for t, n in zip(totals, nets)]
        rows.append({"number": hand.number, "nets": nets, "dealer": hand.record["dealer"], "hand": hand})
    return {"rows": rows, "totals": totals, "names": [seat_name(s, PERSON) for s in range(3)]}


def table_view(hand: Hand, done: Replay | None = None, step: int | None = None, sheet: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the table page shows of ``hand`` from the person's chair (no hidden tile, no wall, no seed).

    With ``step`` (a review), the table as it stood after that many actions; ``done`` the hand's
    replay when the caller has it already, ``sheet`` the game's score sheet (for the running scores).
    """
    if done is None:
        done = seats.replayed(hand.record)
    actions = done.actions if step is None else done.actions[:step]
    state = done.final if step is None else done.states[step]
    me = hand.seat
    over = hand.over and (step is None or step == hand.action_count)
    if sheet is None and hand.game and step is None:
        sheet = score_sheet(hand.game)
    scores = sheet["totals"] if sheet is not None and step is None else None
    shown = table_shown(view_for(state, me, open_hands=over), over=over, scores=scores, last_discard=last_discard(actions))
    out: dict[str, Any] = {
        "hand": hand,
        "game": hand.game,
        "level_name": level_name(hand.game.level) if hand.game else "",
        "seen": len(actions),
        "over": over,
        "state": state,
        "shown": shown,
        "choices": choices(state, me) if not over and step is None else choices_none(),
        "log": [action_text(a, me, hide_draws=not over) for a in actions[-LOG_LENGTH:]],
        "piao": hand.record.get("piao", [0, 0, 0]),
    }
    if over:
        out["settlement"] = settlement_json(done.settlement, done.next_dealer)
        out["settlement"]["nets"] = [{**n, "name": seat_name(i, me)} for i, n in enumerate(out["settlement"]["nets"])]
        out["settlement"]["payments"] = [
            {"payer": seat_name(p.payer, me), "payee": seat_name(p.payee, me), "amount": p.amount, "text": " · ".join(part_text(x) for x in p.parts)} for p in done.settlement.payments
        ]
        for win, made in zip(out["settlement"]["wins"], done.final.wins):
            win["player"] = seat_name(made.seat, me)
            win["tile"] = TILE_IDS[made.kind]
        out["settlement"]["next_dealer_name"] = seat_name(done.next_dealer, me) if done.next_dealer is not None else ""
    return out


def _step(text: str, last: int) -> int:
    number = read_whole(text)
    return last if number is None else min(number, last)


VERB_ORDER = {"discard": 0, "kong": 1, "pong": 2, "win": 3, seats.PASS: 4}


def _in_table_order(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A decision's choices in the table's order (verb, then tile), not by worth: what a re-asked decision offers."""
    return sorted(options, key=lambda o: (VERB_ORDER[o["verb"]], TILE_IDS.index(o["tile"]) if o["tile"] else 0, o["liang_dao"]))


def review_status(hand: Hand) -> dict[str, Any]:
    """Where the hand's review is: its state, decisions judged of all, and whether it is still being worked out."""
    state = hand.review_state
    return {
        "state": state,
        "done": hand.review_done,
        "total": hand.review_total,
        "pending": state in (Hand.QUEUED, Hand.RUNNING),
        "failed": state == Hand.FAILED,
        "not_asked": state == Hand.NOT_ASKED,
    }


def review_view(hand: Hand, step_text: str, item_text: str, shared: bool, done: Replay | None = None) -> dict[str, Any]:
    """The review at one step: the table then, the action taken, the decision's figures, the way to the others.

    Before the review task has stored the figures (``hand.review_state`` not done) the page has
    the hand step by step and the review's status instead of the figures. Reads only.
    """
    figures = hand.review if hand.review_state == Hand.DONE else None
    last = hand.action_count
    step = _step(step_text.strip(), last)
    decisions = figures["decisions"] if figures else []
    at = next((d for d in decisions if d["step"] == step), None)
    done = done or seats.replayed(hand.record)
    view = table_view(hand, done, step=step)
    base = reverse("play-shared", args=[hand.share_token]) if shared else reverse("play-review", args=[hand.pk])
    link = lambda n: f"{base}?step={n}"
    item = None
    item_id = read_whole(item_text)
    if not shared and item_id is not None and at is not None:
        item = ReviewItem.objects.filter(pk=item_id, hand=hand, step=step).first()
    taken = action_text(done.actions[step], hand.seat, hide_draws=False) if step < last and item is None else ""
    steps = [d["step"] for d in decisions]
    return {
        **view,
        "review": figures,
        "review_status": review_status(hand),
        "step": step,
        "last": last,
        "taken": taken,
        "decision": at,
        "decisions": decisions,
        "costly": [d for d in decisions if d["costly"]],
        "item": item,
        "item_choices": _in_table_order(at["options"]) if item and at else [],
        "policy_name": level_name(figures["method"]["policy"]) if figures else "",
        "costly_margin": f"{reviewing.COSTLY_MARGIN:g}",
        "costly_floor": f"{reviewing.COSTLY_FLOOR:g}",
        "shared": shared,
        "share_url": reverse("play-shared", args=[hand.share_token]) if hand.share_token and not shared else "",
        "decision_links": [(d, link(d["step"])) for d in decisions],
        "nav_links": [
            ("first", (_("« Start"), link(0))),
            ("prev-decision", (_("‹ Decision"), link(max([s for s in steps if s < step], default=0)))),
            ("prev", (_("‹ Step"), link(max(0, step - 1)))),
            ("next", (_("Step ›"), link(min(last, step + 1)))),
            ("next-decision", (_("Decision ›"), link(min([s for s in steps if s > step], default=last)))),
            ("last", (_("End »"), link(last))),
        ],
    }


def item_for(player: Player | None, item_id: int) -> ReviewItem | None:
    """The player's review item (None for anyone else's)."""
    return ReviewItem.objects.filter(pk=item_id, player=player).select_related("hand").first() if player else None


def decision_at(hand: Hand, step: int) -> dict[str, Any] | None:
    """The reviewed figures of the decision at ``step`` (None if the review is not done or has no decision there)."""
    if hand.review_state != Hand.DONE or not hand.review:
        return None
    return next((d for d in hand.review["decisions"] if d["step"] == step), None)


def choices_none() -> Choices:
    """No decision (the hand is over)."""
    return Choices(frozenset(), (), (), (), (), False)


def hint(view: SeatView) -> dict[str, Any] | None:
    """The analyzer's discard table for the person's 14 tiles (visible = what the seat has seen; revealed hands marked)."""
    if view.phase not in ("act", "pong") or view.turn != view.seat or view.me.liang_dao:
        return None
    revealed = [h for h in (view.revealed_hand(o) for o in view.others()) if h is not None]
    visible = list(view.visible)
    for other in revealed:
        visible = [max(0, v - h) for v, h in zip(visible, other.held)]
    texts = [format_hand(h) for h in revealed] + [""] * (MAX_REVEALED - len(revealed))
    draws = max(1, view.wall_left // 3)  # the seat's own draws still to come
    board = Board(
        hand=view.hand,
        visible=tuple(visible),
        rules=view.rules.preset.key,
        options={},
        revealed_texts=tuple(texts),
        revealed=tuple(revealed) + (None,) * (MAX_REVEALED - len(revealed)),
        draws_text=str(draws),
        draws=draws,
        rule_set=view.rules,
    )
    base = reverse("analyzer")
    context = page_context(board, base=base, with_ev=False)
    # the EV controls submit to the analyzer, which computes them for this position
    context["fields"] = [(k, v) for k, v in parse_qsl(canonical_query(board)) if k not in ("draws", "ev", "ldwr")]
    context["analyzer_url"] = base
    # no row is chosen yet, and a row's link opens the analyzer page itself
    context["rows"] = [replace(row, chosen=False) for row in context["rows"]]
    context["rows_target"] = ""
    return context


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
    """Across the player's finished played hands: hands, win, deal-in and 亮倒 rates, points per hand; the advice bot's on the same walls."""
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

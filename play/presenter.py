"""What play pages show, drawn from what the selectors read: the table from the person's chair (``SeatView`` shapes, never a whole table),
the review at a step, the game review, a branch, the hint; as ``analysis/presenter.py`` draws the analyzer. Reads no database.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qsl

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from analysis.board import Board, canonical_query
from analysis.presenter import page_context
from kwx import hand_review
from kwx.hand.danger import revealed_rules
from kwx.hand.efficiency import efficiency
from kwx.hand.ev_analysis import MAX_REVEALED
from kwx.hand.money import discard_allowed
from kwx.hand.notation import format_hand
from kwx.hand.tiles import TILE_IDS, with_tile
from kwx.hand.tiles import Hand as Tiles
from kwx.table import seats
from kwx.table.record import Replay
from kwx.table.seat_record import SeatReplay, is_one_seat
from kwx.table.seats import PERSON
from kwx.table.settlement import KONG_TYPES, Payment
from kwx.table.table import Action, IllegalAction, Table, check, forced_kong, win_on
from kwx.table.view import SeatView, decision_for, view_for
from kwx_site.table import seat_name, table_shown
from kwx_site.text import level_name, refusal_words, tile_label
from settlement.text import error_text, kind_text, payment_words, ready_rows, rules_label, settlement_json

from .models import Game, Hand
from .review_chart import worth_chart
from .selectors import ReviewReads

VERB_WORDS = {
    "draw": gettext_noop("draw (摸)"),
    "discard": gettext_noop("discard (打)"),
    "pong": gettext_noop("pong (碰)"),
    "kong": gettext_noop("kong (杠)"),
    "win": gettext_noop("win (胡)"),
    "horses": gettext_noop("turns the horses (买马)"),
}
LOG_LENGTH = 12
"""How many of the latest actions the table lists (newest first: the bots' last moves at hand, older ones below in the scroll box)."""


def action_text(action: Action, me: int = PERSON, hide_draws: bool = True) -> str:
    """One action in words; another seat's draw never names its tile, nor (while the hand is on) the triplets it keeps face down (半亮)."""
    who = seat_name(action.seat, me)
    verb = _(VERB_WORDS[action.verb])
    if action.verb == "draw" and hide_draws and action.seat != me:
        return f"{who}: {verb}"
    if action.verb == "horses":
        return f"{who}: {verb} " + " ".join(tile_label(TILE_IDS[k]) for k in action.horses)
    text = f"{who}: {verb} {tile_label(action.tile)}"
    if action.liang_dao:
        text += " · " + _("亮倒 (reveals the hand)")
    if action.kou:
        if hide_draws and action.seat != me:
            text += " · " + ngettext("%(n)d triplet kept face down (扣牌)", "%(n)d triplets kept face down (扣牌)", len(action.kou)) % {"n": len(action.kou)}
        else:
            text += " · " + _("kept face down (扣牌): %(tiles)s") % {"tiles": " ".join(tile_label(TILE_IDS[k]) for k in sorted(action.kou))}
    return text


@dataclass(frozen=True)
class Choices:
    """The buttons the person gets: each legal action once (discards are the hand's tiles); ``half`` the declaring discards that keep triplets face down (半亮): (tile, the triplets' tiles, the form's move)."""

    discards: frozenset[str]
    wins: tuple[str, ...]
    kongs: tuple[str, ...]
    pongs: tuple[str, ...]
    declares: tuple[str, ...]
    may_pass: bool
    half: tuple[tuple[str, tuple[str, ...], str], ...] = ()

    @property
    def any(self) -> bool:
        """Whether the person has a decision to make."""
        return bool(self.discards or self.wins or self.kongs or self.pongs or self.declares or self.may_pass)


def move_value(action: Action) -> str:
    """An action as the table form posts it (``forms.parse_choice`` reads it back): ``discard 5p ld kou 1p 9s``."""
    words = [action.verb, action.tile] + (["ld"] if action.liang_dao else [])
    if action.kou:
        words += ["kou"] + [TILE_IDS[k] for k in sorted(action.kou)]
    return " ".join(words)


def choices(state: Table, seat: int = PERSON) -> Choices:
    """The person's legal choices in ``state``."""
    decision = decision_for(state, seat)
    options = decision.options
    pick = lambda verb, liang=False: tuple(sorted({a.tile for a in options if a.verb == verb and a.liang_dao == liang and not a.kou}, key=TILE_IDS.index))
    half = sorted((a for a in options if a.kou), key=lambda a: (a.kind, sorted(a.kou)))
    return Choices(
        discards=frozenset(pick("discard")),
        wins=pick("win"),
        kongs=pick("kong"),
        pongs=pick("pong"),
        declares=pick("discard", True),
        may_pass=decision.may_pass,
        half=tuple((a.tile, tuple(TILE_IDS[k] for k in sorted(a.kou) for _ in range(3)), move_value(a)) for a in half),
    )


def _refused_text(state: Table, action: Action) -> str:
    """The table's reason for refusing ``action``, in the active language ("" when it is legal)."""
    try:
        check(state, action)
    except IllegalAction as exc:
        return error_text(exc)
    return ""


def refused(state: Table, me: int = PERSON) -> list[dict[str, Any]]:
    """The moves the rules of this table refuse the person now though the tiles allow them, each with the table's reason (town-rules.md §4):
    a discard that would feed a declared hand, a 亮倒 (declaring discard feeding an earlier declarer, or a meld already made), a 蓄杠 of
    a declared hand's winning tile, an undeclared self-draw under ×2. The tiles are grouped by reason."""
    if state.is_over or state.turn != me or state.phase not in ("act", "pong"):
        return []
    s = state.seats[me]
    legal = set(decision_for(state, me).options)
    found: dict[str, list[str]] = {}
    if not s.liang_dao:
        for kind in (k for k, n in enumerate(s.concealed) if n):
            plain = Action(me, "discard", kind)
            if plain not in legal:
                found.setdefault(_refused_text(state, plain), []).append(TILE_IDS[kind])
                continue
            after = Tiles(with_tile(s.concealed, kind, -1), s.melds)
            declare = Action(me, "discard", kind, liang_dao=True)
            if after.winning_kinds() and declare not in legal:  # ready after it, yet no 亮倒 with it
                found.setdefault(_refused_text(state, declare), []).append(TILE_IDS[kind])
    if state.phase == "act" and state.tile is not None:
        if s.hand.pong_of(state.tile) and Action(me, "kong", state.tile) not in legal:
            found.setdefault(_refused_text(state, Action(me, "kong", state.tile)), []).append(TILE_IDS[state.tile])
        win = Action(me, "win", state.tile)
        if win_on(state, me) is not None and win not in legal:
            found.setdefault(_refused_text(state, win), []).append(TILE_IDS[state.tile])
    return [{"tiles": tiles, "why": why} for why, tiles in found.items() if why]


def last_discard(actions: tuple[Action, ...]) -> int | None:
    """The seat whose river ends with the latest discard (None before any discard, or when it was claimed)."""
    for index in range(len(actions) - 1, -1, -1):
        action = actions[index]
        if action.verb == "discard":
            claimed = index + 1 < len(actions) and actions[index + 1].verb in ("pong", "kong") and actions[index + 1].seat != action.seat
            return None if claimed else action.seat
    return None


def missed_win(state: Table, me: int = PERSON) -> str:
    """Why ``me`` may not win on the tile another seat offers in ``state`` though it completes the hand (屁胡 on a discard, 漏胡); empty otherwise."""
    if state.phase not in ("claim", "rob") or state.turn == me:
        return ""
    win = win_on(state, me)
    if win is None or any(a.verb == "win" for a in decision_for(state, me).options):
        return ""
    name = tile_label(TILE_IDS[win.kind])
    if not win.value.allowed:
        return _("%(tile)s is your winning tile, but you cannot win on it: %(why)s.") % {"tile": name, "why": refusal_words(win.value.reason)}
    return _("%(tile)s is your winning tile, but you cannot win on it: 漏胡 — you let a win go since your last draw, so until you draw again a discard wins only if it is worth more.") % {"tile": name}


def payment_line(payment: Payment, me: int = PERSON) -> str:
    """One payment as ``下家 → 你 2``, from ``me``'s chair."""
    return f"{seat_name(payment.payer, me)} → {seat_name(payment.payee, me)} {payment.amount}"


def kong_payments(done: Replay, kind: int) -> list[Payment]:
    """The kong money (喜钱) paid for the kong of ``kind`` in the hand so far (none for a robbed kong)."""
    return [p for p in done.settlement.payments if any(part.key in KONG_TYPES and part.number("tile") == kind for part in p.parts)]


def action_log(done: Replay, actions: tuple[Action, ...], me: int, over: bool) -> list[dict[str, Any]]:
    """The table's last actions, newest first: each in words, the kong money it made paid (and a 杀马 kong said as made at once), and why a discard of your winning tile could not be won on."""
    lines = []
    for index in range(max(0, len(actions) - LOG_LENGTH), len(actions)):
        action = actions[index]
        money = " · ".join(payment_line(p, me) for p in kong_payments(done, action.kind)) if action.verb == "kong" else ""
        text = action_text(action, me, hide_draws=not over)
        if action.verb == "kong" and forced_kong(done.states[index]) == action:
            text += " · " + _("杀马: a declared hand's triplet met its fourth tile and was konged at once")
        lines.append({"text": text, "money": money, "note": missed_win(done.states[index + 1], me)})
    return lines[::-1]


def own_waits(view: SeatView) -> list[dict[str, Any]]:
    """The viewer's winning tiles while its 13 tiles are ready (the drawn tile set apart), each with the copies it has not seen and how it may be won.

    After the viewer's 亮倒 every win carries its ×2, so a 屁胡 wait is no longer self-draw only. Under
    the town's rules a 屁胡 may still win on a declared seat's discard (``winner_or_payer``), and an
    undeclared self-draw may need ×2 (``self_draw_min_2``): each wait says so.
    """
    hand = view.hand if view.drawn_tile is None else view.hand.with_tile(view.drawn_tile, -1)
    if hand.tile_count != 13:
        return []
    result = efficiency(hand, view.seen, revealed_rules(view.rules) if view.me.liang_dao else view.rules)
    if result.shanten != 0:
        return []
    options = view.rules.options
    waits = []
    for w in result.waits:
        declared_only = not w.discard.allowed and discard_allowed(w.discard, True, options)
        waits.append(
            {
                "tile": TILE_IDS[w.kind],
                "left": w.remaining,
                "self_draw_only": not w.discard.allowed and not declared_only,
                "declared_only": declared_only,
                "no_self_draw": not w.self_draw.allowed,
                "why": refusal_words(w.discard.reason),
                "why_self_draw": refusal_words(w.self_draw.reason),
            }
        )
    return waits


def turn_order(view: SeatView, over: bool) -> list[dict[str, Any]]:
    """The seats in the order they play, from the viewer (你 → 下家 → 上家), the one to play marked."""
    playing = view.turn if not over else None
    return [{"name": seat_name(seat, view.seat), "turn": seat == playing} for seat in (view.seat, (view.seat + 1) % 3, (view.seat + 2) % 3)]


def table_view(hand: Hand, done: Replay | None = None, step: int | None = None, sheet: dict[str, Any] | None = None, open_hands: bool = False, with_hint: bool = False) -> dict[str, Any]:
    """Everything the table page shows of ``hand`` from the person's chair (no hidden tile, no wall, no seed).

    With ``step`` (a review), the table as it stood after that many actions; ``done`` the hand's
    replay when the caller has it already, ``sheet`` the game's score sheet (``selectors.score_sheet``: the running scores);
    ``open_hands`` every seat's hand at every step (only for a hand that is over); ``with_hint`` the analyzer's hint of a hand on.
    """
    if done is None:
        done = seats.replayed(hand.kwx_record)
    actions = done.actions if step is None else done.actions[:step]
    state = done.final if step is None else done.states[step]
    me = hand.seat
    over = hand.over and (step is None or step == hand.action_count)
    scores = sheet["totals"] if sheet is not None and step is None else None
    if scores is not None and not over:  # kong money is paid when the kong is made: it reaches the scores at once
        scores = [total + paid for total, paid in zip(scores, done.settlement.nets)]
    blind = done.header.seat is not None  # one seat's view (an entered hand): the other hands were never seen
    view = view_for(state, me, open_hands=not blind and (over or (open_hands and hand.over)))
    shown = table_shown(view, over=over, scores=scores, last_discard=last_discard(actions))
    out: dict[str, Any] = {
        "hand": hand,
        "game": hand.game,
        "level_name": level_name(hand.game.level) if hand.game else "",
        "seen": len(actions),
        "over": over,
        "shown": shown,
        "choices": choices(state, me) if not over and step is None else choices_none(),
        "log": action_log(done, actions, me, over and not blind),
        "piao": hand.record.get("piao", [0, 0, 0]),
        "order": turn_order(view, over),
        "own_waits": own_waits(view) if not over and step is None else [],  # the play table's (a review's step shows its own figures)
        "offer_note": missed_win(state, me) if not over and step is None else "",
        "kong_money": [payment_line(p, me) for p in done.settlement.payments] if not over and step is None else [],
        "rules_label": rules_label(done.header.rules, state.rules.options),
        "dice": dice_shown(done),
        "kou": [TILE_IDS[k] for k in sorted(state.seats[me].kou)],
        "refused": refused(state, me) if not over and step is None else [],
        "entered": blind,
    }
    if with_hint and not hand.over:
        out["analysis"] = hint(view)
    if over and blind:
        out["entered_end"] = entered_end(done, me)
    if over and (not isinstance(done, SeatReplay) or done.money_known):
        out["settlement"] = end_card(done, me)
    return out


def dice_shown(done: Replay) -> dict[str, Any] | None:
    """The deal's dice where the rules roll them (上楼): the two faces and whether they are a double (every win payment ×2)."""
    dice = done.header.dice
    if dice is None or not done.final.rules.options.shang_lou:
        return None
    return {"faces": dice, "double": dice[0] == dice[1]}


def end_card(done: Replay, me: int = PERSON) -> dict[str, Any]:
    """A finished hand's end as the table shows it from ``me``'s chair: the settlement's JSON with seat names, each win's horses (买马) and their score,
    at a drawn hand under 查大叫 each seat's standing, best wait and value, and every payment with its kind and its parts in words."""
    settlement = done.settlement
    card = settlement_json(settlement, done.next_dealer)
    card["nets"] = [{**n, "name": seat_name(i, me)} for i, n in enumerate(card["nets"])]
    card["payments"] = [
        {"payer": seat_name(p.payer, me), "payee": seat_name(p.payee, me), "amount": p.amount, "kind": p.kind, "kind_text": kind_text(p), "text": " · ".join(payment_words(settlement, p))}
        for p in settlement.payments
    ]
    horses = done.final.horses
    for win, made in zip(card["wins"], done.final.wins):
        win["player"] = seat_name(made.seat, me)
        win["tile"] = TILE_IDS[made.kind]
        win["horses"] = [TILE_IDS[h] for h in horses] if horses is not None and "ma" in win else []
    card["ready"] = [{**row, "name": seat_name(r.seat, me)} for row, r in zip(ready_rows(settlement), settlement.ready)]
    card["next_dealer_name"] = seat_name(done.next_dealer, me) if done.next_dealer is not None else ""
    return card


def entered_end(done: Replay, me: int) -> dict[str, Any]:
    """How an entered hand (one seat's view) ended, in the seat's words: the wins whose tiles were not shown, and whether its money is known."""
    unseen = done.unseen_wins if isinstance(done, SeatReplay) else ()
    return {
        "money_known": not isinstance(done, SeatReplay) or done.money_known,
        "unseen": [{"player": seat_name(seat, me), "tile": TILE_IDS[kind]} for seat, kind in unseen],
        "next_dealer_name": seat_name(done.next_dealer, me) if done.next_dealer is not None else "",
    }


VERB_ORDER = {"discard": 0, "kong": 1, "pong": 2, "win": 3, seats.PASS: 4}


def _in_table_order(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A decision's choices in the table's order (verb, then tile), not by worth: what a re-asked decision offers."""
    return sorted(options, key=lambda o: (VERB_ORDER[o["verb"]], TILE_IDS.index(o["tile"]) if o["tile"] else 0, o["liang_dao"]))


MISTAKES = "costly"
"""The review's ``only=`` that keeps only the clearly costly decisions (the mistakes-only view)."""


def review_options(open_text: str, only_text: str, over: bool) -> dict[str, bool]:
    """The review's two switches from its query: every hand shown (only once the hand is over) and mistakes only."""
    return {"open": open_text == "1" and over, "mistakes": only_text == MISTAKES}


def review_query(step: int, options: dict[str, bool], **changed: bool) -> str:
    """The review's query for ``step`` with its switches (``changed`` overrides one of them)."""
    now = {**options, **changed}
    return f"?step={step}" + ("&open=1" if now["open"] else "") + (f"&only={MISTAKES}" if now["mistakes"] else "")


def hand_totals(figures: dict[str, Any] | None) -> dict[str, Any]:
    """A hand's stored review summed up, as ``kwx.hand_review.summary`` stored it.

    Decisions, how many were decided (the rest too close to call), how many of those were confirmed among the best, the
    agreement rate over the decided (a whole percent), and the costly ones with their cost in all (± from their paired errors)."""
    if not figures:
        return _totals(0, 0, 0, 0, 0, 0.0)
    return _totals(len(figures["decisions"]), figures["decided"], figures["agree"], figures["costly"], figures["costly_cost"], figures["costly_cost_se"])


def game_totals(reviews: list[dict[str, Any]]) -> dict[str, Any]:
    """The stored reviews of a game's hands added up as ``hand_totals`` gives one (errors in quadrature)."""
    costly = sum(r["costly"] for r in reviews)
    cost_se = sum(r["costly_cost_se"] ** 2 for r in reviews) ** 0.5
    return _totals(sum(len(r["decisions"]) for r in reviews), sum(r["decided"] for r in reviews), sum(r["agree"] for r in reviews), costly, sum(r["costly_cost"] for r in reviews), cost_se)


def _totals(decisions: int, decided: int, agree: int, costly: int, cost: float, cost_se: float) -> dict[str, Any]:
    return {
        "decisions": decisions,
        "decided": decided,
        "close": decisions - decided,
        "agree": agree,
        "rate": round(100 * agree / decided) if decided else None,
        "costly": costly,
        "cost": cost,
        "cost_se": cost_se,
    }


def review_view(hand: Hand, reads: ReviewReads, shared: bool, done: Replay | None = None, open_text: str = "", only_text: str = "") -> dict[str, Any]:
    """The review at one step: the table then, the action taken, the decision's figures, the way to the others.

    Before the review task has stored the figures (``hand.review_state`` not done) the page has
    the hand step by step and the review's status instead of the figures. ``open_text`` "1" shows
    every seat's hand (a hand over only); ``only_text`` "costly" keeps the decision list and the
    decision steps to the clearly costly ones. An item asked again (``reads.asked``) shows nothing of
    the old answer, whatever the review's state. ``reads``: what ``selectors.review_reads`` read at the step.
    """
    figures = hand.review if hand.review_state == Hand.DONE else None
    last = hand.action_count
    step = reads.step
    options = review_options(open_text, only_text, hand.over and not is_one_seat(hand.record))
    every = figures["decisions"] if figures else []
    decisions = [d for d in every if d["costly"]] if options["mistakes"] else every
    at = next((d for d in every if d["step"] == step), None)
    done = done or seats.replayed(hand.kwx_record)
    view = table_view(hand, done, step=step, open_hands=options["open"])
    base = reverse("play-shared", args=[hand.share_token]) if shared else reverse("play-review", args=[hand.pk])
    link = lambda n: base + review_query(n, options)
    item = reads.item
    hide = reads.asked  # an item asked again: nothing of the old answer, even while its review is worked out again
    taken = action_text(done.actions[step], hand.seat, hide_draws=done.header.seat is not None) if step < last and not hide else ""
    steps = [d["step"] for d in decisions]
    return {
        **view,
        "review": figures,
        "totals": hand_totals(figures),
        "review_status": reads.status,
        "step": step,
        "last": last,
        "taken": taken,
        "decision": at,
        "decisions": decisions,
        "every_decision": every,
        "costly": [d for d in every if d["costly"]],
        "item": item,
        "asked": hide,
        "item_choices": _in_table_order(at["options"]) if item and at else [],
        "policy_name": level_name(figures["method"]["policy"]) if figures else "",
        "costly_margin": f"{hand_review.COSTLY_MARGIN:g}",
        "costly_floor": f"{hand_review.COSTLY_FLOOR:g}",
        "shared": shared,
        "share_url": reverse("play-shared", args=[hand.share_token]) if hand.share_token and not shared else "",
        "decision_links": [(d, link(d["step"])) for d in decisions],
        "options": options,
        "open_url": base + review_query(step, options, open=not options["open"]),
        "mistakes_url": base + review_query(step, options, mistakes=not options["mistakes"]),
        "chart": worth_chart(every, link) if every and not hide else None,
        "can_play_on": not shared and not hide and hand.over and hand.seed is not None and at is not None,
        "branches": reads.branches,
        "nav_links": [
            ("first", (_("« Start"), link(0))),
            ("prev-decision", (_("‹ Decision"), link(max([s for s in steps if s < step], default=0)))),
            ("prev", (_("‹ Step"), link(max(0, step - 1)))),
            ("next", (_("Step ›"), link(min(last, step + 1)))),
            ("next-decision", (_("Decision ›"), link(min([s for s in steps if s > step], default=last)))),
            ("last", (_("End »"), link(last))),
        ],
    }


GAME_COSTLIEST = 30
"""The game review lists at most this many decisions that both sets of deals find clearly worse, the costly first, each costliest first."""


def game_review(game: Game, finished: list[tuple[Hand, dict[str, Any]]]) -> dict[str, Any]:
    """Every finished hand of a game in one review: each hand's figures, the game's in all, and its decisions costliest first (each with its link into its hand's review)."""
    hands, everything, reviews, waiting = [], [], [], 0
    for hand, status in finished:
        figures = hand.review if hand.review_state == Hand.DONE and hand.review else None
        decisions = figures["decisions"] if figures else []
        url = reverse("play-review", args=[hand.pk])
        everything += [{**d, "hand": hand, "url": f"{url}?step={d['step']}"} for d in decisions]
        waiting += figures is None
        reviews += [figures] if figures else []
        net = (hand.nets or [0, 0, 0])[hand.seat]
        hands.append({"hand": hand, "url": url, "net": net, "status": status, "done": figures is not None, **hand_totals(figures)})
    worse = sorted((d for d in everything if d["worse"]), key=lambda d: (not d["costly"], -d["cost"], d["hand"].number, d["step"]))  # confirmed clearly worse only: costly first
    return {
        "game": game,
        "level_name": level_name(game.level),
        "hands": hands,
        "totals": game_totals(reviews),
        "waiting": waiting,
        "costliest": worse[:GAME_COSTLIEST],
        "more": max(0, len(worse) - GAME_COSTLIEST),
        "net": sum(h["net"] for h in hands),
    }


def _signed(net: int) -> str:
    """A net as the nets show it: a plus sign when above zero, a real minus sign below."""
    return f"+{net}" if net > 0 else f"\u2212{-net}" if net < 0 else "0"


def _choice_text(action: Action | None) -> str:
    """A seat's choice in words, without the seat's name (过 for a claim not taken)."""
    if action is None:
        return _("过 Pass")
    text = f"{_(VERB_WORDS[action.verb])} {tile_label(action.tile)}"
    return text + " · " + _("亮倒 (reveals the hand)") if action.liang_dao else text


def branch_view(hand: Hand, done: Replay | None = None) -> dict[str, Any]:
    """A branch's table from the person's chair, with where it came from: the origin's step, what was played there then and now, and (once over) both hands' nets."""
    origin = hand.origin
    assert origin is not None and hand.origin_step is not None
    step = hand.origin_step
    done = done or seats.replayed(hand.kwx_record)
    out = table_view(hand, done)
    chosen = lambda replay: _choice_text(hand_review.chosen_at(replay, step, hand.seat)) if step < len(replay.actions) else ""
    out.update(
        {
            "origin": origin,
            "origin_step": step,
            "origin_url": reverse("play-review", args=[origin.pk]) + f"?step={step}",
            "act_url": reverse("play-branch", args=[hand.pk]),
            "then": chosen(seats.replayed(origin.kwx_record)),
            "now": chosen(done),
            "origin_net": _signed((origin.nets or [0, 0, 0])[origin.seat]),
            "branch_net": _signed((hand.nets or [0, 0, 0])[hand.seat]) if hand.over else None,
            "branches_url": reverse("play-review", args=[hand.pk]),
        }
    )
    return out


def choices_none() -> Choices:
    """No decision (the hand is over)."""
    return Choices(frozenset(), (), (), (), (), False)


def hint(view: SeatView) -> dict[str, Any] | None:
    """The analyzer's discard table for the person's 14 tiles (visible = what the seat has seen; revealed hands marked)."""
    if view.phase not in ("act", "pong") or view.turn != view.seat or view.me.liang_dao:
        return None
    revealed = [h for h in (view.revealed_hand(o) for o in view.others()) if h is not None]
    texts = [format_hand(h) for h in revealed] + [""] * (MAX_REVEALED - len(revealed))
    draws = max(1, view.wall_left // 3)  # the seat's own draws still to come
    board = Board(
        hand=view.hand,
        visible=view.visible_unrevealed,
        rules=view.rules.preset.key,
        options={key: view.rules.options.value(key) for key in view.rules.preset.changed(view.rules.options)},  # the room's switches: the EV link opens the analyzer under the same rules
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
    # no row is chosen yet, and no tile is a link: the hint never takes the player away from the table
    context["rows"] = [replace(row, chosen=False, link="") for row in context["rows"]]
    context["rows_target"] = ""
    return context

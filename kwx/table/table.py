"""The whole hand of three players (kwx-rules §5, hand-record.md).

One immutable state, the actions it allows and the state each action leads to.

A :class:`Table` is everything the three seats hold and everything that has happened
that still matters: whose move it is and of which kind (``phase``), the tiles drawn,
the kongs made, the 亮倒 declarations and locked waits, and each seat's 漏胡 bar.
:func:`legal_actions` lists what may happen next and :func:`apply` makes it happen
(raising :class:`IllegalAction` with the reason otherwise). The replayer, the bots and
the play page all go through these two functions, so the play rules live here only.

Phases:

- ``draw``: ``turn`` takes the next wall tile (``replacement`` > 0: after its kong).
- ``act``: ``turn`` has just drawn ``tile``: it may win (自摸), kong or discard.
- ``pong``: ``turn`` has just ponged: it discards (nothing else).
- ``claim``: ``turn`` has just discarded ``tile``: the others may win, pong or kong on it,
  or everybody passes and the next seat draws. After a first win only the other seat's
  win is left (一炮双响).
- ``rob``: ``turn`` is adding ``tile`` to its pong (蓄杠): the others may rob it (抢杠胡),
  or the kong stands and ``turn`` draws its replacement.

The table plays by its rules' options (town-rules.md §1.9, §4): 半亮 (``kou`` triplets kept
face down by a declarer), the moves that may not feed a declared hand, no 亮倒 once a meld
exists, 杀马 (a declared hand's face-up triplet konged at once by its fourth tile), 应城's
self-draw of at least ×2, a 屁胡 that wins on a declared payer's discard, 海底炮, the dice of
上楼 and the horses (买马) turned from the wall after a self-draw that buys them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Literal

from kwx.errors import EngineError, RecordError, gettext_noop
from kwx.hand.money import buys_horses, discard_allowed, horses_due, payer_multiplier
from kwx.hand.notation import parse_tile
from kwx.hand.rules import Rules
from kwx.hand.scoring import score_win
from kwx.hand.shapes import shanten
from kwx.hand.tiles import COPIES, NUM_KINDS, TILE_IDS, Counts, Hand, Meld, MeldType, add, with_tile
from kwx.table.settlement import Kong, Win

WALL_AFTER_DEAL = 45
"""84 − 3 × 13: the tiles left to draw after the deal."""
SEATS = (0, 1, 2)

Phase = Literal["draw", "act", "pong", "claim", "rob"]
Verb = Literal["draw", "discard", "pong", "kong", "win", "horses"]
VERBS: tuple[Verb, ...] = ("draw", "discard", "pong", "kong", "win", "horses")
KongType = Literal["an_gang", "ming_gang", "zhi_gang"]
Result = Literal["self_draw", "discard", "rob_kong", "draw"]


class IllegalAction(EngineError):
    """An action the state does not allow; ``template`` (an English msgid) and ``params`` say why (``field`` is ``action``)."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template, "action", **params)


@dataclass(frozen=True, slots=True)
class Action:
    """One move of hand-record.md: ``seat`` does ``verb`` with a tile of ``kind``.

    A declaring discard (``liang_dao``) may keep ``kou`` triplets face down (半亮); the ``horses``
    verb turns the horse tiles ``horses`` (``kind`` is the first of them).
    """

    seat: int
    verb: Verb
    kind: int
    liang_dao: bool = False
    kou: frozenset[int] = frozenset()
    horses: tuple[int, ...] = ()

    @property
    def tile(self) -> str:
        """The ASCII id of the action's tile."""
        return TILE_IDS[self.kind]

    def as_dict(self) -> dict[str, object]:
        """The record form: ``{"seat": 0, "discard": "5p"}``.

        ``"liang_dao": true`` beside a declaring discard, ``"kou"`` its face-down triplets;
        ``{"seat": 0, "horses": [...]}``.
        """
        if self.verb == "horses":
            return {"seat": self.seat, "horses": [TILE_IDS[k] for k in self.horses]}
        out: dict[str, object] = {"seat": self.seat, self.verb: TILE_IDS[self.kind]}
        if self.liang_dao:
            out["liang_dao"] = True
        if self.kou:
            out["kou"] = [TILE_IDS[k] for k in sorted(self.kou)]
        return out

    @classmethod
    def from_dict(cls, raw: Any, index: int = 0) -> Action:
        """The action of its record form (``as_dict``'s inverse), shape only; a RecordError names ``index``."""

        def bad(template: str, **params: Any) -> RecordError:
            return RecordError(template, "actions", index, **params)

        if not isinstance(raw, Mapping):
            raise bad(gettext_noop('Action %(index)d must be an object such as {"seat": 0, "draw": "5p"}.'), index=index)
        seat = raw.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
            raise bad(gettext_noop("Action %(index)d: the seat must be 0, 1 or 2."), index=index)
        verbs = [k for k in raw if k in VERBS]
        extra = sorted(str(k) for k in raw if k not in VERBS and k not in ("seat", "liang_dao", "kou"))
        if extra:
            raise bad(gettext_noop('Action %(index)d: unknown key "%(name)s".'), index=index, name=extra[0][:40])
        if len(verbs) != 1:
            raise bad(gettext_noop("Action %(index)d needs exactly one of draw, discard, pong, kong, win, horses."), index=index)
        verb = verbs[0]
        if verb == "horses":
            turned = raw["horses"]
            if not isinstance(turned, list) or not 1 <= len(turned) <= 6 or not all(isinstance(t, str) and len(t) <= 8 for t in turned):
                raise bad(gettext_noop("Action %(index)d: horses is a list of one to six tile ids."), index=index)
            try:
                kinds = tuple(parse_tile(t, "actions") for t in turned)
            except EngineError as exc:
                raise RecordError(exc.template, "actions", index, **exc.params) from exc
            return cls(seat, "horses", kinds[0], horses=kinds)
        liang = raw.get("liang_dao", False)
        if not isinstance(liang, bool) or (liang and verb != "discard"):
            raise bad(gettext_noop("Action %(index)d: liang_dao is true or false, and only beside a discard."), index=index)
        kou_raw = raw.get("kou", [])
        if not isinstance(kou_raw, list) or len(kou_raw) > 4 or not all(isinstance(t, str) and len(t) <= 8 for t in kou_raw) or (kou_raw and not liang):
            raise bad(gettext_noop("Action %(index)d: kou lists the triplets kept face down, only beside a discard that declares 亮倒."), index=index)
        tile = raw[verb]
        if not isinstance(tile, str) or len(tile) > 8:
            raise bad(gettext_noop("Action %(index)d: the tile must be one tile id such as 5p."), index=index)
        try:
            kind = parse_tile(tile, "actions")
            kou = frozenset(parse_tile(t, "actions") for t in kou_raw)
        except EngineError as exc:
            raise RecordError(exc.template, "actions", index, **exc.params) from exc
        return cls(seat, verb, kind, liang, kou)


@dataclass(frozen=True, slots=True)
class SeatState:
    """What one seat holds and has done.

    ``river`` holds its discards that nobody claimed, in order. ``ready_on`` are the kinds that
    complete its hand as it stands between turns (13 tiles), kept after the deal, each discard and
    each kong. ``waits`` are the winning kinds locked by 亮倒; ``passed`` is the largest discard-side total
    of a win the seat let go since its last draw (0: none), which bars smaller or equal
    wins on a discard (漏胡).
    """

    concealed: Counts
    melds: tuple[Meld, ...] = ()
    river: tuple[int, ...] = ()
    liang_dao: bool = False
    waits: frozenset[int] = frozenset()
    passed: int = 0
    ready_on: frozenset[int] = frozenset()
    kou: frozenset[int] = frozenset()
    """The concealed triplets a declarer keeps face down (半亮): the others see their backs."""

    @property
    def hand(self) -> Hand:
        """Concealed tiles and melds as a Hand."""
        return Hand(self.concealed, self.melds)


@dataclass(frozen=True, slots=True)
class Table:
    """The state of one hand at a table of three (see the module docstring for the phases).

    ``tile`` is the drawn tile (``act``; None after a pong), the discard (``claim``) or the
    kong tile (``rob``). ``after_kong`` is the chain number of the kong whose replacement
    ``turn`` drew before this move (0 for none): it makes 杠上开花, 杠上炮 and 杠上杠.
    ``dealt`` counts the copies of each kind dealt and drawn so far. ``wall`` is the order of
    the 45 tiles to draw, when known (simulation); a replayed record has none.
    """

    rules: Rules
    dealer: int
    seats: tuple[SeatState, SeatState, SeatState]
    phase: Phase
    turn: int
    tile: int | None = None
    drawn: int = 0
    replacement: int = 0
    after_kong: int = 0
    dealt: Counts = (0,) * NUM_KINDS
    kongs: tuple[Kong, ...] = ()
    wins: tuple[Win, ...] = ()
    wall: tuple[int, ...] | None = None
    declared: tuple[int, ...] = ()
    """The seats that declared 亮倒, in the order they declared (the first is the first declarer)."""
    base: int = 1
    piao: tuple[int, int, int] = (0, 0, 0)
    dice: tuple[int, int] | None = None
    """The deal's two dice (上楼), when the rules roll them."""
    horses: tuple[int, ...] | None = None
    """The horse tiles turned after a self-draw that buys them (None: none turned)."""

    @property
    def wall_left(self) -> int:
        """Tiles still to draw."""
        return WALL_AFTER_DEAL - self.drawn

    @property
    def is_over(self) -> bool:
        """Whether nothing more can happen: a self-draw (its horses turned), two wins, or the last discard past every claim."""
        if self.wins:
            if self.wins[0].side == "self_draw":
                return horses_pending(self) == 0
            return len(self.wins) == 2 or not legal_actions(self)
        return self.phase == "claim" and self.drawn == WALL_AFTER_DEAL and not legal_actions(self)

    @property
    def result(self) -> Result | None:
        """How the hand ended (荒庄 is ``draw``), if the state is a finished hand; else None."""
        if self.wins:
            if self.wins[0].side == "self_draw":
                return "self_draw"
            return "rob_kong" if self.phase == "rob" else "discard"
        if self.phase == "claim" and self.drawn == WALL_AFTER_DEAL:
            return "draw"
        return None

    @property
    def liang_dao(self) -> tuple[int, ...]:
        """The seats that declared 亮倒, in seat order."""
        return tuple(s for s in SEATS if self.seats[s].liang_dao)

    @property
    def declaration_order(self) -> tuple[int, ...]:
        """The seats that declared 亮倒 in the order they declared.

        A state built without that order, such as a sampled world, lists the rest in seat order.
        """
        return self.declared + tuple(s for s in SEATS if self.seats[s].liang_dao and s not in self.declared)


def deal(
    hands: tuple[Counts, Counts, Counts],
    dealer: int,
    rules: Rules,
    wall: tuple[int, ...] | None = None,
    *,
    base: int = 1,
    piao: tuple[int, int, int] = (0, 0, 0),
    dice: tuple[int, int] | None = None,
) -> Table:
    """The state right after the deal: 13 tiles each, the dealer to draw first; the stakes (base, 漂) and the dice of 上楼."""
    dealt = add(add(hands[0], hands[1]), hands[2])
    s0, s1, s2 = (SeatState(h, ready_on=Hand(h).winning_kinds()) for h in hands)
    seats = (s0, s1, s2)
    return Table(rules, dealer, seats, "draw", dealer, dealt=dealt, wall=wall, base=base, piao=piao, dice=dice)


def horses_pending(state: Table) -> int:
    """How many horse tiles the table still has to turn after a self-draw that buys them (0: none)."""
    if state.horses is not None or not state.wins or state.wins[0].side != "self_draw":
        return 0
    win = state.wins[0]
    if not buys_horses(state.rules.options, True, state.seats[win.seat].liang_dao):
        return 0
    return horses_due(state.rules.options, state.wall_left)


def forced_kong(state: Table) -> Action | None:
    """杀马 (town-rules.md #28): the kong a declared hand must make now.

    Its face-up triplet meeting its fourth tile (None: none).
    """
    if not state.rules.options.sha_ma or state.drawn >= WALL_AFTER_DEAL or state.wins or state.tile is None:
        return None
    kind = state.tile
    if state.phase == "act":
        s = state.seats[state.turn]
        if s.liang_dao and s.concealed[kind] == COPIES and kind not in s.kou:
            return Action(state.turn, "kong", kind)
    elif state.phase == "claim":
        for seat in SEATS:
            s = state.seats[seat]
            if seat != state.turn and s.liang_dao and s.concealed[kind] == 3 and kind not in s.kou:
                return Action(seat, "kong", kind)
    return None


def feeds(state: Table, seat: int, kind: int) -> bool:
    """Whether ``kind`` is a winning tile of a seat other than ``seat`` that declared 亮倒."""
    return any(other != seat and state.seats[other].liang_dao and kind in state.seats[other].waits for other in SEATS)


def face_up(seat: SeatState) -> Counts:
    """A declarer's concealed tiles less the triplets it keeps face down (半亮): what the others see."""
    if not seat.kou:
        return seat.concealed
    return tuple(n - 3 if k in seat.kou else n for k, n in enumerate(seat.concealed))


def kou_choices(concealed: Counts, melds: tuple[Meld, ...]) -> tuple[int, ...]:
    """The kinds a declarer may keep face down (半亮).

    Held exactly three times, and set aside as a finished set they leave the same waits.
    """
    waits = Hand(concealed, melds).winning_kinds()
    out = []
    for kind, n in enumerate(concealed):
        if n == 3 and _kou_keeps_waits(concealed, melds, frozenset({kind}), waits):
            out.append(kind)
    return tuple(out)


def _kou_keeps_waits(concealed: Counts, melds: tuple[Meld, ...], kou: frozenset[int], waits: frozenset[int]) -> bool:
    if any(concealed[k] != 3 for k in kou):
        return False
    up = tuple(n - 3 if k in kou else n for k, n in enumerate(concealed))
    aside = melds + tuple(Meld(MeldType.PONG, k) for k in sorted(kou))
    return bool(waits) and Hand(up, aside).winning_kinds() == waits


@lru_cache(maxsize=64)
def _with_situation(rules: Rules, situation: frozenset[str]) -> Rules:
    return Rules(rules.preset, rules.options, situation)


def situation_of(side: str, phase: Phase, after_kong: int, drawn: int, liang_dao: bool, hai_di: str = "lao") -> frozenset[str]:
    """The situational fans a win carries.

    Its side, the phase it is taken in, the kong before it, the tiles drawn, the winner's 亮倒 and the rules' 海底.
    """
    keys = []
    if side == "self_draw":
        if after_kong:
            keys.append("gang_shang_kai_hua")
        if drawn == WALL_AFTER_DEAL and hai_di != "none":
            keys.append("hai_di_lao")
    elif phase == "rob":
        keys.append("qiang_gang_hu")
    else:
        if after_kong:
            keys.append("gang_shang_pao")
        if drawn == WALL_AFTER_DEAL and hai_di == "lao_and_pao":
            keys.append("hai_di_pao")
    if liang_dao:
        keys.append("liang_dao")
    return frozenset(keys)


def win_for(rules: Rules, seat: int, hand: Hand, kind: int, side: Literal["self_draw", "discard"], phase: Phase, after_kong: int, drawn: int, liang_dao: bool) -> Win | None:
    """The win ``seat``'s 13 tiles ``hand`` make on ``kind`` (legal or not), with its situation and value.

    None if they do not win.
    """
    situation = situation_of(side, phase, after_kong, drawn, liang_dao, rules.options.hai_di)
    values = score_win(hand, kind, _with_situation(rules, situation))
    if values is None:
        return None
    return Win(seat=seat, hand=hand, kind=kind, situation=situation, side=side, value=values[0] if side == "self_draw" else values[1])


def win_on(state: Table, seat: int) -> Win | None:
    """The win ``seat`` could take on the state's tile (drawn, discarded or robbed), legal or not.

    None if its tiles do not win.
    """
    kind = state.tile
    if kind is None:
        return None
    s = state.seats[seat]
    if state.phase == "act":
        if seat != state.turn or kind not in s.ready_on:
            return None
        hand = Hand(with_tile(s.concealed, kind, -1), s.melds)
        side: Literal["self_draw", "discard"] = "self_draw"
    elif state.phase in ("claim", "rob"):
        if seat == state.turn or kind not in s.ready_on:
            return None
        hand = s.hand
        side = "discard"
    else:
        return None
    return win_for(state.rules, seat, hand, kind, side, state.phase, state.after_kong, state.drawn, s.liang_dao)


def discard_worth(state: Table, win: Win) -> int | None:
    """What a discard-type win is worth from the seat that fed it (its capped multiplier).

    None when the rules refuse it from that seat.
    """
    options = state.rules.options
    payer_declared = state.seats[state.turn].liang_dao
    if not discard_allowed(win.value, payer_declared, options):
        return None
    return payer_multiplier(win.value, state.seats[win.seat].liang_dao, payer_declared, options)


def _win_refusal(state: Table, win: Win) -> str | None:
    """Why a win the tiles make may not be taken (None: it may)."""
    if win.side == "self_draw":
        if win.value.allowed:
            return None
        return gettext_noop("These rules allow a self-draw by a hand that has not declared 亮倒 only when it is worth ×2 or more.")
    worth = discard_worth(state, win)
    if worth is not None:
        if state.seats[win.seat].passed >= worth:
            return gettext_noop("漏胡: seat %(seat)d let a win worth ×%(passed)d go since its last draw; until it draws again it may win on a discard only with a larger win.")
        return None
    if win.value.reason == "rob_kong_off":
        return gettext_noop("These rules do not allow robbing a kong (抢杠胡).")
    return gettext_noop("A win worth ×1 (屁胡) may not be taken on a discard, only by self-draw.")


def _kong_keeps_waits(seat: SeatState, after: Hand) -> bool:
    """A 亮倒 seat may kong only when the winning kinds stay the same."""
    return not seat.liang_dao or after.winning_kinds() == seat.waits


def _claim_refusal(state: Table, action: Action) -> str | None:
    """Why a pong or 直杠 on the discard is not allowed (None: it is)."""
    s = state.seats[action.seat]
    forced = forced_kong(state)
    if forced is not None:
        return None if action == forced else gettext_noop("杀马: a declared hand's triplet takes this tile as a kong; nothing else may claim it.")
    if state.phase != "claim" or action.kind != state.tile:
        return gettext_noop("Seat %(seat)d can only pong or kong the tile just discarded.")
    if action.seat == state.turn:
        return gettext_noop("Seat %(seat)d cannot claim its own discard.")
    if state.wins:
        return gettext_noop("The discard has been won on: only another win may follow.")
    if state.drawn == WALL_AFTER_DEAL:
        return gettext_noop("The last discard may be won on but not ponged or konged.")
    if action.verb == "pong":
        if s.liang_dao:
            return gettext_noop("Seat %(seat)d declared 亮倒 and may not pong.")
        if s.concealed[action.kind] < 2:
            return gettext_noop("Seat %(seat)d needs two %(tile)s to pong.")
        return None
    if s.concealed[action.kind] != 3:
        return gettext_noop("Seat %(seat)d needs three concealed %(tile)s to kong the discard (直杠).")
    if not _kong_keeps_waits(s, s.hand.after_kong(action.kind)):
        return gettext_noop("Seat %(seat)d declared 亮倒: a kong that changes its winning tiles is not allowed.")
    return None


def _own_kong_refusal(state: Table, action: Action) -> str | None:
    """Why a 暗杠 or 蓄杠 on the seat's own turn is not allowed (None: it is)."""
    s = state.seats[action.seat]
    if action == forced_kong(state):
        return None
    if state.phase == "pong":
        return gettext_noop("No kong in the turn of a pong: seat %(seat)d must discard.")
    if state.drawn == WALL_AFTER_DEAL:
        return gettext_noop("No kong once the last tile has been drawn.")
    if s.concealed[action.kind] == 4:
        after = s.hand.after_kong(action.kind)
    elif s.concealed[action.kind] >= 1 and s.hand.pong_of(action.kind):
        if action.kind != state.tile:
            return gettext_noop("蓄杠 only with the tile just drawn: seat %(seat)d did not just draw %(tile)s.")
        if state.rules.options.no_feed_xu_gang and feeds(state, action.seat, action.kind):
            return gettext_noop("These rules refuse a 蓄杠 of a tile a declared (亮倒) hand wins on: keep %(tile)s or discard it.")
        after = s.hand.after_kong(action.kind)
    else:
        return gettext_noop("Seat %(seat)d holds neither four %(tile)s nor a pong of it with the tile just drawn.")
    if not _kong_keeps_waits(s, after):
        return gettext_noop("Seat %(seat)d declared 亮倒: a kong that changes its winning tiles is not allowed.")
    return None


def _discard_refusal(state: Table, action: Action) -> str | None:
    """Why a discard is not allowed (None: it is)."""
    s = state.seats[action.seat]
    options = state.rules.options
    if s.concealed[action.kind] == 0:
        return gettext_noop("Seat %(seat)d holds no %(tile)s to discard.")
    if forced_kong(state) is not None:
        return gettext_noop("杀马: seat %(seat)d's declared triplet meets its fourth tile and is konged at once.")
    if s.liang_dao and action.kind != state.tile:
        return gettext_noop("Seat %(seat)d declared 亮倒: it may only discard the tile it just drew.")
    if action.kou and not action.liang_dao:
        return gettext_noop("Triplets are kept face down (扣牌) only when declaring 亮倒.")
    if not s.liang_dao and options.no_feed_liang_dao and feeds(state, action.seat, action.kind):
        if any(n and not feeds(state, action.seat, k) for k, n in enumerate(s.concealed)):
            return gettext_noop("These rules do not let a hand that has not declared feed a declared (亮倒) hand while it holds another tile: %(tile)s wins for a declared seat.")
    if action.liang_dao:
        if s.liang_dao:
            return gettext_noop("Seat %(seat)d has already declared 亮倒.")
        if options.liang_dao_no_melds and s.melds:
            return gettext_noop("These rules allow no 亮倒 once a seat has ponged or konged.")
        if options.no_feed_declaring_discard and feeds(state, action.seat, action.kind):
            return gettext_noop("The discard that declares 亮倒 may not be a tile an earlier declarer wins on: declare with another discard, or discard %(tile)s without declaring.")
        after = with_tile(s.concealed, action.kind, -1)
        waits = Hand(after, s.melds).winning_kinds()
        if shanten(after, len(s.melds)) != 0 or not waits:
            return gettext_noop("亮倒 needs a ready hand: seat %(seat)d is not ready after discarding %(tile)s.")
        if action.kou:
            if not options.ban_liang:
                return gettext_noop("These rules show the whole hand on 亮倒: no triplet may be kept face down (半亮 is off).")
            if not _kou_keeps_waits(after, s.melds, action.kou, waits):
                return gettext_noop("Only triplets held three times whose setting aside leaves the same waits may be kept face down (扣牌).")
    return None


_NOT_YOUR_TURN: dict[str, str] = {
    "draw": gettext_noop("It is not seat %(seat)d's turn to draw."),
    "discard": gettext_noop("It is not seat %(seat)d's turn to discard."),
    "pong": gettext_noop("It is not seat %(seat)d's turn."),
    "kong": gettext_noop("Seat %(seat)d may kong only on its own turn after a draw, or on another seat's discard."),
    "win": gettext_noop("Seat %(seat)d may win only on its own draw, or on another seat's discard or added kong."),
}


def refusal(state: Table, action: Action) -> str | None:
    """Why ``action`` is illegal in ``state`` (an English msgid with %(seat)d and %(tile)s), or None when it is legal."""
    if action.seat not in SEATS or not 0 <= action.kind < NUM_KINDS or action.verb not in VERBS:
        return gettext_noop("Not an action: a seat 0–2, a verb and a tile.")
    if action.liang_dao and action.verb != "discard":
        return gettext_noop("亮倒 is declared with a discard.")
    phase, verb = state.phase, action.verb
    if verb == "horses":
        return _horses_refusal(state, action)
    if state.wins:
        if state.wins[0].side == "self_draw" or len(state.wins) == 2:
            return gettext_noop("The hand is over.")
        if verb != "win":
            return gettext_noop("The discard has been won on: only another win may follow.")
    if verb == "draw":
        return _draw_refusal(state, action)
    if phase in ("claim", "rob") and verb == "win":
        if action.seat == state.turn:
            return gettext_noop("Seat %(seat)d cannot win on its own tile this way.")
        if action.kind != state.tile:
            return gettext_noop("Seat %(seat)d can only win on the tile just discarded or added to a pong.")
        if any(w.seat == action.seat for w in state.wins):
            return gettext_noop("Seat %(seat)d has already won.")
        win = win_on(state, action.seat)
        if win is None:
            return gettext_noop("Seat %(seat)d's hand does not win on %(tile)s.")
        return _win_refusal(state, win)
    if phase == "claim" and verb in ("pong", "kong"):
        return _claim_refusal(state, action)
    if action.seat != state.turn or phase not in ("act", "pong"):
        return _NOT_YOUR_TURN[verb]
    if verb == "discard":
        return _discard_refusal(state, action)
    if verb == "kong":
        return _own_kong_refusal(state, action)
    if verb == "win":
        if phase == "pong":
            return gettext_noop("No win right after a pong: seat %(seat)d must discard.")
        if action.kind != state.tile:
            return gettext_noop("A self-draw wins on the tile just drawn, not on %(tile)s.")
        win = win_on(state, action.seat)
        if win is None:
            return gettext_noop("Seat %(seat)d's hand does not win on %(tile)s.")
        return _win_refusal(state, win)
    return gettext_noop("Seat %(seat)d cannot pong now: only another seat's discard can be ponged.")


def _horses_refusal(state: Table, action: Action) -> str | None:
    """Why a horses action is not allowed (None: it is).

    Right after a self-draw that buys horses, by its winner, as many as due, from the wall.
    """
    due = horses_pending(state)
    if not due:
        return gettext_noop("No horses (买马) are turned now: only right after a self-draw that buys them.")
    if action.seat != state.wins[0].seat:
        return gettext_noop("The horses are turned for the winner, seat %(winner)d.")
    if len(action.horses) != due:
        return gettext_noop("This self-draw turns %(due)d horse tile(s) from the wall.")
    if state.wall is not None and action.horses != state.wall[state.drawn : state.drawn + due]:
        return gettext_noop("The horses are the next tiles of the wall.")
    dealt = list(state.dealt)
    for kind in action.horses:
        if not 0 <= kind < NUM_KINDS:
            return gettext_noop("Not an action: a seat 0–2, a verb and a tile.")
        dealt[kind] += 1
        if dealt[kind] > COPIES:
            return gettext_noop("A fifth %(tile)s: there are only four of each kind.")
    return None


def _draw_refusal(state: Table, action: Action) -> str | None:
    """Why a draw is not allowed (None: it is)."""
    if state.drawn >= WALL_AFTER_DEAL:
        return gettext_noop("The wall is empty: all 45 tiles have been drawn.")
    if state.phase == "draw":
        drawer = state.turn
    elif state.phase == "claim":
        drawer = (state.turn + 1) % 3
    elif state.phase == "rob":
        drawer = state.turn
    else:
        if action.seat == state.turn:
            return gettext_noop("Seat %(seat)d has its tiles to play: it cannot draw again before discarding.")
        return _NOT_YOUR_TURN["draw"]
    if action.seat != drawer:
        return _NOT_YOUR_TURN["draw"]
    if state.wall is not None and action.kind != state.wall[state.drawn]:
        return gettext_noop("The next tile of the wall is not %(tile)s.")
    if state.dealt[action.kind] >= COPIES:
        return gettext_noop("A fifth %(tile)s: there are only four of each kind.")
    return None


def check(state: Table, action: Action) -> None:
    """Raise IllegalAction unless ``action`` is legal in ``state``."""
    reason = refusal(state, action)
    if reason is not None:
        tile = TILE_IDS[action.kind] if 0 <= action.kind < NUM_KINDS else "?"
        passed = state.seats[action.seat].passed if action.seat in SEATS else 0
        winner = state.wins[0].seat if state.wins else 0
        raise IllegalAction(reason, seat=action.seat, tile=tile, passed=passed, winner=winner, due=horses_pending(state))


def _candidates(state: Table) -> list[Action]:
    """Every action of the right shape for the phase, legal or not (legal_actions filters them)."""
    out: list[Action] = []
    phase, turn = state.phase, state.turn
    due = horses_pending(state)
    if due and state.wall is not None:
        turned = state.wall[state.drawn : state.drawn + due]
        return [Action(state.wins[0].seat, "horses", turned[0], horses=turned)]
    forced = forced_kong(state)
    if forced is not None:
        out = [forced]
        if phase == "act" and state.tile is not None:
            out.append(Action(turn, "win", state.tile))
        elif phase == "claim" and state.tile is not None:
            out.extend(Action(seat, "win", state.tile) for seat in ((turn + 1) % 3, (turn + 2) % 3))
        return out
    if state.wins:
        if phase in ("claim", "rob") and len(state.wins) == 1 and state.wins[0].side == "discard":
            other = 3 - turn - state.wins[0].seat
            out.append(Action(other, "win", state.tile if state.tile is not None else 0))
        return out
    if phase in ("draw", "claim", "rob") and state.drawn < WALL_AFTER_DEAL:
        drawer = (turn + 1) % 3 if phase == "claim" else turn
        kinds = (state.wall[state.drawn],) if state.wall is not None else range(NUM_KINDS)
        out.extend(Action(drawer, "draw", k) for k in kinds)
    if phase in ("act", "pong"):
        s = state.seats[turn]
        if phase == "act" and state.tile is not None:
            out.append(Action(turn, "win", state.tile))
        # a discard can leave the hand ready only if the 14 tiles are within one tile of it
        may_declare = not s.liang_dao and shanten(s.concealed, len(s.melds)) <= 0
        half = state.rules.options.ban_liang
        for k in range(NUM_KINDS):
            if s.concealed[k]:
                out.append(Action(turn, "discard", k))
                if may_declare:
                    out.append(Action(turn, "discard", k, liang_dao=True))
                    if half:
                        out.extend(Action(turn, "discard", k, liang_dao=True, kou=kou) for kou in _kou_sets(with_tile(s.concealed, k, -1), s.melds))
                if phase == "act" and (s.concealed[k] == 4 or (k == state.tile and s.hand.pong_of(k))):
                    out.append(Action(turn, "kong", k))
    elif phase in ("claim", "rob") and state.tile is not None:
        for seat in ((turn + 1) % 3, (turn + 2) % 3):
            out.append(Action(seat, "win", state.tile))
            if phase == "claim":
                out.append(Action(seat, "pong", state.tile))
                out.append(Action(seat, "kong", state.tile))
    return out


def _kou_sets(concealed: Counts, melds: tuple[Meld, ...]) -> tuple[frozenset[int], ...]:
    """Every non-empty set of triplets a declarer may keep face down.

    Each alone keeps the waits; the set is checked as a whole by ``refusal``.
    """
    single = kou_choices(concealed, melds)
    out: list[frozenset[int]] = []
    for mask in range(1, 1 << len(single)):
        out.append(frozenset(k for i, k in enumerate(single) if mask >> i & 1))
    return tuple(out)


def legal_actions(state: Table) -> tuple[Action, ...]:
    """Every action the state allows (with a known wall, the one tile the next draw takes)."""
    return tuple(a for a in _candidates(state) if refusal(state, a) is None)


def claim_win(state: Table, seat: int) -> Win | None:
    """The win ``seat`` may legally take on the current discard or robbed kong (None: none)."""
    if state.phase not in ("claim", "rob") or seat == state.turn or any(w.seat == seat for w in state.wins):
        return None
    win = win_on(state, seat)
    return win if win is not None and _win_refusal(state, win) is None else None


def _passes(state: Table) -> tuple[SeatState, SeatState, SeatState]:
    """The seats once a claim window closes without a win.

    Each other seat that could have won has passed it (漏胡), a seat that pongs or kongs the tile included.
    """
    seats = list(state.seats)
    for seat in SEATS:
        win = win_on(state, seat) if seat != state.turn else None
        worth = discard_worth(state, win) if win is not None else None
        if worth is not None:
            seats[seat] = replace(seats[seat], passed=max(seats[seat].passed, worth))
    return seats[0], seats[1], seats[2]


def _taken(seats: tuple[SeatState, SeatState, SeatState], discarder: int) -> tuple[SeatState, SeatState, SeatState]:
    """The seats once the discarder's last discard is claimed: it leaves the river for the meld."""
    s = seats[discarder]
    return _set(seats, discarder, replace(s, river=s.river[:-1]))


def _set(seats: tuple[SeatState, SeatState, SeatState], i: int, seat: SeatState) -> tuple[SeatState, SeatState, SeatState]:
    out = list(seats)
    out[i] = seat
    return out[0], out[1], out[2]


def _chain(state: Table) -> int:
    """The chain number a kong made now takes (杠上杠 after a replacement draw)."""
    return state.after_kong + 1 if state.after_kong else 1


def apply(state: Table, action: Action) -> Table:
    """The state after a legal action (raises IllegalAction with the reason otherwise)."""
    check(state, action)
    return _apply(state, action)


def _apply(state: Table, action: Action) -> Table:
    seat, verb, kind = action.seat, action.verb, action.kind
    s = state.seats[seat]
    if verb == "horses":
        dealt = state.dealt
        for horse in action.horses:
            dealt = with_tile(dealt, horse)
        return replace(state, horses=action.horses, dealt=dealt)
    if verb == "draw":
        return _draw(state, seat, kind)
    if verb == "win":
        win = win_on(state, seat)
        assert win is not None
        return replace(state, wins=state.wins + (win,))
    if verb == "discard":
        after = with_tile(s.concealed, kind, -1)
        ready_on = Hand(after, s.melds).winning_kinds()
        new = replace(
            s,
            concealed=after,
            river=s.river + (kind,),
            ready_on=ready_on,
            liang_dao=s.liang_dao or action.liang_dao,
            waits=ready_on if action.liang_dao else s.waits,
            kou=action.kou if action.liang_dao else s.kou,
        )
        declared = state.declared + (seat,) if action.liang_dao else state.declared
        return replace(state, seats=_set(state.seats, seat, new), phase="claim", turn=seat, tile=kind, declared=declared)
    if verb == "pong":
        seats = _taken(_passes(state), state.turn)
        ponged = seats[seat].hand.after_pong(kind)
        new = replace(seats[seat], concealed=ponged.concealed, melds=ponged.melds)
        return replace(state, seats=_set(seats, seat, new), phase="pong", turn=seat, tile=None, after_kong=0)
    # kong
    if state.phase == "claim":
        seats = _taken(_passes(state), state.turn)
        exposed = seats[seat].hand.after_kong(kind)
        new = _konged(seats[seat], exposed)
        kong = Kong(seat, "zhi_gang", kind, state.turn, _chain(state))
        return replace(
            state,
            seats=_set(seats, seat, new),
            phase="draw",
            turn=seat,
            tile=None,
            replacement=kong.chain,
            after_kong=0,
            kongs=state.kongs + (kong,),
        )
    if s.concealed[kind] == 4:
        hidden = s.hand.after_kong(kind)
        kong = Kong(seat, "an_gang", kind, None, _chain(state), drawn=kind == state.tile)
        new = _konged(s, hidden)
        return replace(
            state,
            seats=_set(state.seats, seat, new),
            phase="draw",
            tile=None,
            replacement=kong.chain,
            after_kong=0,
            kongs=state.kongs + (kong,),
        )
    # 蓄杠: the others may rob the tile before the kong stands
    return replace(state, phase="rob", tile=kind, replacement=_chain(state))


def _konged(seat: SeatState, after: Hand) -> SeatState:
    """A seat once its kong stands.

    The tiles, the kinds it waits on, and for a declarer its waits (a 杀马 kong may drop some) and its face-down
    triplets (a konged one is shown).
    """
    ready_on = after.winning_kinds()
    kou = frozenset(k for k in seat.kou if after.concealed[k] == 3)
    waits = ready_on if seat.liang_dao else seat.waits
    return replace(seat, concealed=after.concealed, melds=after.melds, ready_on=ready_on, waits=waits, kou=kou)


def _draw(state: Table, seat: int, kind: int) -> Table:
    """A draw: the turn's draw, the replacement after a kong, or the next seat's after a pass."""
    seats, kongs, replacement = state.seats, state.kongs, state.replacement
    if state.phase == "claim":  # everybody passed: the next seat draws
        seats, replacement = _passes(state), 0
    elif state.phase == "rob":  # nobody robbed: the 蓄杠 stands
        seats = _passes(state)
        assert state.tile is not None
        after = seats[seat].hand.after_kong(state.tile)
        seats = _set(seats, seat, _konged(seats[seat], after))
        kongs = kongs + (Kong(seat, "ming_gang", state.tile, None, replacement),)
    s = seats[seat]
    new = replace(s, concealed=with_tile(s.concealed, kind), passed=0)
    return replace(
        state,
        seats=_set(seats, seat, new),
        phase="act",
        turn=seat,
        tile=kind,
        drawn=state.drawn + 1,
        replacement=0,
        after_kong=replacement,
        dealt=with_tile(state.dealt, kind),
        kongs=kongs,
    )

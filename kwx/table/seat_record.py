"""One seat's view of a hand: the ``kwx-hand/1`` variant with ``"seat"`` (hand-record.md), read, checked and replayed.

A player who enters a hand from a real table knows their own tiles and draws and what the
others showed: their discards, pongs and kongs, a 亮倒 with the tiles it reveals, a winner's
tiles when shown. The others' hidden tiles and draws are unknown: ``"hands"`` holds the seat's
own and ``null`` for the others, and another seat's draw is ``{"seat": o, "draw": null}``.

:func:`replay_seat` plays such a record through the table (``kwx.table.table.apply``, the one
place of the rules) on **stand-in worlds**: full tables whose hidden part (the other hands, the
tiles a declared hand keeps face down, the wall) is dealt from the tiles the seat has not seen,
and dealt again whenever the next action needs a hidden hand to hold something (a discard, a
pong, a kong, a revealed or a shown hand). So the table checks every action as far as one seat
can: its own tiles exactly; the others' tile counts, the turn order, the claims, the wall count,
a 亮倒's readiness and waits from the revealed tiles, a shown win; and no kind seen, held or
needed a fifth time. What it cannot check is said where it is left: another seat's 漏胡 (its
hidden hand decides it) and a win whose tiles were not shown (its money stays unknown).

With :func:`~kwx.table.table.deal` and :func:`~kwx.table.advice.sample_world` this module is the
third maker of hidden tiles; :func:`~kwx.table.view.view_for` of a stand-in world shows the seat
exactly what it saw, so a review reads the seat's decisions from these worlds like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from kwx.errors import EngineError, RecordError, gettext_noop
from kwx.hand.notation import format_counts, parse_tiles
from kwx.hand.tiles import COPIES, EMPTY, NUM_KINDS, TILE_IDS, Counts, Hand, Meld, MeldType, add, with_tile
from kwx.table.record import FORMAT, Header, Record, Replay, parse_header, settle_table
from kwx.table.settlement import Settlement
from kwx.table.table import SEATS, Action, IllegalAction, Result, SeatState, Table, Verb, apply, deal, face_up, feeds, horses_pending, refusal

SEAT_KEYS = ("revealed", "hand")
"""What an action of a one-seat record may add for another seat: the tiles its 亮倒 shows, the tiles it won with."""


def is_one_seat(data: Any) -> bool:
    """Whether a record's JSON is of one seat's view (it names its ``seat``)."""
    return isinstance(data, Mapping) and "seat" in data


@dataclass(frozen=True, slots=True)
class SeatAction:
    """One action as one seat saw it: ``kind`` None for another seat's draw.

    Another seat's 亮倒 with the tiles it ``revealed`` and how many triplets it kept face down (``hidden_kou``);
    another seat's win with the tiles it ``shown`` (before the winning tile), when shown.
    """

    seat: int
    verb: Verb
    kind: int | None = None
    liang_dao: bool = False
    kou: frozenset[int] = frozenset()
    hidden_kou: int = 0
    revealed: Counts | None = None
    shown: Counts | None = None
    horses: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The record form (``{"seat": 1, "draw": null}``, a revealed or shown hand as tile text)."""
        if self.kind is None:
            return {"seat": self.seat, self.verb: None}
        out = Action(self.seat, self.verb, self.kind, self.liang_dao, self.kou, self.horses).as_dict()
        if self.hidden_kou:
            out["kou"] = [None] * self.hidden_kou
        if self.revealed is not None:
            out["revealed"] = format_counts(self.revealed)
        if self.shown is not None:
            out["hand"] = format_counts(self.shown)
        return out

    @property
    def action(self) -> Action | None:
        """The table action, when the seat saw its tile (None: another seat's draw)."""
        if self.kind is None:
            return None
        return Action(self.seat, self.verb, self.kind, self.liang_dao, self.kou, self.horses)


def parse_seat_action(raw: Any, index: int, seat: int) -> SeatAction:
    """One action of a one-seat record, shape only.

    The seat's own as in a full record, another seat's with its tile unknown where the seat could not see it.
    """

    def bad(template: str, **params: Any) -> RecordError:
        return RecordError(template, "actions", index, **params)

    if not isinstance(raw, Mapping):
        Action.from_dict(raw, index)  # raises the full record's message
        raise AssertionError("unreachable")
    rest = dict(raw)
    who = rest.get("seat")
    own = who == seat
    revealed, shown = rest.pop("revealed", None), rest.pop("hand", None)
    if own and (revealed is not None or shown is not None):
        raise bad(gettext_noop("Action %(index)d: revealed and hand are another seat's tiles; the seat's own are known from its actions."), index=index)
    if not own and rest.get("draw", "") is None:
        if len(rest) != 2:
            raise bad(gettext_noop('Action %(index)d: another seat\'s draw is {"seat": %(seat)d, "draw": null}.'), index=index, seat=who)
        return SeatAction(Action.from_dict({**rest, "draw": "1p"}, index).seat, "draw")  # the seat checked
    hidden_kou = 0
    if not own and isinstance(rest.get("kou"), list):
        kou = rest.pop("kou")
        if not all(k is None for k in kou) or len(kou) > 4:
            raise bad(gettext_noop("Action %(index)d: another seat's triplets kept face down are not seen: kou lists one null for each."), index=index)
        hidden_kou = len(kou)
        if hidden_kou and not rest.get("liang_dao"):
            raise bad(gettext_noop("Action %(index)d: kou lists the triplets kept face down, only beside a discard that declares 亮倒."), index=index)
    action = Action.from_dict(rest, index)
    declares = not own and action.verb == "discard" and action.liang_dao
    if declares and revealed is None:
        raise bad(gettext_noop("Action %(index)d: seat %(seat)d declares 亮倒: add the tiles it reveals (revealed)."), index=index, seat=action.seat)
    if revealed is not None and not declares:
        raise bad(gettext_noop("Action %(index)d: revealed goes only beside another seat's discard that declares 亮倒."), index=index)
    if shown is not None and action.verb != "win":
        raise bad(gettext_noop("Action %(index)d: hand (the winner's tiles) goes only beside another seat's win."), index=index)
    return SeatAction(
        action.seat,
        action.verb,
        action.kind,
        action.liang_dao,
        action.kou,
        hidden_kou,
        _tiles(revealed, index, "revealed") if revealed is not None else None,
        _tiles(shown, index, "hand") if shown is not None else None,
        action.horses,
    )


def _tiles(text: Any, index: int, key: str) -> Counts:
    if not isinstance(text, str) or len(text) > 200:
        raise RecordError(gettext_noop("Action %(index)d: %(key)s must be tile text such as 4556p123s789sZZZ."), "actions", index, index=index, key=key)
    try:
        return parse_tiles(text, "actions")
    except EngineError as exc:
        raise RecordError(exc.template, "actions", index, **exc.params) from exc


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A hand as one seat saw it: the header (``header.seat``; the other hands empty) and the actions."""

    header: Header
    actions: tuple[SeatAction, ...] = ()

    @property
    def seat(self) -> int:
        """The seat whose view this is."""
        assert self.header.seat is not None
        return self.header.seat

    @classmethod
    def from_json(cls, data: Any) -> SeatRecord:
        """Read a one-seat record's JSON.

        Raises RecordError naming the field, and the action's index, at the first fault of shape.
        """
        header, raw_actions = parse_header(data, one_seat=True)
        assert header.seat is not None
        return cls(header, tuple(parse_seat_action(raw, i, header.seat) for i, raw in enumerate(raw_actions)))

    def to_json(self) -> dict[str, Any]:
        """The record's JSON: a full record's keys with ``seat``, ``null`` for the hands and draws the seat did not see."""
        h = self.header
        out = Record(h, ()).to_json()
        out["hands"] = [format_counts(c) if s == self.seat else None for s, c in enumerate(h.hands)]
        out["actions"] = [a.as_dict() for a in self.actions]
        return {"format": FORMAT, "seat": self.seat, **{k: v for k, v in out.items() if k != "format"}}

    def append(self, *actions: SeatAction) -> SeatRecord:
        """The record with ``actions`` after its own (not checked: :meth:`replay` checks)."""
        return SeatRecord(self.header, self.actions + actions)

    def replay(self) -> SeatReplay:
        """Play the record on stand-in worlds (raises RecordError at the first action the seat can tell is illegal)."""
        return replay_seat(self)


@dataclass(frozen=True, slots=True)
class SeatReplay(Replay):
    """A one-seat record played out.

    The stand-in worlds (one after the deal and one after each action, the ``record`` their full form), how it
    ended and what of its money is known.

    ``money_known`` is False when the money depends on tiles the seat never saw: a win whose tiles
    were not shown (``unseen_wins``: its seat and tile), or a drawn hand under 查大叫 with hidden
    hands; ``settlement`` then holds the kong money only.
    """

    seat_record: SeatRecord | None = None
    money_known: bool = True
    unseen_wins: tuple[tuple[int, int], ...] = ()


def replay_seat_json(data: Any) -> SeatReplay:
    """Check and play a one-seat record's JSON (raises RecordError at the first fault)."""
    return SeatRecord.from_json(data).replay()


# ---------------------------------------------------------------- the stand-in worlds


class _Unfit(Exception):
    """No world holds what the action needs: the template and params say why."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template)
        self.template = template
        self.params = params


@dataclass(frozen=True, slots=True)
class _Need:
    """What the next action needs of a hidden hand.

    ``seat`` holds at least ``holds`` (or exactly ``exact`` and ``kou`` face-down triplets), with ``drawn`` its
    drawn tile and ``discard`` the tile it declares 亮倒 with; ``free``: tiles to leave in the wall (a draw or a
    horse the seat saw).
    """

    seat: int | None = None
    holds: Counts = EMPTY
    exact: Counts | None = None
    drawn: int | None = None
    kou: int = 0
    discard: int | None = None
    free: Counts = EMPTY
    must: int | None = None
    """A kind a declared hand's face-down triplets must include (its kong shows it)."""
    only: frozenset[int] = frozenset()
    """When not empty, the only kinds ``seat`` may hold: it feeds a declared hand where the rules allow that only then."""
    then: Action | None = None
    """A declared hand's kong or win that its face-down triplets must allow (its waits, or a kong keeping them)."""


def _hidden_part(state: Table, other: int) -> Counts:
    """The tiles of ``other`` that a world may deal anew.

    An undeclared hand's concealed tiles (less a tile it shows adding to a pong), a declared one's face-down
    triplets.
    """
    s = state.seats[other]
    if s.liang_dao:
        return tuple(3 if k in s.kou else 0 for k in range(NUM_KINDS))
    if state.phase == "rob" and state.turn == other and state.tile is not None:
        return with_tile(s.concealed, state.tile, -1)
    return s.concealed


def _fixed(state: Table, seat: int) -> list[int]:
    """Copies of each kind out of the wall that no world changes: what ``seat`` has seen.

    Its own tiles, rivers, melds, revealed hands.
    """
    fixed = list(state.dealt)
    for o in SEATS:
        if o != seat:
            for k, n in enumerate(_hidden_part(state, o)):
                fixed[k] -= n
    return fixed


def _pool(state: Table, seat: int) -> list[int]:
    """Copies of each kind a world may still place anywhere hidden: four less what ``seat`` has seen."""
    return [COPIES - n for n in _fixed(state, seat)]


@dataclass(frozen=True, slots=True)
class _Kept:
    """A declared hand whose face-down triplets (半亮) a world deals: ``count`` of them beside ``face``, its other tiles.

    The kinds it holds now (``keep``) are tried first; ``must`` must be among them (its kong shows it); the
    waits stay ``waits`` (None: a hand declaring now, whose waits are what its tiles make). A hand declared
    before may have konged since, so its triplets need only keep its waits (set aside as pongs they did when it
    declared, with the tiles it had then). Once 杀马 has konged one of its face-up triplets (``loose``), its waits
    are what its tiles make with the triplets, which the seat whose record it is cannot see: any kinds may do.
    """

    seat: int
    face: Counts
    melds: tuple[Meld, ...]
    count: int
    keep: frozenset[int]
    waits: frozenset[int] | None
    must: int | None
    loose: bool = False

    def choices(self, room: list[int]) -> Iterator[frozenset[int]]:
        """Every set of kinds it may keep face down, three of each in ``room``: best ``_rank`` first, then those it holds now."""
        order = sorted(range(NUM_KINDS), key=lambda k: (k not in self.keep, k))
        candidates = [k for k in order if room[k] >= 3 and not self.face[k]]  # a triplet kept face down is held exactly three times
        sets = [frozenset(kinds) for kinds in combinations(candidates, self.count) if self.must is None or self.must in kinds]
        ranked = sorted((self._rank(kinds), i, kinds) for i, kinds in enumerate(sets))
        yield from (kinds for rank, _, kinds in ranked if rank < 3)

    def waits_with(self, kinds: frozenset[int]) -> frozenset[int]:
        """What the hand wins on holding ``kinds`` face down."""
        return Hand(add(self.face, tuple(3 if k in kinds else 0 for k in range(NUM_KINDS))), self.melds).winning_kinds()

    def _rank(self, kinds: frozenset[int]) -> int:
        """How well ``kinds`` fit: 0, 1, 2, or 3 for not at all.

        0: the waits held and set aside alike (as a hand declaring now needs); 1: the waits kept; 2: anything (``loose``)."""
        held = self.waits_with(kinds)
        declaring = self.waits is None
        if not (bool(held) if declaring else held == self.waits):
            return 2 if self.loose else 3
        if held == Hand(self.face, self.melds + tuple(Meld(MeldType.PONG, k) for k in sorted(kinds))).winning_kinds():
            return 0
        return 3 if declaring else 1


def _kou_kinds(hands: list[_Kept], room: list[int], allows: Callable[[dict[int, frozenset[int]]], bool], chosen: dict[int, frozenset[int]] | None = None) -> dict[int, frozenset[int]] | None:
    """Face-down triplets for every hand of ``hands`` at once, three of each kind from ``room`` (None: none fit).

    Beside those ``chosen`` already, and such that ``allows`` accepts the whole choice. A search, not one hand
    after the other: two declared hands may both fit a kind that only one of them can have.
    """
    chosen = chosen or {}
    if not hands:
        return chosen if allows(chosen) else None
    first, rest = hands[0], hands[1:]
    for kinds in first.choices(room):
        left = [n - 3 if k in kinds else n for k, n in enumerate(room)]
        found = _kou_kinds(rest, left, allows, {**chosen, first.seat: kinds})
        if found is not None:
            return found
    return None


def _unfit_count(seat: int, count: int, kind: int, me: int, pool: list[int]) -> _Unfit:
    return _Unfit(
        gettext_noop("Seat %(seat)d cannot hold %(count)d %(tile)s: seat %(me)d has seen %(seen)d of the four."), seat=seat, count=count, tile=TILE_IDS[kind], me=me, seen=COPIES - pool[kind]
    )


def _refit(state: Table, seat: int, need: _Need) -> Table:
    """A world like ``state`` whose hidden hands hold what ``need`` says, dealt from the tiles ``seat`` has not seen.

    Raises _Unfit when no world can.
    """
    others = [o for o in SEATS if o != seat]
    hidden = {o: _hidden_part(state, o) for o in others}
    fixed = _fixed(state, seat)
    pool = [COPIES - n for n in fixed]
    new: dict[int, list[int]] = {o: [0] * NUM_KINDS for o in others}
    seats = list(state.seats)
    actor = need.seat
    if actor is not None:
        wanted = need.exact if need.exact is not None else need.holds
        if need.drawn is not None and wanted[need.drawn] == 0:
            wanted = with_tile(wanted, need.drawn)
        if need.exact is not None and sum(wanted) + 3 * need.kou != sum(hidden[actor]):
            raise _Unfit(
                gettext_noop("Seat %(seat)d holds %(held)d tiles, but %(count)d are given for it (the tiles shown and the discard, 3 for each triplet kept face down)."),
                seat=actor,
                held=sum(hidden[actor]),
                count=sum(wanted) + 3 * need.kou,
            )
        for k, n in enumerate(wanted):
            if n > pool[k]:
                raise _unfit_count(actor, n, k, seat, pool)
            pool[k] -= n
            new[actor][k] += n
    kept: list[_Kept] = []
    for o in others:  # the triplets a declared hand keeps face down (半亮), and those of a hand declaring now
        s = seats[o]
        declaring = o == actor and need.kou > 0
        if not declaring and not (s.liang_dao and s.kou):
            continue
        if declaring and need.discard is not None:
            face = with_tile(tuple(new[o]), need.discard, -1)
        elif state.phase in ("act", "rob") and state.turn == o and state.tile is not None:
            face = with_tile(face_up(s), state.tile, -1)  # its 13 tiles: the one drawn, or being added to its pong, apart
        else:
            face = face_up(s)
        loose = not declaring and state.rules.options.sha_ma and any(m.type is not MeldType.PONG for m in s.melds)
        kept.append(_Kept(o, face, s.melds, need.kou if declaring else len(s.kou), s.kou, None if declaring else s.waits, need.must if o == actor else None, loose))
    room = [max(0, p - f) for p, f in zip(pool, need.free)]  # the tiles to leave in the wall stay there

    def with_kou(hand: _Kept, kinds: frozenset[int]) -> SeatState:
        s = seats[hand.seat]
        own = add(tuple(new[hand.seat]), tuple(3 if k in kinds else 0 for k in range(NUM_KINDS)))
        s = replace(s, kou=kinds, concealed=add(face_up(s), own) if s.liang_dao else s.concealed)
        if not hand.loose:
            return s
        waits = hand.waits_with(kinds)
        return replace(s, waits=waits, ready_on=waits)

    def allows(chosen: dict[int, frozenset[int]]) -> bool:  # the declared hand's next action is legal with its triplets
        if need.then is None or need.seat not in chosen:
            return True
        trial = list(seats)
        trial[need.seat] = with_kou(next(h for h in kept if h.seat == need.seat), chosen[need.seat])
        return refusal(replace(state, seats=(trial[0], trial[1], trial[2])), need.then) is None

    chosen = _kou_kinds(kept, room, allows)
    if chosen is None:
        alone = [h.seat for h in kept if next(h.choices(room), None) is None]
        raise _Unfit(
            gettext_noop("Seat %(seat)d keeps triplets face down, but no kind is left three times that keeps the waits its revealed tiles show."),
            seat=(alone or [kept[-1].seat])[0],
        )
    for hand in kept:
        kinds = chosen[hand.seat]
        seats[hand.seat] = with_kou(hand, kinds)
        for k in kinds:
            pool[k] -= 3
            new[hand.seat][k] += 3
    free = list(need.free)
    for o in sorted(others, key=lambda o: o != actor) if need.only else others:  # a hand held to some kinds is dealt first
        if seats[o].liang_dao or (o == actor and need.exact is not None):
            continue
        size = sum(hidden[o]) - sum(new[o])
        fill = [k for k in range(NUM_KINDS) if o != actor or not need.only or k in need.only]
        for k in fill:  # keep what it held where the pool allows, then fill
            take = min(hidden[o][k], max(0, pool[k] - free[k]), size)
            new[o][k] += take
            pool[k] -= take
            size -= take
        for k in sorted(fill, key=lambda k: -(pool[k] - free[k])):
            take = min(max(0, pool[k] - free[k]), size)
            new[o][k] += take
            pool[k] -= take
            size -= take
        for k in fill:  # only the tiles to leave in the wall are left
            take = min(pool[k], size)
            new[o][k] += take
            pool[k] -= take
            size -= take
        if size:
            raise _Unfit(gettext_noop("Seat %(seat)d may throw a tile a declared hand wins on only while it holds nothing else, and the tiles left cannot make such a hand."), seat=o)
    dealt = tuple(fixed)
    for o in others:
        dealt = add(dealt, tuple(new[o]))
        s = seats[o]
        if s.liang_dao:
            continue
        concealed = tuple(new[o])
        if state.phase == "rob" and state.turn == o and state.tile is not None:
            concealed = with_tile(concealed, state.tile)
        seats[o] = replace(s, concealed=concealed, passed=0)
    tile = state.tile
    if state.phase == "act" and state.turn != seat and not seats[state.turn].liang_dao:
        held = seats[state.turn].concealed
        if need.drawn is not None and state.turn == actor:
            tile = need.drawn
        elif tile is None or not held[tile]:
            tile = next(k for k in range(NUM_KINDS) if held[k])
    for o in others:
        s = seats[o]
        if not s.liang_dao:
            thirteen = with_tile(s.concealed, tile, -1) if state.phase == "act" and state.turn == o and tile is not None else s.concealed
            seats[o] = replace(s, ready_on=Hand(thirteen, s.melds).winning_kinds())
    return replace(state, seats=(seats[0], seats[1], seats[2]), tile=tile, dealt=dealt)


def _first_world(header: Header) -> Table:
    """The deal as a stand-in world: the seat's own 13 tiles, the others' dealt from the rest."""
    seat = header.seat
    assert seat is not None
    own = header.hands[seat]
    pool = [COPIES - n for n in own]
    hands: list[Counts] = []
    for s in SEATS:
        if s == seat:
            hands.append(own)
            continue
        counts = [0] * NUM_KINDS
        size = 13
        for k in sorted(range(NUM_KINDS), key=lambda k: -pool[k]):
            take = min(pool[k], size, 2)
            counts[k] += take
            pool[k] -= take
            size -= take
        for k in range(NUM_KINDS):
            take = min(pool[k], size)
            counts[k] += take
            pool[k] -= take
            size -= take
        hands.append(tuple(counts))
    return deal((hands[0], hands[1], hands[2]), header.dealer, header.rule_set, base=header.base, piao=header.piao, dice=header.dice)


def _next_of(actions: tuple[SeatAction, ...], index: int, seat: int) -> int | None:
    """The tile another seat's next action shows right after its draw (a discard, a kong, a win).

    The drawn tile where a declared hand must play it.
    """
    if index + 1 < len(actions):
        after = actions[index + 1]
        if after.seat == seat and after.verb in ("discard", "kong", "win") and after.kind is not None:
            return after.kind
    return None


def _hidden_draw(state: Table, seat: int, action: SeatAction, index: int, actions: tuple[SeatAction, ...]) -> tuple[Table, Action]:
    """Another seat's draw: a tile of the wall as the world has it, the one it plays next where it can be."""
    o = action.seat
    wanted = _next_of(actions, index, o)
    pool = _pool(state, seat)
    if wanted is not None and pool[wanted] and state.dealt[wanted] >= COPIES:
        state = _refit(state, seat, _Need(free=with_tile(EMPTY, wanted)))
    if wanted is None or state.dealt[wanted] >= COPIES:
        wall = [COPIES - n for n in state.dealt]
        wanted = max(range(NUM_KINDS), key=lambda k: wall[k])
        if not wall[wanted]:
            wanted = 0  # the wall is empty: the table says so
    return state, Action(o, "draw", wanted)


def _feeding(state: Table, seat: int) -> frozenset[int]:
    """The kinds some seat other than ``seat`` that declared 亮倒 wins on."""
    return frozenset(k for o in SEATS if o != seat and state.seats[o].liang_dao for k in state.seats[o].waits)


def _need_for(state: Table, seat: int, action: SeatAction) -> _Need | None:
    """What another seat's action needs its hidden hand to hold (None: nothing hidden is needed)."""
    o, kind = action.seat, action.kind
    assert kind is not None
    s = state.seats[o]
    if s.liang_dao:  # its tiles are face up, but for the triplets it keeps face down: a kong may show one (not one added to a pong)
        shows = action.verb == "kong" and s.kou and kind not in s.kou and face_up(s)[kind] < 3 and not s.hand.pong_of(kind)
        made = action.action
        # and its kong (keeping its waits) or win depends on them: the world's must allow it
        then = made if s.kou and made is not None and action.verb in ("kong", "win") and refusal(state, made) is not None else None
        return _Need(o, must=kind if shows else None, then=then) if shows or then else None
    one = with_tile(EMPTY, kind)
    if action.verb == "discard":
        if action.liang_dao:
            assert action.revealed is not None
            drawn = None if state.phase != "act" else kind
            return _Need(o, exact=add(action.revealed, one), drawn=drawn, kou=action.hidden_kou, discard=kind)
        only = _feeding(state, o) if state.rules.options.no_feed_liang_dao and feeds(state, o, kind) else frozenset()
        if s.concealed[kind] and (not only or all(k in only for k, n in enumerate(s.concealed) if n)):
            return None  # the world's hand may throw it already
        return _Need(o, holds=one, drawn=kind if state.phase == "act" else None, only=only)
    if action.verb == "pong":
        return None if s.concealed[kind] >= 2 else _Need(o, holds=with_tile(EMPTY, kind, 2))
    if action.verb == "kong":
        if state.phase == "claim":
            return None if s.concealed[kind] >= 3 else _Need(o, holds=with_tile(EMPTY, kind, 3))
        if Hand(s.concealed, s.melds).pong_of(kind):
            return None if state.tile == kind and s.concealed[kind] else _Need(o, holds=one, drawn=kind)
        return None if s.concealed[kind] >= 4 else _Need(o, holds=with_tile(EMPTY, kind, 4), drawn=kind if state.phase == "act" else None)
    if action.verb == "win" and action.shown is not None:
        if state.phase == "act":
            return _Need(o, exact=add(action.shown, one), drawn=kind)
        return _Need(o, exact=action.shown)
    return None


def _money_known(states: list[Table], seat: int, unseen: list[tuple[int, int]]) -> bool:
    """Whether the hand's money follows from what ``seat`` saw.

    No win of unseen tiles, no face-down triplet in a win, 查大叫's hands known, and no 暗杠 in a 杠上杠 chain by
    another hidden hand under ``an_gang_chain_drawn_only`` (whether it used its drawn tile is not seen).
    """
    state = states[-1]
    if unseen:
        return False
    if state.rules.options.an_gang_chain_drawn_only and any(
        k.type == "an_gang" and k.seat != seat and k.chain > 1 and not before.seats[k.seat].liang_dao for before, after in zip(states, states[1:]) for k in after.kongs[len(before.kongs) :]
    ):
        return False
    if any(state.seats[w.seat].kou for w in state.wins):
        return False
    if state.result == "draw" and state.rules.options.cha_da_jiao:
        return False
    return horses_pending(state) == 0


def _ending(state: Table, unseen: list[tuple[int, int]], first_unseen_phase: str | None) -> Result | None:
    """How the hand ended, the wins whose tiles were not shown included."""
    if not unseen:
        return state.result
    if state.wins or first_unseen_phase in ("claim", "rob"):
        return "rob_kong" if first_unseen_phase == "rob" else "discard"
    return "self_draw"


def _next_dealer(result: Result | None, dealer: int, winners: list[int], discarder: int | None) -> int | None:
    """§5 from the facts alone: the single winner, the discarder after two wins on one tile.

    The same dealer after a drawn hand.
    """
    if result is None:
        return None
    if result == "draw":
        return dealer
    if len(winners) == 2 and discarder is not None:
        return discarder
    return winners[0]


def world_at_deal(header: Header) -> Table:
    """The stand-in world right after the deal of a one-seat record's header."""
    return _first_world(header)


def step_seat(state: Table, record: SeatRecord, index: int, following: tuple[SeatAction, ...] = ()) -> Table:
    """The stand-in world after the record's action ``index`` (raises RecordError).

    ``following``: actions known to come after it, for the tile a hidden draw takes. A win whose tiles
    were not shown leaves the same world.
    """
    try:
        return _one(state, record.seat, record.actions + following, index)[0]
    except _Unfit as exc:
        raise RecordError(exc.template, "actions", index, **exc.params) from exc
    except IllegalAction as exc:
        raise RecordError(exc.template, "actions", index, **exc.params) from exc


def replay_seat(record: SeatRecord) -> SeatReplay:
    """Play a one-seat record on stand-in worlds: every world, the result, what of the money is known.

    Raises RecordError at the first action the seat can tell is illegal.
    """
    seat = record.seat
    state = _first_world(record.header)
    states = [state]
    played: list[Action] = []
    unseen: list[tuple[int, int]] = []
    unseen_phase: str | None = None
    for index, action in enumerate(record.actions):
        try:
            if unseen:
                if action.verb != "win" or state.phase not in ("claim", "rob") or action.kind != unseen[0][1] or any(s == action.seat for s, _ in unseen) or len(unseen) + len(state.wins) >= 2:
                    raise _Unfit(gettext_noop("The hand is over: seat %(seat)d won, only another win on the same discard may follow."), seat=unseen[0][0])
            state, made = _one(state, seat, record.actions, index)
        except _Unfit as exc:
            raise RecordError(exc.template, "actions", index, **exc.params) from exc
        except IllegalAction as exc:
            raise RecordError(exc.template, "actions", index, **exc.params) from exc
        if made is None:  # a win whose tiles the seat did not see: the world stays as it was
            assert action.kind is not None
            if not unseen:
                unseen_phase = state.phase
            unseen.append((action.seat, action.kind))
            made = Action(action.seat, "win", action.kind)
        played.append(made)
        states.append(state)
    final = states[-1]
    first = states[0].seats
    header = replace(record.header, hands=(first[0].concealed, first[1].concealed, first[2].concealed))
    world = Record(header, tuple(played))
    known = _money_known(states, seat, unseen)
    settlement: Settlement = settle_table(final if known else replace(final, wins=(), phase="act"), header.players, header.base, header.piao, header.dice)
    result = _ending(final, unseen, unseen_phase)
    winners = [w.seat for w in final.wins] + [s for s, _ in unseen]
    discarder = final.turn if result in ("discard", "rob_kong") else None
    following = _next_dealer(result, header.dealer, winners, discarder)
    return SeatReplay(world, tuple(states), settlement, result, following, record, known, tuple(unseen))


def _one(state: Table, seat: int, actions: tuple[SeatAction, ...], index: int) -> tuple[Table, Action | None]:
    """The world after one action (None for the action: a win whose tiles were not shown, not played)."""
    action = actions[index]
    if action.seat not in SEATS:
        raise _Unfit(gettext_noop("Not an action: a seat 0–2, a verb and a tile."))
    if action.kind is None:
        state, drawn = _hidden_draw(state, seat, action, index, actions)
        return apply(state, drawn), drawn
    made = action.action
    assert made is not None
    if action.verb == "draw" and action.seat != seat and not state.seats[action.seat].liang_dao:
        raise _Unfit(gettext_noop('Seat %(seat)d\'s draw is not seen: write {"seat": %(seat)d, "draw": null} (a tile only once it has declared 亮倒).'), seat=action.seat)
    if action.seat == seat or action.verb in ("horses", "draw"):
        free = counts_of_kinds(made.horses) if action.verb == "horses" else with_tile(EMPTY, made.kind) if action.verb == "draw" else EMPTY
        pool = _pool(state, seat)
        if any(n and state.dealt[k] + n > COPIES and pool[k] >= n for k, n in enumerate(free)):
            state = _refit(state, seat, _Need(free=free))
        return apply(state, made), made
    other = state.seats[action.seat]
    if action.verb == "win" and action.shown is None and not other.liang_dao:
        _check_unseen_win(state, action)
        return state, None
    need = _need_for(state, seat, action)
    if need is not None:
        state = _refit(state, seat, need)
    if action.verb == "discard" and action.liang_dao:
        made = replace(made, kou=state.seats[action.seat].kou)
    return apply(state, made), made


def counts_of_kinds(kinds: tuple[int, ...]) -> Counts:
    """Counts of a list of kinds (the horses turned)."""
    out = [0] * NUM_KINDS
    for k in kinds:
        out[k] += 1
    return tuple(out)


def _check_unseen_win(state: Table, action: SeatAction) -> None:
    """A win whose tiles were not shown: only what the seat sees is checked (its turn, the tile on offer)."""
    kind = action.kind
    if state.wins and state.wins[0].side == "self_draw":
        raise _Unfit(gettext_noop("The hand is over."))
    if state.phase == "act":
        if action.seat != state.turn:
            raise _Unfit(gettext_noop("Seat %(seat)d may win only on its own draw, or on another seat's discard or added kong."), seat=action.seat)
        return
    if state.phase in ("claim", "rob"):
        if action.seat == state.turn:
            raise _Unfit(gettext_noop("Seat %(seat)d cannot win on its own tile this way."), seat=action.seat)
        if kind != state.tile:
            raise _Unfit(gettext_noop("Seat %(seat)d can only win on the tile just discarded or added to a pong."), seat=action.seat)
        return
    raise _Unfit(gettext_noop("Seat %(seat)d may win only on its own draw, or on another seat's discard or added kong."), seat=action.seat)


# ---------------------------------------------------------------- a full record, cut to one seat's view


def cut(done: Replay, seat: int) -> SeatRecord:
    """A full record's replay as ``seat`` saw it.

    The others' hands and draws unknown, their 亮倒 with the tiles revealed, their wins with the tiles shown.
    """
    out: list[SeatAction] = []
    for index, action in enumerate(done.actions):
        after = done.states[index + 1]
        if action.seat == seat or action.verb == "horses":
            out.append(SeatAction(action.seat, action.verb, action.kind, action.liang_dao, action.kou, horses=action.horses))
        elif action.verb == "draw":  # a declared hand's tiles are face up: the tile it keeps is seen
            out.append(SeatAction(action.seat, "draw", action.kind if done.states[index].seats[action.seat].liang_dao else None))
        elif action.verb == "discard" and action.liang_dao:
            s = after.seats[action.seat]
            out.append(SeatAction(action.seat, "discard", action.kind, True, hidden_kou=len(s.kou), revealed=face_up(s)))
        elif action.verb == "win":
            win = next(w for w in after.wins if w.seat == action.seat)
            shown = None if done.states[index].seats[action.seat].liang_dao else win.hand.concealed
            out.append(SeatAction(action.seat, "win", action.kind, shown=shown))
        else:
            out.append(SeatAction(action.seat, action.verb, action.kind))
    h = done.header
    hands = tuple(c if s == seat else EMPTY for s, c in enumerate(h.hands))
    return SeatRecord(replace(h, hands=(hands[0], hands[1], hands[2]), seat=seat), tuple(out))

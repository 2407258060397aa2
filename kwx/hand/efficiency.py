"""Tile efficiency (kwx-rules §4): effective tiles, waits and the discard options of a hand.

Drawing a tile changes one block (筒, 条 or dragons), so the shanten after any
draw is that block's new value combined with the other two blocks merged once.
Only kinds that touch the hand (the same kind, or a suited kind within two
ranks of a held tile) can lower the shanten, so no other kind is tried.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from kwx.hand.estimate import Estimate
from kwx.hand.money import has_flat_extras, side_amounts
from kwx.hand.rules import Rules
from kwx.hand.scoring import WinValue, score_wins
from kwx.hand.shapes import pairs_of
from kwx.hand.tables import DRAGON_IDS, KIND_BLOCK, KIND_STEP, MERGED, SUIT_IDS, VALUES, best_of_ids, block_draws, block_indices
from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, Hand, Meld, add


@dataclass(frozen=True, slots=True)
class Effective:
    """An effective tile: its kind and how many copies are still unseen."""

    kind: int
    remaining: int


class Wait(NamedTuple):
    """A winning tile of a ready hand, with what a self-draw and a discard win are worth (immutable; a NamedTuple, built fast).

    ``worth`` is what one copy adds to the value: the self-draw amount + the discard amount, each
    what one payer who did not declare pays per base stake with 漂 0 (town-rules.md §4: M + 坎 +
    跑恰摸八, plus the expected 马 on the self-draw side; ``kwx.hand.money.side_amounts``). Under
    rules without those flat extras it is self-draw total + discard total (kwx-rules.md §4).
    """

    kind: int
    remaining: int
    self_draw: WinValue
    discard: WinValue
    worth: float

    @property
    def value(self) -> float:
        """remaining × worth, the §4 value of this wait."""
        return self.remaining * self.worth


class Efficiency(NamedTuple):
    """A 13-tile hand's shanten, effective tiles and (when ready) waits (immutable; a NamedTuple, built fast).

    ``kinds`` are the effective kinds and ``left`` the remaining copies of every kind; ``ukeire`` counts the effective tiles by remaining copies; ``value`` is
    Σ over waits of remaining × worth (self-draw + discard amount; the totals under rules without flat extras), None unless ready.
    """

    shanten: int
    kinds: tuple[int, ...]
    left: Counts
    waits: tuple[Wait, ...]
    ukeire: int
    value: float | None

    @property
    def effective(self) -> tuple[Effective, ...]:
        """The effective tiles with their remaining copies."""
        return tuple(Effective(k, self.left[k]) for k in self.kinds)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One discard of a 14-tile hand: the 13-tile hand it leaves and, when asked for, its danger and EV.

    The one shape of a discard option: the API body, the analyzer's table and the
    puzzle banks all serialise it (``kwx.hand.serial``). ``deals_in`` is None
    unless revealed (亮倒) hands were given; ``estimate`` is None without ``depth: ev``.
    """

    discard: int
    result: Efficiency
    deals_in: bool | None = None
    estimate: Estimate | None = None

    @property
    def rank_key(self) -> tuple[int, float, int, int]:
        """Sort key, best first: shanten, then value (if ready), then effective tiles."""
        r = self.result
        return (r.shanten, -(r.value or 0), -r.ukeire, self.discard)


_LEFT = bytes(max(0, COPIES - n) for n in range(256))


def remaining(seen: Counts) -> Counts:
    """Unseen copies of each kind: 4 − seen, never below 0."""
    return tuple(bytes(seen).translate(_LEFT))


@lru_cache(maxsize=4096)
def _helping_values(rest: int, budget: int, need: int) -> int:
    """Bit v set when a block of value id v and the merged value ``rest`` together are worth more than ``need``."""
    return sum(1 << v for v in range(len(VALUES)) if best_of_ids(v, rest, budget) > need)


@lru_cache(maxsize=1 << 17)
def improving_in_block(block: int, index: int, rest: int, budget: int, need: int) -> tuple[int, ...]:
    """Kinds of one block whose draw makes the block and the merged value ``rest`` worth more than ``need``."""
    helping = _helping_values(rest, budget, need)
    start = 9 * block
    return tuple(start + rank for rank, value in block_draws(block == 2, index) if helping >> value & 1)


def _improving(counts: Counts, indices: tuple[int, ...], pairs: int, melds: int, full: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """improving_draws with the block indices and pair count already known."""
    i0, i1, i2 = indices
    a0, a1, a2 = SUIT_IDS[i0], SUIT_IDS[i1], DRAGON_IDS[i2]
    rest0 = MERGED[a1][a2]
    budget = 4 - melds
    target = 8 - 2 * melds  # shanten = target − best
    base_std = target - best_of_ids(a0, rest0, budget)
    seven = 6 - pairs if melds == 0 else 99
    base = base_std if base_std < seven else seven
    need = target - base  # a draw helps when the best exceeds this
    # the three blocks' kinds are disjoint and each in order, so together they are in order
    better = improving_in_block(0, i0, rest0, budget, need) + improving_in_block(1, i1, MERGED[a0][a2], budget, need) + improving_in_block(2, i2, MERGED[a0][a1], budget, need)
    if seven - 1 < base or full:
        kinds = set(better)
        if seven - 1 < base:  # a new pair lowers the seven-pairs count
            kinds.update(k for k in range(NUM_KINDS) if counts[k] & 1)
        kinds.difference_update(full)
        better = tuple(sorted(kinds))
    return base, better


@lru_cache(maxsize=65536)
def improving_draws(counts: Counts, melds: int, full: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Shanten of concealed ``counts`` and the kinds whose draw lowers it.

    ``full`` lists the kinds the player already holds all four of (never drawn).
    Which kinds of a block help depends only on the block, the merged other blocks
    and the shanten to beat, so it is memoised on those (block values are few).
    """
    return _improving(counts, block_indices(counts), pairs_of(counts), melds, full)


def full_kinds(held: Counts) -> tuple[int, ...]:
    """The kinds held all four times."""
    return tuple(k for k, n in enumerate(held) if n >= COPIES) if COPIES in held else ()


def efficiency(hand: Hand, seen: Counts, rules: Rules) -> Efficiency:
    """Shanten, effective tiles and waits of a 13-tile hand; ``seen`` gives the remaining counts."""
    shanten, kinds = improving_draws(hand.concealed, len(hand.melds), full_kinds(hand.held))
    left = remaining(seen)
    return _ready(hand, kinds, left, rules) if shanten == 0 else _unready(shanten, kinds, left)


def _result(counts: Counts, melds: tuple[Meld, ...], shanten: int, kinds: tuple[int, ...], left: Counts, rules: Rules) -> Efficiency:
    """The Efficiency of a 13-tile hand whose shanten and effective kinds are known."""
    return _ready(Hand(counts, melds), kinds, left, rules) if shanten == 0 else _unready(shanten, kinds, left)


def _unready(shanten: int, kinds: tuple[int, ...], left: Counts) -> Efficiency:
    """The Efficiency of a 13-tile hand that is not ready: no waits, no value."""
    return Efficiency(shanten, kinds, left, (), sum([left[k] for k in kinds]), None)


def winning(hand: Hand, kinds: tuple[int, ...], rules: Rules) -> list[tuple[int, WinValue, WinValue]]:
    """(kind, self-draw, discard values) of each kind among ``kinds`` that completes the 13-tile ``hand``."""
    return [(k, *values) for k, values in zip(kinds, score_wins(hand, kinds, rules)) if values is not None]


def _ready(hand: Hand, kinds: tuple[int, ...], left: Counts, rules: Rules) -> Efficiency:
    """The Efficiency of a ready 13-tile hand whose winning kinds are ``kinds`` (scored together)."""
    return _waiting(hand, kinds, left, winning(hand, kinds, rules), rules)


def _waiting(hand: Hand, kinds: tuple[int, ...], left: Counts, scored: Sequence[tuple[int, WinValue, WinValue]], rules: Rules) -> Efficiency:
    """The Efficiency of the ready 13-tile ``hand`` with effective ``kinds`` and its :func:`winning` waits ``scored``."""
    if has_flat_extras(rules.options):
        waits = tuple(Wait(k, left[k], self_draw, discard, side_amounts(hand, k, self_draw, discard, rules, left)) for k, self_draw, discard in scored)
    else:
        waits = tuple(Wait(k, left[k], self_draw, discard, self_draw.total + discard.total) for k, self_draw, discard in scored)
    return Efficiency(0, kinds, left, waits, sum([left[k] for k in kinds]), sum([w.value for w in waits]))


def _discards(hand: Hand) -> Iterator[tuple[int, tuple[int, int, int], int]]:
    """Each distinct discard of a 14-tile hand with the block indices and pair count it leaves.

    Found from the 14-tile hand's block indices and pairs, worked out once.
    """
    counts = hand.concealed
    indices = block_indices(counts)
    pairs = pairs_of(counts)
    for kind in range(NUM_KINDS):
        n = counts[kind]
        if n:
            after = list(indices)
            after[KIND_BLOCK[kind]] -= KIND_STEP[kind]
            yield kind, (after[0], after[1], after[2]), pairs - (n % 2 == 0)


def _option(hand: Hand, kind: int, indices: tuple[int, int, int], pairs: int, left: Counts, rules: Rules) -> DiscardOption:
    """The discard of ``kind`` with the 13-tile hand it leaves (its block indices and pairs known)."""
    after, shanten, kinds = _left_by(hand, kind, indices, pairs)
    return DiscardOption(kind, _result(after, hand.melds, shanten, kinds, left, rules))


def _left_by(hand: Hand, kind: int, indices: tuple[int, int, int], pairs: int) -> tuple[Counts, int, tuple[int, ...]]:
    """The concealed counts the discard of ``kind`` leaves, with their shanten and effective kinds.

    Block indices and pairs known.
    """
    counts = hand.concealed
    full = full_kinds(hand.held)
    after = counts[:kind] + (counts[kind] - 1,) + counts[kind + 1 :]
    after_full = tuple(k for k in full if k != kind) if kind in full else full
    shanten, kinds = _improving(after, indices, pairs, len(hand.melds), after_full)
    return after, shanten, kinds


@lru_cache(maxsize=2048)
def discard_options(hand: Hand, visible: Counts, rules: Rules) -> tuple[DiscardOption, ...]:
    """Every distinct discard of a 14-tile hand with its result, best first.

    §4; remembered for the last hands asked, as the bots ask twice.

    The 14-tile hand's block indices, pairs and four-held kinds are found once; each
    discard only moves its own block's index and the counts it touches.
    """
    left = remaining(add(hand.held, visible))
    options = [_option(hand, kind, indices, pairs, left, rules) for kind, indices, pairs in _discards(hand)]
    options.sort(key=lambda o: o.rank_key)
    return tuple(options)


@lru_cache(maxsize=1 << 16)
def _ready_shapes(hand: Hand, rules: Rules) -> tuple[tuple[int, Hand, tuple[int, ...], tuple[tuple[int, WinValue, WinValue], ...]], ...]:
    """Per discard of a 14-tile hand that leaves it ready: the discard, the effective kinds and the scored waits.

    All independent of what is seen.
    """
    melds = len(hand.melds)
    budget = 4 - melds
    target = 8 - 2 * melds
    out = []
    for kind, (i0, i1, i2), pairs in _discards(hand):
        if target - best_of_ids(SUIT_IDS[i0], MERGED[SUIT_IDS[i1]][DRAGON_IDS[i2]], budget) == 0 or (not melds and pairs == 6):
            after, shanten, kinds = _left_by(hand, kind, (i0, i1, i2), pairs)
            if shanten == 0:
                left_hand = Hand(after, hand.melds)
                waits = tuple(winning(left_hand, kinds, rules))
                if waits:
                    out.append((kind, left_hand, kinds, waits))
    return tuple(out)


def ready_discards(hand: Hand, visible: Counts, rules: Rules) -> tuple[DiscardOption, ...]:
    """The discards of a 14-tile hand that leave it ready (waits and all), in kind order.

    :func:`discard_options` cut to those, found without working out the others' effective tiles (the shapes
    remembered per hand, the copies left counted per call).
    """
    left = remaining(add(hand.held, visible))
    options = []
    for kind, left_hand, kinds, scored in _ready_shapes(hand, rules):
        options.append(DiscardOption(kind, _waiting(left_hand, kinds, left, scored, rules)))
    return tuple(options)


def best_discards(options: tuple[DiscardOption, ...]) -> tuple[int, ...]:
    """The discards tied best on shanten, value and effective tiles (all equally correct)."""
    if not options:
        return ()
    top = options[0].rank_key[:3]
    return tuple(o.discard for o in options if o.rank_key[:3] == top)

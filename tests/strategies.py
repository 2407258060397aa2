"""Hypothesis strategies for 卡五星 hands."""

from __future__ import annotations

from hypothesis import strategies as st

from kwx.hand.tiles import COPIES, NUM_KINDS, Counts, counts_of

WALL: tuple[int, ...] = tuple(k for k in range(NUM_KINDS) for _ in range(COPIES))


def concealed(size: int) -> st.SearchStrategy[Counts]:
    """``size`` tiles drawn from the 84-tile wall, as counts."""
    return st.permutations(WALL).map(lambda wall: counts_of(wall[:size]))


def suited_heavy(size: int) -> st.SearchStrategy[Counts]:
    """Hands drawn from one or two suits only, where shapes get interesting."""
    return st.sampled_from([range(0, 9), range(9, 18), range(0, 18)]).flatmap(lambda kinds: st.permutations(tuple(k for k in kinds for _ in range(COPIES))).map(lambda w: counts_of(w[:size])))


def hands(size: int) -> st.SearchStrategy[Counts]:
    """Random or suit-heavy concealed hands of ``size`` tiles."""
    return st.one_of(concealed(size), suited_heavy(size))

"""Glicko-2: Glickman's worked example, the caps, and who moves which way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzles import rating as glicko
from puzzles.rating import Rating, capped, expected, rate_answer, update


def test_glickman_worked_example():
    after = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation():
    after = update(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.rd > 200


def test_expected_score_is_symmetric_for_equal_deviations():
    a, b = Rating(1600, 80), Rating(1400, 80)
    assert expected(a, b) + expected(b, a) == pytest.approx(1.0)
    assert expected(a, b) > 0.5


def test_cap_limits_the_change_and_bounds_the_deviation():
    c = capped(Rating(1500, 350), Rating(1900, 10, 0.06), 75)
    assert c.rating == 1575 and c.rd == glicko.MIN_RD


@given(
    st.floats(800, 2400),
    st.floats(45, 350),
    st.floats(800, 2400),
    st.floats(45, 350),
    st.booleans(),
)
def test_one_answer_moves_player_and_puzzle_oppositely_within_caps(pr, prd, zr, zrd, correct):
    player, puzzle = Rating(pr, prd), Rating(zr, zrd)
    new_player, new_puzzle = rate_answer(player, puzzle, correct)
    dp, dz = new_player.rating - pr, new_puzzle.rating - zr
    assert abs(dp) <= glicko.PLAYER_CAP + 1e-9 and abs(dz) <= glicko.PUZZLE_CAP + 1e-9
    if correct:
        assert dp >= 0 >= dz
    else:
        assert dp <= 0 <= dz
    assert glicko.MIN_RD <= new_player.rd <= glicko.MAX_RD

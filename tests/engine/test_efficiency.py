"""Waits, effective tiles and discard options (kwx-rules §4)."""

from __future__ import annotations

from hypothesis import given

from kwx import analyze
from kwx.hand.efficiency import best_discards, discard_options, ready_discards
from kwx.hand.notation import format_counts, parse_tiles
from kwx.hand.rules import make_rules
from kwx.hand.shapes import is_complete, shanten
from kwx.hand.tiles import EMPTY, NUM_KINDS, TILE_IDS, Hand, kind_of, with_tile
from tests.strategies import hands


@given(hands(13))
def test_each_wait_completes_the_hand_and_no_other_tile_does(counts):
    result = analyze(format_counts(counts))
    waits = {w["tile"] for w in result["waits"]}
    for kind in range(NUM_KINDS):
        winning = counts[kind] < 4 and is_complete(with_tile(counts, kind))
        assert (TILE_IDS[kind] in waits) == winning
    assert bool(waits) <= (result["shanten"] == 0)


@given(hands(13))
def test_effective_tiles_are_exactly_the_draws_that_lower_shanten(counts):
    result = analyze(format_counts(counts))
    base = shanten(counts)
    assert result["shanten"] == base
    expected = {TILE_IDS[k] for k in range(NUM_KINDS) if counts[k] < 4 and shanten(with_tile(counts, k)) < base}
    assert {t["tile"] for t in result["ukeire"]["tiles"]} == expected
    assert result["ukeire"]["total"] == sum(4 - counts[kind_of(t)] for t in expected)


@given(hands(14))
def test_discard_options_match_the_thirteen_tile_analysis(counts):
    result = analyze(format_counts(counts))
    assert {o["discard"] for o in result["options"]} == {TILE_IDS[k] for k in range(NUM_KINDS) if counts[k]}
    for option in result["options"]:
        after = with_tile(counts, kind_of(option["discard"]), -1)
        assert option["shanten"] == shanten(after)
        # remaining counts after a discard treat the 14-tile hand's own copies as seen
        for tile in option["ukeire"]["tiles"]:
            assert tile["remaining"] == 4 - counts[kind_of(tile["tile"])]
    expected_top = -1 if is_complete(counts) else min(o["shanten"] for o in result["options"])
    assert result["shanten"] == expected_top


@given(hands(14), hands(14))
def test_ready_discards_are_the_options_that_leave_the_hand_ready(counts, seen):
    hand = Hand(counts)
    visible = tuple(max(0, min(s, 4 - n)) for s, n in zip(seen, counts))
    rules = make_rules()
    expected = sorted((o for o in discard_options(hand, visible, rules) if o.result.shanten == 0 and o.result.waits), key=lambda o: o.discard)
    assert list(ready_discards(hand, visible, rules)) == expected


def test_ready_discards_find_seven_pairs_and_standard_waits():
    hand = Hand(parse_tiles("11223344556678s"))  # ready on several discards, as seven pairs and as sets
    expected = [o for o in discard_options(hand, EMPTY, make_rules()) if o.result.shanten == 0 and o.result.waits]
    assert [o.discard for o in ready_discards(hand, EMPTY, make_rules())] == sorted(o.discard for o in expected)
    assert len(expected) >= 2


@given(hands(14))
def test_options_are_ranked_best_first(counts):
    options = analyze(format_counts(counts))["options"]
    keys = [(o["shanten"], -(o["value"] or 0), -o["ukeire"]["total"]) for o in options]
    assert keys == sorted(keys)


def test_value_is_remaining_times_both_totals():
    options = {o["discard"]: o for o in analyze("4556p123789sZZZF")["options"]}
    assert options["F"]["value"] == 2 * (2 + 2)
    assert options["5p"]["value"] == 3 * (1 + 0)  # 屁胡 on a discard counts 0
    assert options["4p"]["value"] is None


def test_visible_tiles_lower_remaining():
    wait = analyze("4556p123789sZZZ", visible="5p")["waits"][0]
    assert wait["remaining"] == 1


def test_best_discards_returns_every_tied_best():
    hand = Hand(parse_tiles("1122p335577sZZFB"))
    options = discard_options(hand, EMPTY, make_rules())
    assert sorted(TILE_IDS[k] for k in best_discards(options)) == ["B", "F"]


def test_held_four_is_never_a_wait():
    result = analyze("1111p234567sZZZ")
    assert result["shanten"] == 0 and result["waits"] == []
    assert all(t["tile"] != "1p" for t in result["ukeire"]["tiles"])

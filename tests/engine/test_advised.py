"""The advice bot: legal, deterministic play within its work budget; worlds dealt with the opponents' progress."""

from __future__ import annotations

import random
import statistics

from kwx.bots.advised import AdviceBot
from kwx.bots.strong import StrongBot
from kwx.bots.tournament import Run, decision_lines
from kwx.hand.shapes import shanten
from kwx.table.advice import sample_world
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import view_for
from tests.engine.test_advice import position
from tests.engine.test_bots_play import Checked
from tests.engine.test_selfplay import check_hand, tiles_on_the_table

WORK = 400


EVERY_KIND = frozenset({"claim", "kong", "declare", "defence", "close"})


def small() -> AdviceBot:
    """A cheap advice bot that rolls out every kind of contested decision."""
    return AdviceBot(work=WORK, worlds=6, min_worlds=4, kinds=EVERY_KIND)


def test_the_advice_bot_plays_legal_balanced_hands_blind_to_hidden_tiles():
    strong = StrongBot()
    for seed in (21, 22):
        bot = small()
        checked = Checked(bot, small())
        check_hand(play(seeded_deal(seed, seed % 3), [checked, strong, strong]))
        assert checked.calls > 0
        assert any(d.kind != "plain" for d in bot.decisions)


def test_the_work_budget_holds_and_fixes_the_play():
    strong = StrongBot()
    runs = []
    for _ in range(2):
        bot = small()
        done = play(seeded_deal(23, 0), [strong, bot, strong])
        runs.append((done.record.to_json(), [(d.kind, d.actions, d.worlds, d.switched) for d in bot.decisions]))
    assert runs[0] == runs[1]
    rolled = [d for d in runs[0][1] if d[0] != "plain"]
    assert rolled
    # the budget is checked before each rollout, so it is passed by at most one rollout (< 150 actions)
    assert all(actions <= WORK + 150 and worlds <= 6 for _, actions, worlds, _ in rolled)


def test_a_cpu_ceiling_is_off_by_default_and_plain_decisions_cost_no_rollouts():
    assert AdviceBot().cpu_ceiling == float("inf")
    strong = StrongBot()
    bot = AdviceBot(kinds=frozenset())
    done = play(seeded_deal(24, 1), [bot, strong, strong])
    check_hand(done)
    assert bot.decisions and all(d.kind == "plain" and d.actions == 0 for d in bot.decisions)
    alone = play(seeded_deal(24, 1), [strong, strong, strong])
    assert done.actions == alone.actions  # with no rollouts it is the strong bot


def test_progress_worlds_keep_what_the_seat_sees_and_deal_nearer_hands():
    state = position(3, 9)  # eight or nine discards each, nobody revealed
    assert state is not None
    near, uniform = [], []
    for s in range(40):
        world = sample_world(view_for(state, 0), random.Random(s), progress=True)
        assert tiles_on_the_table(world) == 84 and max(world.dealt) <= 4
        assert world.seats[0] == state.seats[0] and view_for(world, 0).seen == view_for(state, 0).seen
        assert world.wall_left == state.wall_left
        plain = sample_world(view_for(state, 0), random.Random(s))
        for other in (1, 2):
            if not state.seats[other].liang_dao:
                near.append(shanten(world.seats[other].concealed, len(world.seats[other].melds)))
                uniform.append(shanten(plain.seats[other].concealed, len(plain.seats[other].melds)))
    assert statistics.fmean(near) < statistics.fmean(uniform) - 0.5


def test_decision_lines_report_counts_and_times():
    from kwx.bots.advised import DecisionCost

    made = (DecisionCost("plain", 0.001, 0, 0, False), DecisionCost("claim", 0.2, 300, 5, True), DecisionCost("defence", 0.4, 500, 6, False))
    (line,) = decision_lines(Run(("advice", "strong", "strong"), 1, "standard", (), 1.0, 1.0, 1, (("advice", made),)))
    assert "decisions: 3, rolled out 2" in line and "claim 1, 1 switched" in line and "defence 1, 0 switched" in line
    assert "rolled out median 200 ms, p95 400 ms" in line and "rollout actions max 500" in line

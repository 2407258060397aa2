"""The boosted evaluator: its features, the walk down its trees, the shipped fit, and the bot that plays with it."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kwx.bots import boosted, fit_boosted
from kwx.bots.boosted import NAMES, Boosted, Trees, features, load_trees
from kwx.bots.companion import CompanionBot
from kwx.bots.fit import POOL, made_from
from kwx.bots.fit_judge import targets
from kwx.bots.judge import BoostedJudgeBot
from kwx.bots.learned import NAMES as LINEAR_NAMES
from kwx.bots.registry import policy_factory
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from kwx.table.view import view_for

X = {name: i for i, name in enumerate(NAMES)}


def own_turns(seed: int):
    """Every own-turn view of an unlocked seat in a hand of strong bots on a seeded deal."""
    done = play(seeded_deal(seed, seed % 3), [StrongBot(), StrongBot(), StrongBot()])
    for state in done.states:
        if state.phase == "act" and not state.wins and not state.seats[state.turn].liang_dao:
            yield view_for(state, state.turn)


def scored(bot: Boosted, view):
    """The strong bot's scored discards of the view's 14 tiles and what each leaves."""
    allowed = frozenset(a.kind for a in view.options if a.verb == "discard")
    return bot.discards(view, view.hand, allowed, any(a.liang_dao for a in view.options)), bot.results(view)


def test_the_features_are_the_linear_models_then_what_the_hand_and_table_show():
    bot = Boosted()
    checked = 0
    for view in own_turns(5):
        choices, results = scored(bot, view)
        for c in choices[:3]:
            x = features(bot, view, c, results)
            assert len(x) == len(NAMES) == len(LINEAR_NAMES) + len(boosted.EXTRA)
            assert x[: len(LINEAR_NAMES)] == bot.features_of(view, c, results)
            eff = results[c.kind]
            assert x[X["shanten"]] == eff.shanten and x[X["wait_kinds"]] == len(eff.waits)
            assert x[X["wall_left"]] == view.wall_left and x[X["liang_dao"]] == float(c.liang_dao)
            assert x[X["strong_worth"]] == c.worth and x[X["dealer"]] == float(view.dealer == view.seat)
            revealed = sum(1 for o in view.others() if view.seats[o].liang_dao)
            assert x[X["revealed"]] == revealed
            if not revealed:
                assert x[X["revealed_live"]] == x[X["revealed_cost"]] == 0.0
            checked += 1
    assert checked > 20


def test_a_tree_is_walked_left_when_the_feature_is_at_most_its_threshold():
    trees = Trees.from_json({"trees": [[0, 0.5, 1, [1, 2.0, 2, 3]], -0.5]})
    assert trees.trees == ((0, 0.5, 1.0, (1, 2.0, 2.0, 3.0)), -0.5)
    assert trees.predict([0.5, 9.0]) == 0.5  # at the threshold: left
    assert trees.predict([0.6, 2.0]) == 1.5
    assert trees.predict([0.6, 2.5]) == 2.5


def walked(trees, x):
    """The sum of the leaves ``x`` reaches, walking each tree node by node (what the compiled function must give)."""
    total = 0.0
    for node in trees:
        while isinstance(node, tuple):
            node = node[2] if x[node[0]] <= node[1] else node[3]
        total += node
    return total


FLOATS = st.floats(-1e6, 1e6, allow_nan=False)
TREES = st.lists(st.recursive(FLOATS, lambda sub: st.tuples(st.integers(0, 5), FLOATS, sub, sub), max_leaves=15), max_size=8)


@given(TREES, st.lists(FLOATS, min_size=6, max_size=6))
def test_the_compiled_trees_sum_exactly_the_leaves_a_walk_reaches(trees, x):
    assert Trees(tuple(trees)).predict(x) == walked(trees, x)
    at = [t[1] for t in trees if isinstance(t, tuple)][:1] * 6 or x  # features on a split's threshold: the <= edge
    assert Trees(tuple(trees)).predict(at) == walked(trees, at)


def test_the_shipped_trees_give_lightgbms_own_predictions_and_say_how_they_were_made():
    data = json.loads(boosted.DATA.read_text(encoding="utf-8"))
    trees = load_trees()
    assert len(trees.trees) == len(data["trees"]) > 50
    assert data["checks"]
    for x, predicted in data["checks"]:
        assert trees.predict(x) == pytest.approx(predicted, abs=1e-9)
        assert trees.predict(x) == walked(trees.trees, x)
    meta = data["meta"]
    assert meta["features"] == list(NAMES) and meta["pool"] == list(POOL)
    assert meta["command"] == "python -m kwx.bots.fit_boosted --hands " + " ".join(map(str, meta["hands"])) + f" --seed {meta['seed']}"
    rounds = meta["rounds"]
    assert [r["hands"] for r in rounds] == meta["hands"] and [r["seed"] for r in rounds] == [meta["seed"] + r for r in range(len(rounds))]
    assert rounds[-1]["trees"] == len(trees.trees) and rounds[-1]["held_out"] == data["held_out"]
    for r in rounds:  # in every round the trees predict the money better than the linear model
        assert r["held_out"]["error_trees"] < r["held_out"]["error_linear"] < r["held_out"]["error_none"]


def test_a_lightgbm_dump_is_compacted_and_a_split_of_another_kind_refused():
    dump = {
        "split_feature": 3,
        "threshold": 1.5,
        "decision_type": "<=",
        "left_child": {"leaf_value": 0.25},
        "right_child": {"split_feature": 0, "threshold": 0.0, "decision_type": "<=", "left_child": {"leaf_value": -1.0}, "right_child": {"leaf_value": 2.0}},
    }
    compact = fit_boosted.compact(dump)
    assert compact == [3, 1.5, 0.25, [0, 0.0, -1.0, 2.0]]
    assert Trees.from_json({"trees": [compact]}).predict([0.0, 0, 0, 2.0]) == -1.0
    with pytest.raises(ValueError, match="'=='"):
        fit_boosted.compact({**dump, "decision_type": "=="})


def test_the_fit_samples_every_unlocked_discard_of_the_judges_seats_with_the_money_made_after_it():
    rows = fit_boosted.samples(4, seed=3)
    assert rows == fit_boosted.samples(4, seed=3)
    assert len(rows) > 20 and all(len(x) == len(NAMES) for x, _ in rows)
    assert all(x[X["liang_dao"]] in (0.0, 1.0) for x, _ in rows)
    assert any(y != 0 for _, y in rows)


def test_a_fit_keeps_each_rounds_samples_exactly_and_reads_them_back_for_the_same_players(tmp_path, monkeypatch):
    always = Trees.from_json({"trees": [[X["liang_dao"], 0.5, -100.0, 100.0]]})
    rows = fit_boosted.kept_samples(tmp_path, 4, 3)
    assert rows == fit_boosted.samples(4, seed=3)
    kept = fit_boosted.sample_file(tmp_path, 4, 3, None)
    assert kept.exists() and fit_boosted.sample_file(tmp_path, 4, 3, always) != kept != fit_boosted.sample_file(tmp_path, 4, 4, None)
    monkeypatch.setattr(fit_boosted, "samples", lambda *args: pytest.fail("played again"))
    assert fit_boosted.kept_samples(tmp_path, 4, 3) == rows  # read back, every float as it was
    kept.write_bytes(kept.read_bytes()[:-8])
    with pytest.raises(ValueError, match="are not samples of 41"):
        fit_boosted.kept_samples(tmp_path, 4, 3)


def test_a_fit_holds_each_rounds_trees_to_max_trees_and_names_the_cap_in_its_command(monkeypatch):
    caps = []

    def fake_train(rows, seed, max_trees=fit_boosted.MAX_TREES):
        caps.append(max_trees)
        return {"trees": [0.5] * min(3, max_trees), "held_out": {}, "checks": []}

    monkeypatch.setattr(fit_boosted, "samples", lambda count, seed, jobs, player, rate, lam: [((0.0,) * len(NAMES), 1.0)] * count)
    monkeypatch.setattr(fit_boosted, "train", fake_train)
    capped = fit_boosted.fit([2, 3], seed=7, max_trees=2)
    assert caps == [2, 2] and [r["trees"] for r in capped["meta"]["rounds"]] == [2, 2]
    assert capped["meta"]["command"] == "python -m kwx.bots.fit_boosted --hands 2 3 --seed 7 --max-trees 2"
    assert fit_boosted.fit([2], seed=7)["meta"]["command"] == "python -m kwx.bots.fit_boosted --hands 2 --seed 7"  # the default, as shipped
    assert caps[-1] == fit_boosted.MAX_TREES


def test_an_exploring_round_throws_one_of_the_ten_best_once_per_seat_and_hand_and_keeps_the_samples_after_it():
    player = load_trees()
    explorer = fit_boosted.Explorer(player, 0.999, random.Random(1))
    greedy = fit_boosted.BoostedRecorder(player)
    switched = 0
    for view in [v for v in own_turns(6) if not v.me.liang_dao][:12]:
        explorer.explored.clear()
        explorer.notes.clear()
        explorer.notes.append((view.seat, 0, (0.0,), 0.0))  # a sample noted earlier in the hand by this seat
        best = greedy.act(view)
        ten = scored(explorer, view)[0][: fit_boosted.EXPLORE_TOP]
        if best.verb != "discard" or len(ten) < 2:
            continue
        action = explorer.act(view)
        assert (action.kind, action.liang_dao) in {(c.kind, c.liang_dao) for c in ten}
        assert [n[0] for n in explorer.notes] == [view.seat] and explorer.notes[0][2] != (0.0,)  # the earlier sample dropped
        assert explorer.act(view) == best  # once per seat and hand
        switched += action != best
    assert switched


def test_an_exploring_round_is_played_the_same_in_any_number_of_processes_and_kept_apart(monkeypatch):
    monkeypatch.setattr(fit_boosted, "CHUNK", 1)  # three chunks, each exploring with its own seed
    player = load_trees()
    explored = fit_boosted.samples(3, seed=5, player=player, explore=0.5)
    assert explored == fit_boosted.samples(3, seed=5, jobs=2, player=player, explore=0.5)
    assert explored != fit_boosted.samples(3, seed=5, player=player)
    assert fit_boosted.sample_file(Path("k"), 3, 5, player, 0.5) != fit_boosted.sample_file(Path("k"), 3, 5, player)


def test_the_rates_of_exploring_rounds_are_named_in_the_command(monkeypatch):
    rates = []
    monkeypatch.setattr(fit_boosted, "samples", lambda count, seed, jobs, player, rate, lam: rates.append(rate) or [((0.0,) * len(NAMES), 1.0)] * count)
    monkeypatch.setattr(fit_boosted, "train", lambda rows, seed, max_trees: {"trees": [0.5], "held_out": {}, "checks": []})
    data = fit_boosted.fit([2, 3], seed=7, explore=[0, 0.15])
    assert rates == [0, 0.15] and data["meta"]["command"] == "python -m kwx.bots.fit_boosted --hands 2 3 --seed 7 --explore 0 0.15"
    assert [r.get("explore") for r in data["meta"]["rounds"]] == [None, 0.15]


def noted_hand(seed: int):
    """A hand of the pool's two-judge line-up on a seeded deal, with the discards its judges noted."""
    recorder = fit_boosted.JudgeRecorder()
    done = play(seeded_deal(seed, seed % 3), [recorder, recorder, CompanionBot()])
    return done, list(recorder.notes)


def test_returns_of_lambda_one_are_the_money_made_and_smaller_ones_bootstrap_on_the_players_value():
    done, notes = noted_hand(11)
    made = made_from(done)
    seats = [seat for seat, *_ in notes]
    assert sorted(set(seats)) == [0, 1] and all(seats.count(s) >= 2 for s in (0, 1))
    value = lambda x, worth: 100.0 + worth  # noqa: E731 — a value no money could be
    assert fit_boosted.returns(done, notes, value, 1.0) == targets(done, notes)
    assert fit_boosted.returns(done, notes, lambda x, worth: pytest.fail("valued at λ = 1"), 1.0) == targets(done, notes)  # weighed 0: not asked
    one_step = fit_boosted.returns(done, notes, value, 0.0)
    for i, (seat, drawn, x, worth) in enumerate(notes):
        later = [n for n in notes[i + 1 :] if n[0] == seat]
        if later:
            _, next_drawn, _, next_worth = later[0]
            expected = made(seat, drawn) - made(seat, next_drawn) + 100.0 + next_worth - worth
        else:
            expected = made(seat, drawn) - worth
        assert one_step[i] == (x, pytest.approx(expected))
    half = fit_boosted.returns(done, notes, value, 0.5)
    for seat in (0, 1):
        second_last = [i for i, n in enumerate(notes) if n[0] == seat][-2]  # one step from the end: the two returns' mean
        assert half[second_last][1] == pytest.approx((one_step[second_last][1] + targets(done, notes)[second_last][1]) / 2)


@pytest.mark.parametrize("boosted_player", [False, True])
def test_a_rounds_player_values_each_noted_discard_at_the_corrected_worth_it_chose_it_by(boosted_player):
    player = fit_boosted.BoostedRecorder(load_trees()) if boosted_player else fit_boosted.JudgeRecorder()
    checked = 0
    for view in list(own_turns(8))[:10]:
        player.notes.clear()
        action = player.act(view)
        chosen = player.judged(view, player.own_discards(view))
        if action.verb != "discard" or len(chosen) < 2:
            continue
        (_, _, x, worth), best = player.notes[0], chosen[0]
        assert (best[0].kind, best[0].liang_dao) == (action.kind, action.liang_dao)
        assert player.value(x, worth) == pytest.approx(best[1], abs=1e-9)
        checked += 1
    assert checked >= 3


def test_a_bootstrapping_fit_is_played_the_same_in_two_processes_kept_apart_and_named_in_its_command(monkeypatch, capsys):
    monkeypatch.setattr(fit_boosted, "CHUNK", 2)
    player = load_trees()
    bootstrapped = fit_boosted.samples(4, seed=3, jobs=2, player=player, lam=0.5)
    money = fit_boosted.samples(4, seed=3, player=player)
    assert bootstrapped == fit_boosted.samples(4, seed=3, player=player, lam=0.5)
    assert [x for x, _ in bootstrapped] == [x for x, _ in money] and bootstrapped != money  # the same discards, other targets
    assert fit_boosted.sample_file(Path("k"), 4, 3, player, lam=0.5) != fit_boosted.sample_file(Path("k"), 4, 3, player)
    monkeypatch.setattr(fit_boosted, "samples", lambda count, seed, jobs, player, rate, lam: [((0.0,) * len(NAMES), lam)] * count)
    monkeypatch.setattr(fit_boosted, "train", lambda rows, seed, max_trees: {"trees": [rows[0][1]], "held_out": {}, "checks": []})
    data = fit_boosted.fit([2, 3], seed=7, td=0.5)
    assert data["trees"] == [0.5] and data["meta"]["td"] == 0.5
    assert data["meta"]["command"] == "python -m kwx.bots.fit_boosted --hands 2 3 --seed 7 --td 0.5"
    assert "td" not in fit_boosted.fit([2], seed=7)["meta"]
    with pytest.raises(SystemExit):
        fit_boosted.main(["--hands", "2", "--td", "1.5"])
    assert "--td: 1.5 is not a λ from 0 up to 1" in capsys.readouterr().err


def test_a_fit_from_earlier_trees_plays_its_first_round_with_them_and_names_them(monkeypatch, tmp_path, capsys):
    earlier = Trees.from_json({"trees": [[X["liang_dao"], 0.5, -100.0, 100.0]]})
    players = []
    monkeypatch.setattr(fit_boosted, "samples", lambda count, seed, jobs, player, rate, lam: players.append(player) or [((0.0,) * len(NAMES), 1.0)] * count)
    monkeypatch.setattr(fit_boosted, "train", lambda rows, seed, max_trees: {"trees": [float(len(rows))], "held_out": {}, "checks": []})
    data = fit_boosted.fit([2, 3], seed=7, td=0.5, start=("earlier.json", earlier))
    assert players[0] == earlier and players[1] == Trees.from_json({"trees": [2.0]})  # round 1: round 0's own trees
    assert data["trees"] == [5.0]  # fitted on the new rounds' samples alone
    assert data["meta"]["command"] == "python -m kwx.bots.fit_boosted --hands 2 3 --seed 7 --td 0.5 --from-trees earlier.json"
    assert data["meta"]["from_trees"] == {"file": "earlier.json", "digest": fit_boosted.trees_digest(earlier)}
    assert fit_boosted.sample_file(Path("k"), 2, 7, earlier).name == f"samples-2-7-{fit_boosted.trees_digest(earlier)}.f64"
    assert fit_boosted.fit([2], seed=7, start=("my trees/a.json", earlier))["meta"]["command"].endswith("--from-trees 'my trees/a.json'")
    assert "from_trees" not in fit_boosted.fit([2], seed=7)["meta"] and players[-1] is None  # the judge, as shipped
    written = tmp_path / "earlier.json"
    written.write_text(json.dumps({"trees": earlier.trees}), encoding="utf-8")
    assert fit_boosted.main(["--hands", "2", "--seed", "7", "--from-trees", str(written), "--explore", "0.1", "--out", str(tmp_path / "out.json")]) == 0
    meta = json.loads((tmp_path / "out.json").read_text())["meta"]
    assert players[-1] == earlier and meta["command"].endswith(f"--from-trees {written}")  # the path as given: the command runs again
    assert meta["from_trees"] == {"file": str(written), "digest": fit_boosted.trees_digest(earlier)}
    (tmp_path / "bad.json").write_text("{}", encoding="utf-8")
    for wrong in (tmp_path / "bad.json", tmp_path / "missing.json"):
        with pytest.raises(SystemExit):
            fit_boosted.main(["--hands", "2", "--from-trees", str(wrong)])
        assert f"--from-trees: {wrong} is not a fit's file of trees" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rates", "says"),
    [(["0"], "1 rates for 2 rounds"), (["0", "1"], "round 1's rate 1 is not a chance"), (["0.1", "0"], "round 0 is played by the judge")],
)
def test_wrong_exploring_rates_are_refused_naming_the_round(rates, says, capsys):
    with pytest.raises(SystemExit):
        fit_boosted.main(["--hands", "2", "2", "--explore", *rates])
    assert says in capsys.readouterr().err


def test_a_cap_of_no_trees_is_refused_naming_the_option(capsys):
    with pytest.raises(SystemExit):
        fit_boosted.main(["--hands", "2", "--max-trees", "0"])
    assert "--max-trees: 0 is not a number of trees" in capsys.readouterr().err


def test_trees_cross_to_another_process_and_give_the_same_sums():
    trees = Trees.from_json({"trees": [[X["liang_dao"], 0.5, -1.0, 2.0], [0, 0.5, 0.25, [1, 1.5, 3.0, 4.0]]]})
    again = pickle.loads(pickle.dumps(trees))
    assert again == trees
    assert [again.predict(x) for x in ([0.0] * len(NAMES), [1.0] * len(NAMES))] == [trees.predict(x) for x in ([0.0] * len(NAMES), [1.0] * len(NAMES))] == [-0.75, 5.0]


def test_a_later_round_played_in_two_processes_plays_as_in_one(monkeypatch):
    monkeypatch.setattr(fit_boosted, "CHUNK", 2)  # two chunks: played in two processes, the trees sent to each
    player = Trees.from_json({"trees": [[X["liang_dao"], 0.5, -100.0, 100.0]]})
    assert fit_boosted.samples(4, seed=3, jobs=2, player=player) == fit_boosted.samples(4, seed=3, player=player)


def test_a_later_round_is_played_by_the_trees_of_the_round_before():
    declared = X["liang_dao"]
    always = Trees.from_json({"trees": [[declared, 0.5, -100.0, 100.0]]})  # 亮倒 worth 200 points more: declared whenever ready
    never = Trees.from_json({"trees": [[declared, 0.5, 100.0, -100.0]]})
    bold, shy = fit_boosted.samples(6, seed=3, player=always), fit_boosted.samples(6, seed=3, player=never)
    assert any(x[declared] == 1.0 for x, _ in bold)
    assert all(x[declared] == 0.0 for x, _ in shy)


def test_the_boosted_evaluator_ranks_the_strong_bots_ten_best_by_worth_plus_the_trees():
    bot = Boosted()
    assert bot.top == boosted.TOP == 10
    assert fit_boosted.BoostedRecorder(bot.trees).top == fit_boosted.PLAYER_TOP == 6  # the shipped rounds' players ranked six
    views = [v for v in own_turns(8) if len(scored(bot, v)[0]) > bot.top][:6]
    assert views
    for view in views:
        choices, results = scored(bot, view)
        judged = bot.judged(view, choices)
        assert len(judged) == bot.top
        assert [c for c, _ in judged] == sorted(choices[: bot.top], key=lambda c: (-(c.worth + bot.trees.predict(features(bot, view, c, results))), c.kind, c.liang_dao))
        assert all(w == pytest.approx(c.worth + bot.trees.predict(features(bot, view, c, results))) for c, w in judged)


@settings(max_examples=6)
@given(st.integers(0, 10**9))
def test_the_boosted_judge_plays_whole_hands_with_legal_choices(seed):
    assert policy_factory("boosted") is BoostedJudgeBot
    done = play(seeded_deal(seed, seed % 3), [BoostedJudgeBot(), CompanionBot(), BoostedJudgeBot()])
    assert done.final.is_over

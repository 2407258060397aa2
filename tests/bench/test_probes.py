import pytest

from bench.probes import SHIFTS, OtherTrees, Probe, ProbeEvaluator, other_trees, parse
from kwx.bots import boosted
from kwx.bots.boosted import NAMES, load_trees
from kwx.bots.companion import CompanionBot
from kwx.bots.judge import BoostedJudgeBot
from kwx.bots.registry import policy_factory
from kwx.bots.strong import load_figures
from kwx.table.selfplay import play, seeded_deal


def test_a_probe_names_its_shifts_and_leaves_the_others_as_shipped():
    assert parse("") == SHIFTS
    assert parse("declare=-1.5, kong=1") == {**SHIFTS, "declare": -1.5, "kong": 1.0}


def test_the_figures_of_hidden_opponents_are_scaled_and_unshifted_as_shipped():
    shipped = load_figures()
    same = ProbeEvaluator(SHIFTS).figures
    assert (same.ready, same.reveal, same.throw) == (shipped.ready, shipped.reveal, shipped.throw)
    shifted = ProbeEvaluator(parse("ready=0, reveal=5, throw_hidden=2")).figures
    assert all(x == 0.0 for row in shifted.ready for x in row)
    assert shifted.reveal[4][0] == min(1.0, 5 * shipped.reveal[4][0]) and max(x for row in shifted.reveal for x in row) == 1.0
    assert shifted.throw == {k: v * (2 if k.startswith("hidden") else 1) for k, v in shipped.throw.items()}


@pytest.mark.parametrize(("text", "says"), [("declare", "'declare' is not name=value"), ("tree=2", "'tree=2' is not name=value"), ("pong=much", "'much' is not a number")])
def test_a_wrong_probe_says_which_pair(text, says):
    with pytest.raises(ValueError, match=says):
        parse(text)


def test_a_probe_is_a_seat_of_the_tournament_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("KWX_PROBE", "pong=0.5")
    bot = policy_factory("bench.probes:Probe")()
    assert isinstance(bot, Probe) and isinstance(bot.evaluator, ProbeEvaluator)
    assert bot.evaluator.shifts["pong"] == 0.5


def test_unshifted_it_plays_as_the_boosted_bot_and_shifted_it_plays_otherwise(monkeypatch):
    monkeypatch.delenv("KWX_PROBE", raising=False)
    shipped = [play(seeded_deal(s, s % 3), [BoostedJudgeBot(), CompanionBot(), BoostedJudgeBot()]).record for s in range(3)]
    assert [play(seeded_deal(s, s % 3), [Probe(), CompanionBot(), Probe()]).record for s in range(3)] == shipped
    assert any(a.liang_dao and a.seat != 1 for r in shipped for a in r.actions)
    monkeypatch.setenv("KWX_PROBE", "declare=-20")  # 亮倒 never worth it
    shifted = [play(seeded_deal(s, s % 3), [Probe(), CompanionBot(), Probe()]).record for s in range(3)]
    assert not any(a.liang_dao and a.seat != 1 for r in shifted for a in r.actions)


def test_other_trees_with_the_shipped_file_plays_as_the_boosted_bot(monkeypatch):
    monkeypatch.setenv("KWX_TREES", str(boosted.DATA))
    bot = policy_factory("bench.probes:OtherTrees")()
    assert isinstance(bot, OtherTrees) and bot.evaluator.trees == load_trees()
    shipped = [play(seeded_deal(s, s % 3), [BoostedJudgeBot(), CompanionBot(), BoostedJudgeBot()]).record for s in range(2)]
    assert [play(seeded_deal(s, s % 3), [OtherTrees(), CompanionBot(), OtherTrees()]).record for s in range(2)] == shipped


def test_several_fits_are_averaged(tmp_path, monkeypatch):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text('{"trees": [[0, 0.5, -1.0, 3.0]]}')
    two.write_text('{"trees": [[1, 0.5, 2.0, [0, 0.5, 4.0, 6.0]], 1.0]}')
    monkeypatch.setenv("KWX_TREES", f"{one}+{two}")
    evaluator = OtherTrees().evaluator
    assert isinstance(evaluator, ProbeEvaluator)
    averaged = [evaluator.shifts["trees"] * evaluator.trees.predict(x) for x in ([0.0] * len(NAMES), [1.0] * len(NAMES))]
    assert averaged == [(-1.0 + 2.0 + 1.0) / 2, (3.0 + 6.0 + 1.0) / 2]


def test_other_trees_says_which_file_is_missing(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="'nowhere.json' is not a file"):
        other_trees((str(boosted.DATA), "nowhere.json"))
    monkeypatch.delenv("KWX_TREES", raising=False)
    with pytest.raises(ValueError, match="KWX_TREES: name a fit's file"):
        OtherTrees()

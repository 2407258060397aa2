"""`manage.py tournament`: the printed figures, the records it writes, determinism for a seed."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from kwx.table.record import replay


def tournament(*args: str) -> list[str]:
    out = StringIO()
    call_command("tournament", *args, stdout=out)
    return out.getvalue().splitlines()


def test_prints_the_figures_per_bot_and_the_margin(tmp_path):
    path = tmp_path / "hands.jsonl"
    lines = tournament("--hands", "6", "--seed", "4", "--seats", "strong,basic,basic", "--records", str(path))
    assert lines[0].startswith("tournament: 6 hands on 2 walls") and "seats strong,basic,basic" in lines[0]
    assert lines[1].split() == ["bot", "seat-hands", "points/hand", "95", "%", "interval", "win", "deal-in", "亮倒"]
    assert lines[2].split()[:2] == ["strong", "6"] and lines[3].split()[:2] == ["basic", "12"]
    assert lines[4].startswith("margin strong − basic: ") and "95 % interval [" in lines[4]
    assert lines[5].startswith("results: self_draw ")
    assert lines[-1].startswith("speed: ") and "hands per CPU second" in lines[-1]
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 6 and all(r["format"] == "kwx-hand/1" for r in records)
    assert sorted(r["players"].index("0:strong") for r in records[:3]) == [0, 1, 2]
    nets = [replay(r).settlement.nets for r in records]
    strong = sum(n[r["players"].index("0:strong")] for n, r in zip(nets, records)) / 6
    assert f"{strong:+.3f}" == lines[2].split()[2]


def test_the_same_seed_prints_the_same_figures():
    first = tournament("--hands", "3", "--seed", "9", "--seats", "basic,strong,basic")
    second = tournament("--hands", "3", "--seed", "9", "--seats", "basic,strong,basic", "--jobs", "2")
    assert first[:-1] == second[:-1]


@pytest.mark.parametrize("args", [["--seats", "strong,basic"], ["--seats", "strong,basic,nobody"], ["--hands", "0"], ["--jobs", "0"]])
def test_bad_arguments_are_named(args):
    with pytest.raises(CommandError) as err:
        tournament(*args)
    assert args[0] in str(err.value)


def test_the_advice_bot_prints_its_decisions_and_plays_the_same_for_a_seed():
    first = tournament("--hands", "3", "--seed", "9", "--seats", "advice,strong,strong")
    second = tournament("--hands", "3", "--seed", "9", "--seats", "advice,strong,strong", "--jobs", "2")
    decisions = [line for line in first if line.startswith("advice decisions: ")]
    assert len(decisions) == 1 and "CPU per decision median " in decisions[0] and " p95 " in decisions[0]
    # everything but the CPU times is fixed by the seed: the figures, the decisions and their kinds
    assert first[:-2] == second[:-2]
    assert decisions[0].split("; CPU")[0] == second[-2].split("; CPU")[0]


def test_a_bot_from_outside_takes_a_seat_by_its_dotted_path():
    lines = tournament("--hands", "6", "--seed", "3", "--seats", "tests.outside_bot:FirstChoice,strong,strong")
    assert "seats tests.outside_bot:FirstChoice,strong,strong" in lines[0]
    outside = next(line for line in lines if line.startswith("tests.outside_bot:FirstChoice"))
    assert outside.split()[1] == "6"
    assert any(line.startswith("strong ") and line.split()[1] == "12" for line in lines)


@pytest.mark.parametrize(
    ("seat", "says"),
    [
        ("tests.no_such_module:Bot", "cannot import 'tests.no_such_module'"),
        ("tests.outside_bot:Missing", "has no class 'Missing'"),
        ("tests.outside_bot", "is not a bot"),
        ("tests.outside_bot:NoPolicy", "act(view) and claim(view)"),
    ],
)
def test_a_bad_dotted_path_is_a_clear_error(seat, says):
    with pytest.raises(CommandError) as err:
        tournament("--hands", "3", "--seats", f"{seat},strong,strong")
    assert str(err.value).startswith("--seats: ") and says in str(err.value)


@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("Cheater", "tests.outside_bot:Cheater in seat 0: seat 0 chose {'seat': 0, 'win': "),
        ("Crashing", "tests.outside_bot:Crashing in seat 0 raised KeyError: 'no such tile' (in act)"),
    ],
)
def test_an_outside_bot_that_breaks_the_rules_or_raises_is_named_with_its_hand(bot, says):
    with pytest.raises(CommandError) as err:
        tournament("--hands", "3", "--seed", "3", "--seats", f"tests.outside_bot:{bot},strong,strong")
    message = str(err.value)
    assert message.startswith("--seats: hand 0 (wall seed 3000009, dealer 0): ") and says in message


def test_paired_mode_plays_the_same_walls_and_prints_the_gain_per_wall():
    lines = tournament("--hands", "6", "--seed", "4", "--seats", "companion,strong,strong", "--paired", "basic")
    assert lines[0].startswith("run 1 of 2 — tournament: 6 hands on 2 walls") and "seats companion,strong,strong" in lines[0]
    second = next(i for i, line in enumerate(lines) if line.startswith("run 2 of 2 — "))
    assert "seats basic,strong,strong" in lines[second]
    paired = lines[-1]
    assert paired.startswith("paired: companion − basic in the same seat on the same walls: ") and "(2 walls, each from every seat)" in paired
    with pytest.raises(CommandError) as err:
        tournament("--hands", "3", "--seats", "strong,basic,basic", "--paired", "nobody")
    assert str(err.value).startswith("--paired: ")


def test_endings_print_the_first_bots_hands_by_how_they_ended():
    lines = tournament("--hands", "6", "--seed", "4", "--seats", "strong,basic,basic", "--endings")
    points = lines[2].split()[2]
    start = next(i for i, line in enumerate(lines) if line.startswith("strong (seat-hands 6) by how the hand ended for it"))
    rows = lines[start + 1 :]
    assert rows[-1].split()[:4] == ["all", "100.0", "%", points]  # the endings add up to the bot's points per hand
    assert len(rows) >= 3 and sum(float(r.split()[-4]) for r in rows[:-1]) == pytest.approx(100.0, abs=0.3)  # every seat-hand in one row

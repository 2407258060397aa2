"""The strong bot's table figures fitted on self-play (kwx/bots/fit.py)."""

from __future__ import annotations

import json

from kwx.bots import fit


def test_the_figures_do_not_depend_on_the_jobs(monkeypatch):
    monkeypatch.setattr(fit, "CHUNK", 3)
    one = fit.fit(7, 11, rounds=1, jobs=1)
    two = fit.fit(7, 11, rounds=1, jobs=2)
    assert one == two
    assert one["meta"]["command"] == "python -m kwx.bots.fit --hands 7 --seed 11 --rounds 1"


def test_the_shipped_figures_hold_every_table_the_fit_makes_and_say_how_they_were_made():
    shipped = json.loads(fit.PATH.read_text(encoding="utf-8"))
    made = fit.fit(3, 11, rounds=1)
    assert set(shipped) == set(made)
    assert shipped["meta"]["command"] == f"python -m kwx.bots.fit --hands {shipped['meta']['hands']} --seed {shipped['meta']['seed']} --rounds {shipped['meta']['rounds']}"

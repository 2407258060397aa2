"""Re-checking a table drill on fresh worlds (issue 24 item 6): does its answer set hold on worlds it was not selected on?

A drill of the bank was selected by sequential looks at one set of worlds (``table_drills.verify``),
and the figures it shows are those same looks'. Here its stored choices (the record's ``choices``,
in the order it played them) are played out on a second, independent set of worlds by a rollout
policy (the fitted strong bot, the judge's rollout policy, by default). A choice is accepted
unless it is clearly worse than the best on these worlds (the one margin rule's ``CONFIRM``: 3
paired standard errors and 0.25 base stakes); the drill *holds* when that set is the set it
accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kwx.bots.strong import StrongBot
from kwx.drills.record import TableDrill, answer_of
from kwx.drills.table_drills import RULE, MarginRule, clearly_worse
from kwx.numbers import seed_of
from kwx.table.advice import mean_se, paired, played_worlds
from kwx.table.selfplay import Policy
from kwx.table.table import Action
from kwx.table.view import SeatView


@dataclass(frozen=True, slots=True)
class Recheck:
    """One drill on fresh worlds: its choices, each choice's results world by world, the answers accepted there and the ones the bank accepts."""

    key: str
    kind: str
    choices: tuple[Action | None, ...]
    answers: tuple[str, ...]
    results: tuple[tuple[float, ...], ...]
    accepted: frozenset[str]
    shown: frozenset[str]
    margin_shown: float

    @property
    def holds(self) -> bool:
        """Whether the fresh worlds accept exactly the answers the bank accepts."""
        return self.accepted == self.shown

    @property
    def hidden_declaration(self) -> bool:
        """Whether a choice the page names as a plain call or "no kong" also declares 亮倒 (a 杠不杠 drill's discard that declares)."""
        return self.kind == "kong" and any(c is not None and c.verb == "discard" and c.liang_dao for c in self.choices)

    def margin(self) -> tuple[float, float]:
        """The best choice minus the best clearly worse one (else the second best) on the fresh worlds: mean and paired standard error."""
        means = [mean_se(r)[0] for r in self.results]
        order = sorted(range(len(means)), key=lambda i: (-means[i], i))
        worse = clearly_worse(self.results)
        second = next((i for i in order if i in worse), order[1])
        return paired(self.results[order[0]], self.results[second])


def world_seed(key: str, seed: int) -> int:
    """The fresh worlds' seed of drill ``key`` in a re-check seeded ``seed`` (never the drill's own: another hash)."""
    return seed_of("kwx-recheck", seed, key)


def choices_of(record: TableDrill) -> tuple[SeatView, tuple[Action | None, ...]]:
    """The stored view of a bank record and the choices its drill played out, in the order it played them."""
    view, choices = record.table, record.choices
    legal = view.decision.choices
    if any(c not in legal for c in choices):
        raise ValueError(f"{record.key}: its view no longer offers the choices it stores")
    return view, choices


def play_out(view: SeatView, choices: Sequence[Action | None], worlds: int, seed: int, policy: Callable[[], Policy] = StrongBot) -> tuple[tuple[float, ...], ...]:
    """Each choice's net money on ``worlds`` worlds drawn from ``seed`` (the same worlds for every choice), every seat then played by ``policy``."""
    bots = (policy(), policy(), policy())
    results: list[list[float]] = [[] for _ in choices]
    for n, (played, _predicted, _steps) in enumerate(played_worlds(view, choices, seed, lambda: bots), 1):
        for i, value in enumerate(played):
            results[i].append(round(value, 6))
        if n == worlds:
            break
    return tuple(tuple(r) for r in results)


def recheck(record: TableDrill, worlds: int, seed: int, policy: Callable[[], Policy] = StrongBot, rule: MarginRule = RULE) -> Recheck:
    """Play the drill's choices out on ``worlds`` fresh worlds (the same worlds for every choice) and compare the answers accepted there with the bank's."""
    view, choices = choices_of(record)
    kind = record.kind
    frozen = play_out(view, choices, worlds, world_seed(record.key, seed), policy)
    worse = clearly_worse(frozen, rule)
    dangerous = record.dangerous() if kind == "defence" else frozenset()
    answers = tuple(answer_of(c, kind) for c in choices)
    accepted = frozenset(answers[i] for i in range(len(choices)) if i not in worse and i not in dangerous)
    return Recheck(record.key, kind, choices, answers, frozen, accepted, frozenset(record.accepted), float(record.margin.diff))


def summary_lines(checks: Sequence[Recheck]) -> list[str]:
    """Per kind: drills re-checked, how many hold, the mean margin shown against the mean on fresh worlds, and the 杠不杠 drills whose "no kong" declares 亮倒."""
    lines = []
    for kind in sorted({c.kind for c in checks}):
        mine = [c for c in checks if c.kind == kind]
        fresh = [c.margin()[0] for c in mine]
        lines.append(
            f"{kind}: {len(mine)} drills, {sum(c.holds for c in mine)} keep their answer set on fresh worlds; "
            f"margin shown {sum(c.margin_shown for c in mine) / len(mine):.2f} on average, fresh {sum(fresh) / len(fresh):.2f}"
            + (f"; {sum(c.hidden_declaration for c in mine)} whose no-kong discard declares 亮倒" if kind == "kong" else "")
        )
    return lines

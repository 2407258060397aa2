"""Confirming a table drill on a second, independent set of worlds (issue 24 item 6; docs/drills.md).

A drill is *selected* by sequential looks at one set of worlds (``table_drills.verify``): the
looks that chose it are also the luckiest, so their figures overstate its margin. Every figure a
drill shows is taken instead from a second set of :data:`CONFIRM_WORLDS` worlds, drawn from its
own seed (:func:`confirm_seed`) and played out by a rollout policy: a choice is right unless it
is clearly worse than the best there (the bank's margin rule),
and the position stays a drill only when those worlds keep it by the rule that selected it —
the best beats every other choice clearly (defence: it is safe, and every tile that deals into a
revealed hand and at least one safe tile are clearly worse; a sharp defence drill has at most
two safe tiles right; a 杠不杠 refusal drill's best is not the kong). Otherwise the drill leaves
the bank.

A drill is confirmed in turn by each policy of :data:`CHAIN`: first by the fitted strong bot
(what the bank was confirmed by first), then by the judge, then by the boosted bot (the
strongest, the review's policy), each on its own set of worlds of its own seed. It stays only
when every one keeps it; the figures it shows, and the line a pong's row shows, are the last's.

Confirming a confirmed record gives it back unchanged (its choices are stored in it, its worlds
come from its key), so the shipped bank can be re-checked at any time.

A re-check (issue 24 item 6; ``manage.py recheck_table_drills``) is a confirmation that writes
nothing: the same :func:`check` of the stored choices, on fresh worlds of another seed
(:func:`world_seed`) and by any rollout policy (the fitted strong bot by default); the drill
*holds* when those worlds accept the answer set the bank accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kwx.bots.registry import policy_factory
from kwx.bots.strong import StrongBot
from kwx.drills.record import AnswerRow, Figures, TableDrill, answer_of
from kwx.drills.table_drills import CHAIN, LEAVES, POLICY, RULE, MarginRule, clearly_worse, decide, figures, rating_of, refuses, select, sharp
from kwx.numbers import seed_of
from kwx.table.advice import mean_se, paired, played_worlds
from kwx.table.selfplay import Policy
from kwx.table.table import Action
from kwx.table.view import SeatView

CONFIRM_WORLDS = 256
"""Worlds of the confirming set, every choice played on each."""


def confirm_seed(key: str, policy: str = "strong") -> int:
    """The seed of drill ``key``'s confirming worlds for ``policy``.

    A hash of the key and the policy: independent of the deal seed that selected it.
    """
    return seed_of("kwx-confirm", key) if policy == "strong" else seed_of("kwx-confirm", policy, key)


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
    """Each choice's net money on ``worlds`` worlds drawn from ``seed``, every seat then played by ``policy``.

    The same worlds for every choice.
    """
    bots = (policy(), policy(), policy())
    results: list[list[float]] = [[] for _ in choices]
    for n, (played, _predicted, _steps) in enumerate(played_worlds(view, choices, seed, lambda: bots), 1):
        for i, value in enumerate(played):
            results[i].append(round(value, 6))
        if n == worlds:
            break
    return tuple(tuple(r) for r in results)


@dataclass(frozen=True, slots=True)
class Check:
    """One drill on a set of worlds: its choices, their results world by world and the answers accepted there.

    ``shown`` are the answers the bank accepts, ``margin_shown`` its margin; ``worse`` and ``dangerous`` are the indices of the choices clearly worse than the best there and of those that deal in.
    """

    key: str
    kind: str
    choices: tuple[Action | None, ...]
    answers: tuple[str, ...]
    results: tuple[tuple[float, ...], ...]
    accepted: frozenset[str]
    shown: frozenset[str]
    margin_shown: float
    worse: frozenset[int] = frozenset()
    dangerous: frozenset[int] = frozenset()

    @property
    def holds(self) -> bool:
        """Whether the worlds accept exactly the answers the bank accepts."""
        return self.accepted == self.shown

    @property
    def hidden_declaration(self) -> bool:
        """Whether a choice the page names as a plain call or "no kong" also declares 亮倒 (a 杠不杠 drill's discard that declares)."""
        return self.kind == "kong" and any(c is not None and c.verb == "discard" and c.liang_dao for c in self.choices)

    def margin(self) -> tuple[float, float]:
        """The best choice minus the best clearly worse one (else the second best) on these worlds: mean and paired standard error."""
        means = [mean_se(r)[0] for r in self.results]
        order = sorted(range(len(means)), key=lambda i: (-means[i], i))
        worse = clearly_worse(self.results)
        second = next((i for i in order if i in worse), order[1])
        return paired(self.results[order[0]], self.results[second])


def check(record: TableDrill, worlds: int, seed: int, policy: Callable[[], Policy], rule: MarginRule = RULE) -> Check:
    """The drill's stored choices played out on worlds from ``seed``, and the answers they accept (confirm and recheck both)."""
    view, choices = choices_of(record)
    kind = record.kind
    results = play_out(view, choices, worlds, seed, policy)
    worse = clearly_worse(results, rule)
    dangerous = record.dangerous() if kind == "defence" else frozenset()
    answers = tuple(answer_of(c, kind) for c in choices)
    accepted = frozenset(answers[i] for i in range(len(choices)) if i not in worse and i not in dangerous)
    return Check(record.key, kind, choices, answers, results, accepted, frozenset(record.accepted), float(record.margin.diff), worse, dangerous)


def recheck(record: TableDrill, worlds: int, seed: int, policy: Callable[[], Policy] = StrongBot, rule: MarginRule = RULE) -> Check:
    """The drill checked on ``worlds`` fresh worlds of re-check seed ``seed``: a confirmation that writes nothing."""
    return check(record, worlds, world_seed(record.key, seed), policy, rule)


def summary_lines(checks: Sequence[Check]) -> list[str]:
    """Per kind: drills re-checked, how many hold, the margin shown against fresh worlds' and the 亮倒 count.

    The last is the 杠不杠 drills whose "no kong" declares 亮倒.
    """
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


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A drill after confirmation: its record, the answers it had before and those the confirming worlds accept.

    ``record`` is None when the drill leaves the bank.
    """

    key: str
    kind: str
    record: TableDrill | None
    before: frozenset[str]
    accepted: frozenset[str]

    @property
    def status(self) -> str:
        """``holds`` (same answers), ``re-answered`` (other answers) or ``retired`` (no clear decision when confirmed)."""
        if self.record is None:
            return "retired"
        return "holds" if self.accepted == self.before else "re-answered"


def pong_row(record: TableDrill, row: AnswerRow, pong: Action, policy: str = POLICY) -> AnswerRow:
    """A pong's row showing what the pong leaves after ``policy``'s own discard; nothing another bot's line left is kept."""
    kept = {k: v for k, v in row.to_json().items() if k not in LEAVES}
    return AnswerRow.from_json({**kept, **figures(record.table, pong, policy)})


def confirm(record: TableDrill, worlds: int = CONFIRM_WORLDS, policy: str = POLICY, rule: MarginRule = RULE) -> Confirmed:
    """The drill with every figure from ``policy``'s confirming worlds, or retired when they keep no clear answer.

    Its position, choices and explanations are unchanged, but for what a pong leaves: the hand after
    ``policy``'s own discard.
    """
    kind, key = record.kind, record.key
    margin = record.margin
    selection = record.selection or Figures(margin.diff, margin.se, margin.worlds, margin.rollouts, accepted=record.accepted)
    checked = check(record, worlds, confirm_seed(key, policy), policy_factory(policy), rule)
    choices, answers, results, worse, dangerous, accepted = checked.choices, checked.answers, checked.results, checked.worse, checked.dangerous, checked.accepted
    means = [mean_se(r) for r in results]
    order = sorted(range(len(choices)), key=lambda i: (-means[i][0], i))
    right = [i for i in order if i not in worse and i not in dangerous]
    index = record.source.index
    top = choices[order[0]]
    refused = refuses(kind, index) and top is not None and top.verb == "kong"  # a refusal drill whose best is the kong
    one_look = replace(rule, min_worlds=worlds, max_worlds=worlds)  # the selection's rule, at a single look at the end
    if refused or decide([list(r) for r in results], dangerous, one_look, sharp(kind, index)) is not True:
        return Confirmed(key, kind, None, checked.shown, accepted)
    rows = {o.answer: o for o in record.options}
    options = []
    for i in order:
        mean, se = means[i]
        row, choice = rows[answers[i]], choices[i]
        if choice is not None and choice.verb == "pong":
            row = pong_row(record, row, choice, policy)
        options.append(replace(row, mean=round(mean, 3), se=round(se, 3), right=i in right))
    second = next(i for i in order if i in worse)
    diff, diff_se = paired(results[order[0]], results[second])
    confirmed = replace(
        record,
        accepted=tuple(answers[i] for i in right),
        options=tuple(options),
        margin=Figures(round(diff, 3), round(diff_se, 3), worlds, worlds * len(choices), rule.sigmas, rule.money, policy),
        selection=selection,
        rating=rating_of(diff, diff_se, len(record.melds)),
    )
    return Confirmed(key, kind, confirmed, checked.shown, accepted)


def build(kind: str, index: int, rule: MarginRule = RULE) -> TableDrill | None:
    """The bank record of drill ``index`` of ``kind`` (None: no drill at this index).

    Selected on one set of worlds, then confirmed by each policy of CHAIN on its own.
    """
    record = select(kind, index, rule)
    for policy in CHAIN:
        record = None if record is None else confirm(record, policy=policy, rule=rule).record
    return record

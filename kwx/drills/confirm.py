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
(what the bank was confirmed by first), then by the judge, on a third set of worlds of the
judge's own seed. It stays only when every one keeps it; the figures it shows are the last's.

Confirming a confirmed record gives it back unchanged (its choices are stored in it, its worlds
come from its key), so the shipped bank can be re-checked at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kwx.bots.registry import policy_factory
from kwx.drills.recheck import choices_of, play_out
from kwx.drills.record import Figures, TableDrill, answer_of
from kwx.drills.table_drills import RULE, MarginRule, clearly_worse, decide, rating_of, refuses, select, sharp
from kwx.numbers import seed_of
from kwx.table.advice import mean_se, paired

CONFIRM_WORLDS = 256
"""Worlds of the confirming set, every choice played on each."""
CHAIN = ("strong", "judge")
"""The policies (bot names of ``kwx.bots.registry``) that confirm a drill, in turn, each on its own worlds."""
POLICY = CHAIN[-1]
"""The policy whose confirming worlds give every figure a drill shows."""


def confirm_seed(key: str, policy: str = "strong") -> int:
    """The seed of drill ``key``'s confirming worlds for ``policy`` (a hash of the key and the policy: independent of the deal seed that selected it)."""
    return seed_of("kwx-confirm", key) if policy == "strong" else seed_of("kwx-confirm", policy, key)


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A drill after confirmation: its record (None when it leaves the bank), the answers it had before and the ones the confirming worlds accept."""

    key: str
    kind: str
    record: TableDrill | None
    before: frozenset[str]
    accepted: frozenset[str]

    @property
    def status(self) -> str:
        """``holds`` (same answers), ``re-answered`` (still a drill, other answers) or ``retired`` (no clear decision on the confirming worlds)."""
        if self.record is None:
            return "retired"
        return "holds" if self.accepted == self.before else "re-answered"


def confirm(record: TableDrill, worlds: int = CONFIRM_WORLDS, policy: str = POLICY, rule: MarginRule = RULE) -> Confirmed:
    """The drill with every figure from ``policy``'s confirming worlds (its position, choices and explanations unchanged), or retired when they keep no clear answer."""
    view, choices = choices_of(record)
    kind, key = record.kind, record.key
    margin = record.margin
    selection = record.selection or Figures(margin.diff, margin.se, margin.worlds, margin.rollouts, accepted=record.accepted)
    results = play_out(view, choices, worlds, confirm_seed(key, policy), policy_factory(policy))
    means = [mean_se(r) for r in results]
    order = sorted(range(len(choices)), key=lambda i: (-means[i][0], i))
    worse = clearly_worse(results, rule)
    dangerous = record.dangerous() if kind == "defence" else frozenset()
    answers = [answer_of(c, kind) for c in choices]
    right = [i for i in order if i not in worse and i not in dangerous]
    accepted = frozenset(answers[i] for i in right)
    index = record.source.index
    top = choices[order[0]]
    refused = refuses(kind, index) and top is not None and top.verb == "kong"  # a refusal drill whose best is the kong
    one_look = replace(rule, min_worlds=worlds, max_worlds=worlds)  # the selection's rule, at a single look at the end
    if refused or decide([list(r) for r in results], dangerous, one_look, sharp(kind, index)) is not True:
        return Confirmed(key, kind, None, frozenset(record.accepted), accepted)
    rows = {o.answer: o for o in record.options}
    options = []
    for i in order:
        mean, se = means[i]
        options.append(replace(rows[answers[i]], mean=round(mean, 3), se=round(se, 3), right=i in right))
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
    return Confirmed(key, kind, confirmed, frozenset(record.accepted), accepted)


def build(kind: str, index: int, rule: MarginRule = RULE) -> TableDrill | None:
    """The bank record of drill ``index`` of ``kind``: selected on one set of worlds, then confirmed by each policy of CHAIN on its own (None: no drill at this index)."""
    record = select(kind, index, rule)
    for policy in CHAIN:
        record = None if record is None else confirm(record, policy=policy, rule=rule).record
    return record

"""analyze(): the one entry point the API, the pages, the commands and the drills call."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, NamedTuple

from kwx.errors import EngineError, gettext_noop
from kwx.hand import ev_analysis
from kwx.hand.efficiency import DiscardOption, Efficiency, best_discards, discard_options, efficiency
from kwx.hand.estimate import Estimate
from kwx.hand.ev import Budget, DiscardEV, ev_best
from kwx.hand.notation import format_counts, format_hand, parse_hand, parse_tile, parse_tiles
from kwx.hand.rules import MAX_MELDS, OPTION_KEYS, Rules, make_rules, validate_hand
from kwx.hand.serial import estimate_json, option_json, remaining_entries, ukeire_json, wait_json
from kwx.hand.shapes import is_complete
from kwx.hand.shapes import shanten as counts_shanten
from kwx.hand.tiles import TILE_IDS, Counts, Hand, Meld, MeldType, add

MAX_TEXT = 200
"""Longest hand or visible-tiles text accepted (a full hand in Chinese fits easily)."""


def check_text(value: Any, field: str, required: bool = True, limit: int = MAX_TEXT) -> str:
    """A hand or tiles text field, refused (EngineError naming ``field``) when not text or over ``limit`` characters."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise EngineError(gettext_noop("Must be text such as 4556p123s789sZZZ."), field)
    if len(value) > limit:
        raise EngineError(
            gettext_noop("Too long: %(length)d characters, at most %(limit)d."),
            field,
            length=len(value),
            limit=limit,
        )
    return value


def parse_melds(melds: Any) -> tuple[Meld, ...]:
    """Melds given as ``[{"type": "pong", "tile": "5p"}, ...]`` (or Meld values)."""
    if melds is None:
        return ()
    if not isinstance(melds, (list, tuple)):
        raise EngineError(gettext_noop('The melds must be a list like [{"type": "pong", "tile": "5p"}].'), "melds")
    out: list[Meld] = []
    for i, item in enumerate(melds):
        if isinstance(item, Meld):
            out.append(item)
            continue
        if not isinstance(item, dict):
            raise EngineError(gettext_noop("Meld %(number)d must be an object with a type and a tile."), "melds", number=i + 1)
        meld_type = item.get("type")
        if not isinstance(meld_type, str) or meld_type not in {t.value for t in MeldType}:
            raise EngineError(
                gettext_noop('Meld %(number)d has unknown type "%(value)s": use pong, kong or concealed_kong.'),
                "melds",
                number=i + 1,
                value=str(meld_type)[:40],
            )
        tile = item.get("tile")
        if not isinstance(tile, str) or len(tile) > 10:
            raise EngineError(gettext_noop("Meld %(number)d needs a tile such as 5p."), "melds", number=i + 1)
        out.append(Meld(MeldType(meld_type), parse_tile(tile, "melds")))
    if len(out) > MAX_MELDS:
        raise EngineError(gettext_noop("A hand has at most 4 melds."), "melds")
    return tuple(out)


def build_hand(hand: Any, melds: Any = (), visible: Any = "", check_size: bool = True) -> tuple[Hand, Counts]:
    """Parse and check a hand, its melds and the visible tiles (raises EngineError); ``check_size``: 13 or 14 tiles."""
    parsed = parse_hand(check_text(hand, "hand"), "hand")
    extra = parse_melds(melds) if melds != () else ()
    full = Hand(parsed.concealed, parsed.melds + extra) if extra else parsed
    seen = parse_tiles(check_text(visible, "visible", False), "visible")
    validate_hand(full, seen, check_size)
    return full, seen


class Analysis(NamedTuple):
    """Everything the engine says about one 13- or 14-tile hand, decided once; ``to_json`` gives the API body.

    ``seen`` counts the visible tiles, revealed hands' tiles included. A 13-tile hand
    has ``result`` (shanten, effective tiles, waits with both sides) and, with EV,
    ``estimate``; a 14-tile hand has ``options`` in the answer's order (deal-ins last;
    with EV the EV ranking); ``best`` (the plain best among the discards that do not
    deal in) and ``ev_best`` (``ev.ev_best``) are read from them. ``danger`` holds the kinds that deal in
    to each revealed hand, () when none was given; ``draws_left`` and ``ev_complete``
    are None without EV. A NamedTuple: immutable, and built at tuple speed on the API's path.
    """

    hand: Hand
    seen: Counts
    rules: Rules
    shanten: int
    result: Efficiency | None = None
    options: tuple[DiscardOption, ...] = ()
    danger: tuple[frozenset[int], ...] = ()
    estimate: Estimate | None = None
    draws_left: int | None = None
    ev_complete: bool | None = None

    @property
    def tile_count(self) -> int:
        """13 or 14 (each meld counting 3)."""
        return self.hand.tile_count

    @property
    def dealing_in(self) -> frozenset[int]:
        """The kinds that deal in to any revealed hand."""
        return frozenset().union(*self.danger)

    @property
    def best(self) -> tuple[int, ...]:
        """The discards tied best by the plain ranking (``best_discards``) among those that do not deal in."""
        return best_discards(tuple(sorted((o for o in self.options if not o.deals_in), key=lambda o: o.rank_key)))

    @property
    def ev_best(self) -> tuple[int, ...]:
        """The discards tied first in the EV ranking (``ev.ev_best``); () without EV figures."""
        ranking = tuple(DiscardEV(o.discard, o.estimate, bool(o.deals_in)) for o in self.options if o.estimate is not None)
        return ev_best(ranking)

    @property
    def revealed(self) -> bool:
        """Whether revealed (亮倒) hands were given (then every option says whether it deals in)."""
        return bool(self.danger)

    def option(self, kind: int) -> DiscardOption | None:
        """The option that discards ``kind`` (None when the hand holds none)."""
        return next((o for o in self.options if o.discard == kind), None)


def _thirteen(full: Hand, seen: Counts, rules: Rules) -> Efficiency:
    return efficiency(full, add(full.held, seen) if any(seen) else full.held, rules)


def analyze_hand(
    full: Hand,
    seen: Counts,
    rules: Rules,
    *,
    revealed: tuple[Hand, ...] = (),
    ev: ev_analysis.EVRequest | None = None,
    budget: Budget | None = None,
) -> Analysis:
    """The analysis of a checked hand (``build_hand``): ``seen`` already holds the revealed hands' tiles.

    ``revealed`` (checked 亮倒 hands) marks the discards that deal in; ``ev`` adds the
    expected-value figures, worked out within ``budget`` (a fresh request limit when
    none is given).
    """
    if ev is None and not revealed and full.tile_count == 13:  # the common request, kept short
        result = efficiency(full, add(full.held, seen) if any(seen) else full.held, rules)
        return Analysis(full, seen, rules, result.shanten, result)
    danger = ev_analysis.danger_of(revealed, rules) if revealed else ()
    unsafe: frozenset[int] = frozenset().union(*danger)
    work = (budget if budget is not None else ev_analysis.new_budget()) if ev is not None else None
    if full.tile_count == 13:
        result = _thirteen(full, seen, rules)
        if ev is None or work is None:
            return Analysis(full, seen, rules, result.shanten, result, danger=danger)
        estimate = ev_analysis.hand_estimate(full, seen, rules, ev, work)
        return Analysis(full, seen, rules, result.shanten, result, danger=danger, estimate=estimate, draws_left=ev.draws_left, ev_complete=not work.cut)
    plain = discard_options(full, seen, rules)
    shanten = -1 if is_complete(full.concealed, len(full.melds)) else plain[0].result.shanten
    if ev is None or work is None:
        if not danger:
            return Analysis(full, seen, rules, shanten, options=plain)
        marked = [replace(o, deals_in=o.discard in unsafe) for o in plain]
        options = tuple([o for o in marked if not o.deals_in] + [o for o in marked if o.deals_in])
        return Analysis(full, seen, rules, shanten, options=options, danger=danger)
    ranking = ev_analysis.ranked(full, seen, rules, ev, unsafe, work)
    by_kind = {o.discard: o for o in plain}
    options = tuple(replace(by_kind[e.discard], estimate=e.estimate, deals_in=e.deals_in if danger else None) for e in ranking)
    return Analysis(full, seen, rules, shanten, options=options, danger=danger, draws_left=ev.draws_left, ev_complete=not work.cut)


def to_json(analysis: Analysis) -> dict[str, Any]:
    """The ``/api/v1/analyze/`` body of an analysis (a fresh dict; the options share their effective-tile entries)."""
    full, rules = analysis.hand, analysis.rules
    concealed = format_counts(full.concealed)
    body: dict[str, Any] = {
        "hand": concealed,
        "melds": [m.as_dict() for m in full.melds],
        "notation": format_hand(full) if full.melds else concealed,
        "visible": format_counts(analysis.seen) if any(analysis.seen) else "",
        "rules": rules.preset.key,
        "situation": sorted(rules.situation) if rules.situation else [],
        "rule_options": {key: getattr(rules.options, key) for key in OPTION_KEYS},
        "tile_count": 13 if analysis.result is not None else 14,  # a 13-tile answer has a result, a 14-tile one options
        "shanten": analysis.shanten,
    }
    result = analysis.result
    if result is not None:
        body["waits"] = [wait_json(w, full, rules, result.left) for w in result.waits]
        body["ukeire"] = ukeire_json(result)
    else:
        entries = remaining_entries(analysis.options[0].result.left)  # every discard leaves the same tiles unseen
        body["options"] = [option_json(o, entries, full, rules) for o in analysis.options]
    if analysis.danger:
        body["danger"] = [{"opponent": i + 1, "tiles": [TILE_IDS[k] for k in sorted(kinds)]} for i, kinds in enumerate(analysis.danger)]
        if analysis.result is not None:
            body["deals_in"] = [TILE_IDS[k] for k in sorted(analysis.dealing_in) if full.concealed[k]]
    if analysis.estimate is not None:
        body.update(estimate_json(analysis.estimate))
    if analysis.draws_left is not None:
        body["draws_left"] = analysis.draws_left
        body["ev_complete"] = analysis.ev_complete
    return body


@lru_cache(maxsize=16)
def _preset_rules(preset: str) -> Rules:
    """A preset's rules with no situation and default options (the common request), made once."""
    return make_rules(preset)


def analyze(
    hand: str,
    melds: Any = (),
    visible: str = "",
    rules: str = "standard",
    situation: Any = (),
    options: Any = None,
    *,
    depth: Any = None,
    draws_left: Any = None,
    liang_dao_when_ready: Any = None,
    revealed: Any = None,
    budget: Budget | None = None,
) -> dict[str, Any]:
    """Analyse a 13- or 14-tile hand given as text; returns exactly the body of ``/api/v1/analyze/``.

    ``depth="ev"`` with ``draws_left`` adds win chances and expected scores (within ``budget``, a
    fresh request limit when none is given), and
    ``revealed`` (opponents' 亮倒 hands) marks the discards that deal in (see
    ``ev_analysis``); without them the answer is the plain analysis. It is
    ``to_json(analyze_hand(...))``: a caller that wants the typed ``Analysis`` calls those.
    """
    plain = isinstance(rules, str) and options is None and (situation == () or situation == [])
    rule_set = _preset_rules(rules) if plain else make_rules(rules, situation, options)
    full, seen = build_hand(hand, melds, visible)
    if depth is None and draws_left is None and liang_dao_when_ready is None and revealed is None:
        return to_json(analyze_hand(full, seen, rule_set))
    hands, seen = ev_analysis.prepare(full, seen, revealed)
    request = ev_analysis.check_request(depth, draws_left, liang_dao_when_ready, rule_set)
    return to_json(analyze_hand(full, seen, rule_set, revealed=hands, ev=request, budget=budget))


def shanten(hand: str, melds: Any = ()) -> int:
    """Shanten of a hand in text form (−1 when it is complete)."""
    parsed = parse_hand(check_text(hand, "hand"), "hand")
    meld_count = len(parsed.melds) + len(parse_melds(melds))
    return counts_shanten(parsed.concealed, meld_count)

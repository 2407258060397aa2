"""analyze(): the one entry point the API, the pages, the commands and the drills call."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import ev_analysis
from .efficiency import Efficiency, discard_options, full_kinds, improving_draws, remaining, winning
from .errors import EngineError, gettext_noop
from .fans import fan
from .notation import format_counts, format_hand, parse_hand, parse_tile, parse_tiles
from .rules import OPTION_KEYS, Rules, make_rules, validate_hand
from .scoring import WinValue
from .shapes import is_complete
from .shapes import shanten as counts_shanten
from .tiles import TILE_IDS, Counts, Hand, Meld, MeldType, add

MAX_TEXT = 200
"""Longest hand or visible-tiles text accepted (a full hand in Chinese fits easily)."""


def _text(value: Any, field: str, required: bool) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise EngineError(gettext_noop("Must be text such as 4556p123s789sZZZ."), field)
    if len(value) > MAX_TEXT:
        raise EngineError(
            gettext_noop("Too long: %(length)d characters, at most %(limit)d."),
            field, length=len(value), limit=MAX_TEXT,
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
                "melds", number=i + 1, value=str(meld_type)[:40],
            )
        tile = item.get("tile")
        if not isinstance(tile, str) or len(tile) > 10:
            raise EngineError(gettext_noop("Meld %(number)d needs a tile such as 5p."), "melds", number=i + 1)
        out.append(Meld(MeldType(meld_type), parse_tile(tile, "melds")))
    if len(out) > 4:
        raise EngineError(gettext_noop("A hand has at most 4 melds."), "melds")
    return tuple(out)


def build_hand(hand: Any, melds: Any = (), visible: Any = "", check_size: bool = True) -> tuple[Hand, Counts]:
    """Parse and check a hand, its melds and the visible tiles (raises EngineError); ``check_size``: 13 or 14 tiles."""
    parsed = parse_hand(_text(hand, "hand", True), "hand")
    extra = parse_melds(melds) if melds != () else ()
    full = Hand(parsed.concealed, parsed.melds + extra) if extra else parsed
    seen = parse_tiles(_text(visible, "visible", False), "visible")
    validate_hand(full, seen, check_size)
    return full, seen


def fans_json(value: WinValue) -> list[dict[str, Any]]:
    """A win's fans as the API shows them: key, both names, multiplier and (四归一) the tile."""
    out = []
    for hit in value.fans:
        f = fan(hit.key)
        item: dict[str, Any] = {"key": hit.key, "name": f.name, "name_en": f.name_en, "multiplier": hit.multiplier}
        if hit.kind is not None:
            item["tile"] = TILE_IDS[hit.kind]
        out.append(item)
    return out


def _side_json(value: WinValue) -> dict[str, Any]:
    return {
        "allowed": value.allowed,
        "total": value.total if value.allowed else 0,
        "fans": fans_json(value),
        "reason": value.reason,
    }


def _wait_json(kind: int, self_draw: WinValue, discard: WinValue, left: Counts) -> dict[str, Any]:
    return {
        "tile": TILE_IDS[kind],
        "remaining": left[kind],
        "self_draw": _side_json(self_draw),
        "discard": _side_json(discard),
    }


def _remaining_json(left: Counts) -> list[dict[str, Any]]:
    """One ``{"tile", "remaining"}`` entry per kind; the options of one answer share them."""
    return [{"tile": tile, "remaining": n} for tile, n in zip(TILE_IDS, left)]


def _ukeire_json(result: Efficiency, entries: list[dict[str, Any]]) -> dict[str, Any]:
    return {"total": result.ukeire, "tiles": [entries[k] for k in result.kinds]}


def analyze_hand(full: Hand, seen: Counts, rules: Rules) -> dict[str, Any]:
    """The analysis body for an already checked hand (see ``analyze``)."""
    count = full.tile_count
    body: dict[str, Any] = {
        "hand": format_counts(full.concealed),
        "melds": [m.as_dict() for m in full.melds],
        "notation": format_hand(full),
        "visible": format_counts(seen),
        "rules": rules.preset.key,
        "situation": sorted(rules.situation),
        "rule_options": {key: getattr(rules.options, key) for key in OPTION_KEYS},
        "tile_count": count,
    }
    if count == 13:
        # efficiency() without its Wait values: the body is all the caller gets
        shanten, kinds = improving_draws(full.concealed, len(full.melds), full_kinds(full.held))
        left = remaining(add(full.held, seen) if any(seen) else full.held)
        body["shanten"] = shanten
        body["waits"] = [_wait_json(*w, left) for w in winning(full, kinds, rules)] if shanten == 0 else []
        body["ukeire"] = {"total": sum([left[k] for k in kinds]), "tiles": [{"tile": TILE_IDS[k], "remaining": left[k]} for k in kinds]}
        return body
    options = discard_options(full, seen, rules)
    complete = is_complete(full.concealed, len(full.melds))
    body["shanten"] = -1 if complete else min(o.result.shanten for o in options)
    entries = _remaining_json(options[0].result.left)  # every discard leaves the same tiles unseen
    body["options"] = [
        {
            "discard": TILE_IDS[o.discard],
            "shanten": o.result.shanten,
            "ukeire": _ukeire_json(o.result, entries),
            "waits": [_wait_json(w.kind, w.self_draw, w.discard, o.result.left) for w in o.result.waits],
            "value": o.result.value,
        }
        for o in options
    ]
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
) -> dict[str, Any]:
    """Analyse a 13- or 14-tile hand; returns exactly the body of ``/api/v1/analyze/``.

    ``depth="ev"`` with ``draws_left`` adds win chances and expected scores, and
    ``revealed`` (opponents' 亮倒 hands) marks the discards that deal in (see
    ``ev_analysis``); without them the answer is the plain analysis. The options of one
    answer share their effective-tile entries: treat the body as read-only.
    """
    plain = isinstance(rules, str) and options is None and (situation == () or situation == [])
    rule_set = _preset_rules(rules) if plain else make_rules(rules, situation, options)
    full, seen = build_hand(hand, melds, visible)
    extra = {
        key: value
        for key, value in (("depth", depth), ("draws_left", draws_left), ("liang_dao_when_ready", liang_dao_when_ready))
        if value is not None
    }
    if not extra and revealed is None:
        return analyze_hand(full, seen, rule_set)
    revealed, seen = ev_analysis.prepare(full, seen, revealed)
    return ev_analysis.extend(analyze_hand(full, seen, rule_set), full, seen, rule_set, revealed=revealed, **extra)


def shanten(hand: str, melds: Any = ()) -> int:
    """Shanten of a hand in text form (−1 when it is complete)."""
    parsed = parse_hand(_text(hand, "hand", True), "hand")
    meld_count = len(parsed.melds) + len(parse_melds(melds))
    return counts_shanten(parsed.concealed, meld_count)

"""What the analyzer shows for a board: the engine's analysis once, shaped for the page (``page_context``).

Used by the analyzer's view and by the play page's hint, with the page's path as ``base`` (the
links of the discard rows and the EV controls point there); it reads no request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from functools import cache
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.town import option_text
from analysis.board import (
    MODES,
    REVEALED_KEYS,
    Board,
    analyzer_url,
    canonical_query,
    copies_left,
    coupled_targets,
    discard_links,
    draws_error,
    preset_values,
    refusal,
)
from analysis.discards import DiscardRow, ev_cell, from_api
from kwx import EngineError
from kwx.hand.analysis import Analysis, analyze_hand, to_json
from kwx.hand.danger import check_revealed
from kwx.hand.efficiency import remaining
from kwx.hand.ev import (
    MAX_DRAWS,
    Budget,
)
from kwx.hand.ev_analysis import check_request, with_revealed
from kwx.hand.fans import SITUATIONAL_FANS, Fan
from kwx.hand.money import has_flat_extras
from kwx.hand.notation import format_counts, format_hand
from kwx.hand.rules import MAX_TILES, PRESETS, Rules, make_rules, validate_hand
from kwx.hand.scoring import situation_counts
from kwx.hand.tiles import EMPTY, KIND_OF_ID, TILE_IDS, Hand, with_tile
from kwx.rules import OptionValue, RuleSet
from kwx.table.settlement import PIAO_CHOICES, win_money

EV_TRIGGER = "ev-load"
"""The id of the placeholder whose htmx request fetches the EV columns."""
SIDE_FIELDS = frozenset({"draws", "revealed", "base", "piao", *REVEALED_KEYS})
"""Fields whose errors leave the plain analysis standing (the message shows by the field)."""
TYPING_FIELDS = frozenset({"hand", "visible"})
"""Text boxes that update the page while the player types (their own box is not re-rendered)."""
OPTION_LABELS: dict[str, str] = {
    "pinghu_selfdraw_only": gettext_noop("屁胡 wins only by self-draw (底金×1只能自摸)"),
    "rob_kong": gettext_noop("抢杠胡 allowed (a kong may be robbed)"),
    "si_gui_yi_big_hand": gettext_noop("四归一 in hand also counts in big hands (大胡手上的四归也算)"),
}
EXAMPLES: tuple[tuple[str, str], ...] = (
    ("4556p123s789sZZZ", gettext_noop("卡五星: waits on the 5 between 4 and 6")),
    ("1122334456677p", gettext_noop("清一色 that is also 七对")),
    ("2245556p123789s", gettext_noop("卡五星 with 暗四归一")),
    ("46p11s[555p][FFF][BBB]", gettext_noop("three melds and 明四归一")),
    ("4556p123s789sZZZ8p", gettext_noop("14 tiles: what to discard")),
)


@cache
def _example_urls(rules: str = "standard", options: tuple[tuple[str, OptionValue], ...] = ()) -> tuple[str, ...]:
    """The examples' canonical links under the board's rules (the same for every request under them, so built once)."""
    return tuple(analyzer_url(text, rules=rules, options=dict(options)) for text, _label in EXAMPLES)


def _checked_revealed(board: Board, errors: dict[str, str]) -> tuple[Hand, ...]:
    """The revealed hands the engine accepts (13 tiles, ready); the others get a message by their field."""
    out = []
    for key, hand in zip(REVEALED_KEYS, board.revealed):
        if hand is None:
            continue
        try:
            check_revealed(hand)
        except EngineError as exc:
            errors[key] = exc.translated(_)
            continue
        out.append(hand)
    return tuple(out)


def _engine_analysis(board: Board, rules: Rules, with_ev: bool, errors: dict[str, str], budget: Budget | None = None) -> Analysis | None:
    """The engine's one analysis of a 13- or 14-tile board (None, with a message in ``errors``, when it refuses the hand)."""
    assert board.hand is not None and board.visible is not None
    full, seen = board.hand, board.visible
    try:
        validate_hand(full, seen)
    except EngineError as exc:
        errors["hand" if exc.field == "melds" else exc.field] = exc.translated(_)
        return None
    revealed = _checked_revealed(board, errors)
    if revealed:
        try:
            seen = with_revealed(revealed, full, seen)
        except EngineError as exc:
            errors["revealed"] = exc.translated(_)
            revealed, seen = (), board.visible
    if with_ev and board.ev and "draws" not in board.errors:
        try:
            request = check_request("ev", board.draws, board.liang_dao_when_ready, rules)
            return analyze_hand(full, seen, rules, revealed=revealed, ev=request, budget=budget)
        except EngineError as exc:  # more draws than unseen tiles: the plain analysis still stands
            errors["draws"] = draws_error(exc)
    return analyze_hand(full, seen, rules, revealed=revealed)


def _shown(item: dict[str, Any], money: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> dict[str, Any]:
    """A 13-tile result or an option of the API body as the page shows it: tiles left on its waits, its EV cells (``ev``), money."""
    out = {**item, "waits_left": sum(w["remaining"] for w in item.get("waits", ()))}
    if "win_probability" in item:
        out["ev"] = ev_cell(item)
    if money is not None:
        out["waits"] = [{**w, "money": money(w)} for w in item["waits"]]
    return out


def _money(hand: Hand, rules: Rules, board: Board) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """What winning on a wait collects (自摸, 点炮, 包胡, from a declared payer) with the 13-tile ``hand``, at the board's base and 漂."""

    def money(wait: dict[str, Any]) -> dict[str, Any]:
        found = win_money(hand, KIND_OF_ID[wait["tile"]], rules, board.base, board.piao)
        return asdict(found) if found is not None else {}

    return money


def analysis_of(board: Board, with_ev: bool = False, budget: Budget | None = None) -> dict[str, Any]:
    """The engine's analysis of a 13- or 14-tile board as the page shows it, or why there is none yet.

    Keys: ``analysis`` (the engine's ``Analysis``, or None), ``body`` (its API body with the
    page's figures: tiles left on the waits, EV cells, money on the waits shown),
    ``best`` and ``ev_best`` (tile ids), ``chosen`` (the chosen row of a 14-tile hand),
    ``errors`` (field → message), ``missing`` (tiles still to add), ``danger`` (tiles that
    deal in to a revealed hand), ``wins`` (what a complete 14-tile hand is worth, by
    winning tile). ``with_ev`` adds the EV figures when the board asks for them.
    """
    out: dict[str, Any] = {"analysis": None, "body": None, "best": (), "ev_best": (), "chosen": None, "errors": {}, "missing": 0, "danger": frozenset(), "wins": []}
    if set(board.errors) - SIDE_FIELDS or board.hand is None or board.visible is None:
        return out
    rules = board.rule_set if board.rule_set is not None else make_rules(board.rules, list(board.situation), board.options)
    count = board.tile_count
    if count < 13:
        out["missing"] = 13 - count
        try:
            validate_hand(board.hand, board.visible, check_size=False)
        except EngineError as exc:
            out["errors"]["hand" if exc.field == "melds" else exc.field] = exc.translated(_)
        return out
    analysis = _engine_analysis(board, rules, with_ev, out["errors"], budget)
    if analysis is None:
        return out
    body = to_json(analysis)
    out["analysis"] = analysis
    out["danger"] = frozenset(TILE_IDS[k] for k in analysis.dealing_in)
    if analysis.result is not None:
        out["body"] = _shown(body, _money(analysis.hand, rules, board))
        return out
    out["best"] = best = tuple(TILE_IDS[k] for k in analysis.best)
    out["ev_best"] = tuple(TILE_IDS[k] for k in analysis.ev_best)
    options = [_shown(o) for o in body["options"]]
    first = best[0] if best else options[0]["discard"]
    index = next((i for i, o in enumerate(options) if o["discard"] == (board.discard or first)), None)
    if index is None:
        index = next(i for i, o in enumerate(options) if o["discard"] == first)
    chosen = options[index]
    options[index] = out["chosen"] = _shown(chosen, _money(analysis.hand.with_tile(KIND_OF_ID[chosen["discard"]], -1), rules, board))
    out["body"] = {**body, "options": options}
    if analysis.shanten < 0:
        out["wins"] = _complete_wins(options, analysis.hand, rules, board)
    return out


def _complete_wins(options: list[dict[str, Any]], full: Hand, rules: Rules, board: Board) -> list[dict[str, Any]]:
    """What a complete 14-tile hand is worth, one entry per tile that can have been the winning one (best first)."""
    wins = []
    for option in options:
        wait = next((w for w in option["waits"] if w["tile"] == option["discard"]), None)
        if wait is not None:
            money = _money(full.with_tile(KIND_OF_ID[option["discard"]], -1), rules, board)
            wins.append({**wait, "money": money(wait)})
    return sorted(wins, key=lambda w: (-w["self_draw"]["total"], -w["discard"]["total"], KIND_OF_ID[w["tile"]]))


def _palette(board: Board) -> list[dict[str, Any]]:
    return [{"tile": TILE_IDS[k], "left": copies_left(board, k), "disabled": bool(refusal(board, k, board.mode))} for k in range(len(TILE_IDS))]


def _palette_blocked(board: Board, palette: list[dict[str, Any]]) -> str:
    """Why no palette tile can be tapped now ('' while one can): said in words, not only faded."""
    if not palette or not all(p["disabled"] for p in palette):
        return ""
    if board.tile_count == MAX_TILES:
        return _("The hand has 14 tiles: the table shows what to discard. To change the hand, tap one of its tiles to remove it.")
    return refusal(board, 0, board.mode)


def _melds(hand: Hand | None) -> list[dict[str, Any]]:
    out = []
    for index, meld in enumerate(hand.melds if hand else ()):
        out.append({"index": index, "type": meld.type.value, "tile": meld.tile})
    return out


def page_context(board: Board, *, base: str, with_ev: bool = True, budget: Budget | None = None) -> dict[str, Any]:
    """Everything the analyzer template shows for a board (the EV figures only ``with_ev``, within the request's ``budget``), its links under ``base``."""
    result = analysis_of(board, with_ev, budget if with_ev and board.ev else None)
    hand = board.hand
    query = canonical_query(board)
    chosen = result["chosen"]
    palette = _palette(board)
    play_chosen = ""
    if chosen and hand is not None and board.visible is not None:
        kind = TILE_IDS.index(chosen["discard"])
        play_chosen = (
            base
            + "?"
            + canonical_query(
                replace(
                    board,
                    hand=hand.with_tile(kind, -1),
                    visible=with_tile(board.visible, kind),
                    discard="",
                )
            )
        )
    return {
        "board": board,
        "errors": {**board.errors, **result["errors"]},
        "url": base + ("?" + query if query else ""),
        "base": base,
        "hand_tiles": [TILE_IDS[k] for k, n in enumerate(hand.concealed) for _ in range(n)] if hand else [],
        "melds": _melds(hand),
        "palette": palette,
        "palette_blocked": _palette_blocked(board, palette),
        "visible_tiles": [TILE_IDS[k] for k, n in enumerate(board.visible or EMPTY) for _ in range(n)],
        "left": dict(zip(TILE_IDS, remaining(board.seen))),
        "hand_value": format_hand(hand) if hand is not None else board.hand_text,
        "visible_value": format_counts(board.visible) if board.visible is not None else board.visible_text,
        **_rules_context(board),
        "modes": MODES,
        "result": result,
        "body": result["body"],
        "best": result["best"],
        "chosen": chosen,
        "play_chosen": play_chosen,
        "rows": _rows(board, base, result),
        "rows_target": "#app",
        "examples": [(url, text, _(label)) for url, (text, label) in zip(_example_urls(board.rules, _explicit(board)), EXAMPLES)],
        **_ev_context(board, result, query, base),
    }


def _explicit(board: Board) -> tuple[tuple[str, OptionValue], ...]:
    """The board's options that differ from its preset's values (what a link to another hand under the same rules carries)."""
    start = preset_values(board.rules)
    return tuple((key, value) for key, value in board.options.items() if value != start.value(key))


def counted_situations(values: RuleSet) -> list[Fan]:
    """The situational fans these rules count (海底炮 only under ``hai_di: lao_and_pao``, 抢杠胡 only with ``rob_kong`` …): the toggles a page offers."""
    return [f for f in SITUATIONAL_FANS if situation_counts(f.key, values)]


def _rules_context(board: Board) -> dict[str, Any]:
    """The rules part of the page: the town picker's rules and values, the situational toggles the town counts, the other rule options."""
    known = board.rules in PRESETS
    values = board.rule_set.options if board.rule_set is not None else preset_values(board.rules)
    room = set(PRESETS[board.rules].room) if known else set()
    coupled = coupled_targets(board.rules)
    flags = [key for key in OPTION_LABELS if key not in room]
    start = preset_values(board.rules)
    return {
        "rules_values": values if known else None,
        "flat_extras": has_flat_extras(values),
        "situations": [(f, f.multiplier(values), f.key in board.situation) for f in counted_situations(values)],
        "option_flags": [(key, _(OPTION_LABELS[key]), values.value(key)) for key in flags],
        "options_changed": any(values.value(key) != start.value(key) for key in flags),
        "carried_options": [(key, option_text(value)) for key, value in board.options.items() if key not in room and key not in coupled and key not in OPTION_LABELS and value != start.value(key)],
    }


def _ev_context(board: Board, result: dict[str, Any], query: str, base: str) -> dict[str, Any]:
    """The EV control, its state (shown, pending, method) and the danger marks."""
    body = result["body"] or {}
    items = body.get("options") or [body]
    figures = "win_probability" in items[0]
    sampled = [o for o in items if o.get("method") == "monte_carlo"]
    ev_off = canonical_query(replace(board, ev=False))
    return {
        "ev_pending": board.ev and not figures and bool(body) and "draws" not in {**board.errors, **result["errors"]},
        "ev_figures": figures,
        "ev_trigger": EV_TRIGGER,
        "ev_sampled": sampled,
        "ev_samples": max((o["samples"] for o in sampled), default=0),
        "ev_samples_min": min((o["samples"] for o in sampled), default=0),
        "ev_complete": body.get("ev_complete", True),
        "ev_off_url": base + ("?" + ev_off if ev_off else ""),
        "ev_help_url": f"{reverse('analyzer-ev-help')}?{query}",
        "max_draws": MAX_DRAWS,
        "piao_choices": PIAO_CHOICES,
        "danger": result["danger"],
        "danger_tiles": [t for t in TILE_IDS if t in result["danger"]],
        "revealed_fields": [(key, n, text, board.errors.get(key) or result["errors"].get(key, "")) for n, (key, text) in enumerate(zip(REVEALED_KEYS, board.revealed_texts), start=1)],
    }


def _rows(board: Board, base: str, result: dict[str, Any]) -> list[DiscardRow]:
    """The discard rows of a 14-tile hand, each with its link and whether it is a best (or EV-best) choice."""
    body = result["body"]
    if not body or "options" not in body:
        return []
    options = body["options"]
    links = discard_links(board, base, [o["discard"] for o in options])
    return from_api(options, best=result["best"], ev_best=result["ev_best"], chosen=result["chosen"]["discard"], links=links)

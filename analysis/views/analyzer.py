"""The analyzer page (``/`` and ``/analyze/``): build a hand by tapping tiles, see its waits and values.

Every state is a link. The query string holds it all: ``hand`` (bracket notation, melds
included), ``visible``, ``rules``, ``situation`` (repeated), each rule option as ``key=1`` /
``key=0`` when it differs from the default, ``discard`` (the chosen row of a 14-tile hand) and
``to`` (what a palette tap adds: the hand, a 碰, a 明杠 or an 暗杠), ``rev1`` / ``rev2``
(opponents' revealed 亮倒 hands: the tiles that deal in are marked) and, for the expected-value
columns (issue 9), ``ev=1``, ``draws`` (own draws left) and ``ldwr=1`` (亮倒 as soon as ready).
An htmx page shows the plain table first and fetches the EV columns in a second request
(trigger ``ev-load``); a plain request renders them at once. One edit parameter
(``add``, ``remove_tile``, ``remove_meld``, ``add_visible``, ``remove_visible``, ``clear``,
``random``) changes that state. A plain request is then redirected to the canonical link; an
htmx request gets its region of the page back with ``HX-Push-Url`` set to that link.
(Not ``remove``: a form control of that name would hide the form's own ``remove()`` from htmx.)
All 卡五星 knowledge comes from ``analysis.engine``; this module only reads the form.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from django_htmx.http import push_url, replace_url

from analysis.engine import EngineError, analyze_hand, build_hand
from analysis.engine.analysis import MAX_TEXT
from analysis.engine.danger import dealing_in
from analysis.engine.deal import practice_hand
from analysis.engine.efficiency import best_discards, discard_options, remaining
from analysis.engine.ev import (
    ASSUMPTIONS,
    DEFAULT_DISCARD_RATE,
    DEFAULT_LIANG_DAO_DISCARD_RATE,
    DEFAULT_SAMPLES,
    EXACT_MAX_SHANTEN,
    MAX_DRAWS,
    check_draws,
)
from analysis.engine.ev_analysis import MAX_REVEALED, extend, prepare
from analysis.engine.fans import SITUATIONAL_FANS
from analysis.engine.notation import format_counts, format_hand, parse_hand, parse_tile, parse_tiles
from analysis.engine.rules import OPTION_KEYS, PRESETS, RuleOptions, Rules, make_rules
from analysis.engine.settlement import PIAO_CHOICES, check_stakes, win_money
from analysis.engine.tiles import COPIES, EMPTY, TILE_IDS, Counts, Hand, Meld, MeldType, add, with_tile
from analysis.ev_limits import EVRefused, ev_slot
from analysis.text import english, preset_label, tile_label

MAX_TILES = 14
DEFAULT_DRAWS = 12
"""Own draws assumed left when EV is first asked for: a few turns in, about a third of a 44-tile wall."""
REVEALED_KEYS = tuple(f"rev{n}" for n in range(1, MAX_REVEALED + 1))
"""Query keys of the opponents' revealed (亮倒) hands."""
MAX_REVEALED_TEXT = 60
EV_TRIGGER = "ev-load"
"""The id of the placeholder whose htmx request fetches the EV columns."""
SIDE_FIELDS = frozenset({"draws", "revealed", "base", "piao", *REVEALED_KEYS})
"""Fields whose errors leave the plain analysis standing (the message shows by the field)."""
"""A hand never holds more than 14 tiles (each meld counts 3)."""
MODES: tuple[str, ...] = ("hand",) + tuple(t.value for t in MeldType)
"""What a palette tap adds: a concealed tile, or a meld of that tile."""
TRUE_WORDS = frozenset({"1", "true", "on", "yes"})
DEFAULT_OPTIONS = RuleOptions()
SITUATION_ORDER: tuple[str, ...] = tuple(f.key for f in SITUATIONAL_FANS)
EDIT_KEYS = ("add", "remove_tile", "remove_meld", "add_visible", "remove_visible", "clear", "random")
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


@dataclass(frozen=True)
class Board:
    """The analyzer's whole state, parsed from the query; ``errors`` maps a field to its message."""

    hand_text: str = ""
    hand: Hand | None = Hand(EMPTY)
    visible_text: str = ""
    visible: Counts | None = EMPTY
    rules: str = "standard"
    situation: tuple[str, ...] = ()
    options: dict[str, bool] = field(default_factory=dict)
    mode: str = "hand"
    discard: str = ""
    errors: dict[str, str] = field(default_factory=dict)
    notice: str = ""
    ev: bool = False
    draws_text: str = str(DEFAULT_DRAWS)
    draws: int = DEFAULT_DRAWS
    liang_dao_when_ready: bool = False
    revealed_texts: tuple[str, ...] = ("",) * MAX_REVEALED
    revealed: tuple[Hand | None, ...] = (None,) * MAX_REVEALED
    base_text: str = "1"
    base: int = 1
    piao: int = 0

    @property
    def seen(self) -> Counts:
        """Copies in the hand, its melds, the visible tiles and revealed hands (what a tap may not exceed)."""
        seen = add(self.hand.held if self.hand else EMPTY, self.visible or EMPTY)
        for hand in self.revealed:
            if hand is not None:
                seen = add(seen, hand.held)
        return seen

    @property
    def tile_count(self) -> int:
        """Tiles in the hand, each meld counting 3."""
        return self.hand.tile_count if self.hand else 0


def _checked_text(text: str, field_name: str) -> str:
    if len(text) > MAX_TEXT:
        raise EngineError(
            gettext_noop("Too long: %(length)d characters, at most %(limit)d."),
            field_name, length=len(text), limit=MAX_TEXT,
        )
    return text


def read_board(query: QueryDict) -> Board:
    """The state a query string describes; unreadable parts become messages in ``errors``."""
    errors: dict[str, str] = {}
    hand_text = query.get("hand", "").strip()
    visible_text = query.get("visible", "").strip()
    hand: Hand | None = None
    visible: Counts | None = None
    try:
        hand = parse_hand(_checked_text(hand_text, "hand"), "hand")
    except EngineError as exc:
        errors["hand"] = exc.translated(_)
    try:
        visible = parse_tiles(_checked_text(visible_text, "visible"), "visible")
    except EngineError as exc:
        errors["visible"] = exc.translated(_)
    situation = tuple(dict.fromkeys(s for item in query.getlist("situation") for s in item.split(",") if s))
    options = {key: query.getlist(key)[-1] in TRUE_WORDS for key in OPTION_KEYS if key in query}
    mode = query.get("to", "hand")
    ev = query.get("ev", "") in TRUE_WORDS
    draws_text = query.get("draws", "").strip()[:10] or str(DEFAULT_DRAWS)
    draws = DEFAULT_DRAWS
    try:
        draws = check_draws(int(draws_text) if draws_text.isdecimal() else draws_text, 1)
    except EngineError as exc:
        if ev:
            errors["draws"] = _draws_error(exc)
    revealed_texts = tuple(query.get(key, "").strip() for key in REVEALED_KEYS)
    base_text, base, piao = _stakes(query, errors)
    board = Board(
        hand_text=hand_text, hand=hand, visible_text=visible_text, visible=visible,
        rules=query.get("rules", "standard")[:40], situation=situation, options=options,
        mode=mode if mode in MODES else "hand", discard=query.get("discard", "")[:10], errors=errors,
        ev=ev, draws_text=draws_text, draws=draws, liang_dao_when_ready=query.get("ldwr", "") in TRUE_WORDS,
        revealed_texts=revealed_texts, revealed=tuple(_revealed_hand(t, k, errors) for k, t in zip(REVEALED_KEYS, revealed_texts)),
        base_text=base_text, base=base, piao=piao,
    )
    try:
        make_rules(board.rules, list(situation), options)
    except EngineError as exc:
        errors[exc.field] = exc.translated(_)
    return board


def _stakes(query: QueryDict, errors: dict[str, str]) -> tuple[str, int, int]:
    """(base as typed, base, 漂) for the money lines; an unreadable one is 1 or 0 and gets a message."""
    base_text = query.get("base", "").strip()[:10] or "1"
    piao_text = query.get("piao", "").strip()[:10] or "0"
    base, piao = 1, 0
    try:
        base, _unused = check_stakes(int(base_text) if base_text.isdecimal() else base_text, 0)
    except EngineError as exc:
        errors["base"] = exc.translated(_)
    try:
        _unused, piao = check_stakes(1, int(piao_text) if piao_text.isdecimal() else piao_text)
    except EngineError as exc:
        errors["piao"] = exc.translated(_)
    return base_text, base, piao


def _revealed_hand(text: str, key: str, errors: dict[str, str]) -> Hand | None:
    """An opponent's revealed hand from its text box (None when empty or unreadable)."""
    if not text:
        return None
    try:
        if len(text) > MAX_REVEALED_TEXT:
            raise EngineError(gettext_noop("Too long: %(length)d characters, at most %(limit)d."),
                              key, length=len(text), limit=MAX_REVEALED_TEXT)
        return parse_hand(text, key)
    except EngineError as exc:
        errors[key] = exc.translated(_)
    return None


def _tile_kind(value: str) -> int | None:
    try:
        return parse_tile(value[:10], "tile")
    except EngineError:
        return None


def _left(board: Board, kind: int) -> int:
    return max(0, COPIES - board.seen[kind])


def _refusal(board: Board, kind: int, mode: str) -> str:
    """Why a palette tap of ``kind`` in ``mode`` cannot be done now ('' if it can)."""
    hand = board.hand or Hand(EMPTY)
    left, name = _left(board, kind), tile_label(TILE_IDS[kind])
    size = 1 if mode == "hand" else 3
    if board.tile_count + size > MAX_TILES:
        return _("The hand is full: 14 tiles at most, each meld counting 3. Tap a tile in the hand to remove it.")
    if mode != "hand" and len(hand.melds) >= 4:
        return _("A hand has at most 4 melds.")
    need = 1 if mode == "hand" else MeldType(mode).size
    if left < need:
        return _("%(tile)s: %(need)d needed, %(left)d left (4 copies, counting the hand, its melds and the visible tiles).") % {
            "tile": name, "need": need, "left": left,
        }
    return ""


def _edited(board: Board, query: QueryDict, rng: random.Random) -> Board:
    """The board after the one edit the query asks for; a refused edit leaves a ``notice``."""
    hand = board.hand
    if "clear" in query:
        return replace(board, hand=Hand(EMPTY), visible=EMPTY, discard="", mode="hand", errors=_rule_errors(board))
    if "random" in query:
        size = 14 if query.get("random") == "14" else 13
        try:
            dealt = practice_hand(rng, size, board.visible or EMPTY)
        except ValueError:
            return replace(board, notice=_("Not enough tiles are left in the wall for a random hand."))
        return replace(board, hand=Hand(dealt), visible=board.visible or EMPTY, discard="", mode="hand",
                       errors=_rule_errors(board))
    if hand is None or board.visible is None:
        return replace(board, notice=_("Correct the text first: it is not a hand yet."))
    if "remove_meld" in query:
        index = query.get("remove_meld", "")
        if index.isdecimal() and int(index) < len(hand.melds):
            melds = hand.melds[: int(index)] + hand.melds[int(index) + 1:]
            return replace(board, hand=Hand(hand.concealed, melds), discard="")
        return board
    for key in ("add", "remove_tile", "add_visible", "remove_visible"):
        if key not in query:
            continue
        kind = _tile_kind(query.get(key, ""))
        if kind is None:
            return replace(board, notice=_("That is not a tile."))
        if key == "remove_tile":
            return replace(board, hand=hand.with_tile(kind, -1), discard="") if hand.concealed[kind] else board
        if key == "remove_visible":
            visible = with_tile(board.visible, kind, -1) if board.visible[kind] else board.visible
            return replace(board, visible=visible)
        if key == "add_visible":
            if not _left(board, kind):
                return replace(board, notice=_("All four %(tile)s are already used.") % {"tile": tile_label(TILE_IDS[kind])})
            return replace(board, visible=with_tile(board.visible, kind))
        refusal = _refusal(board, kind, board.mode)
        if refusal:
            return replace(board, notice=refusal)
        if board.mode == "hand":
            return replace(board, hand=hand.with_tile(kind), discard="")
        meld = Meld(MeldType(board.mode), kind)
        return replace(board, hand=Hand(hand.concealed, hand.melds + (meld,)), mode="hand", discard="")
    return board


def _rule_errors(board: Board) -> dict[str, str]:
    return {k: v for k, v in board.errors.items() if k not in ("hand", "visible")}


def apply_edit(board: Board, query: QueryDict, rng: random.Random | None = None) -> tuple[Board, bool]:
    """(the board after the query's edit, whether the query held an edit at all)."""
    if not any(key in query for key in EDIT_KEYS):
        return board, False
    edited = _edited(board, query, rng or random.Random())
    return edited, True


def canonical_query(board: Board) -> str:
    """The shortest query string that gives this board again (texts in canonical notation)."""
    pairs: list[tuple[str, str]] = []
    hand_text = format_hand(board.hand) if board.hand is not None else board.hand_text
    visible_text = format_counts(board.visible) if board.visible is not None else board.visible_text
    if hand_text:
        pairs.append(("hand", hand_text))
    if visible_text:
        pairs.append(("visible", visible_text))
    if board.rules != "standard":
        pairs.append(("rules", board.rules))
    known = [s for s in SITUATION_ORDER if s in board.situation]
    pairs += [("situation", s) for s in known + [s for s in board.situation if s not in known]]
    for key in OPTION_KEYS:
        if key in board.options and board.options[key] != getattr(DEFAULT_OPTIONS, key):
            pairs.append((key, "1" if board.options[key] else "0"))
    if board.hand is not None and board.tile_count == MAX_TILES and board.discard in TILE_IDS:
        if board.hand.concealed[TILE_IDS.index(board.discard)]:
            pairs.append(("discard", board.discard))
    if board.mode != "hand":
        pairs.append(("to", board.mode))
    for key, text, hand in zip(REVEALED_KEYS, board.revealed_texts, board.revealed):
        if text:
            pairs.append((key, format_hand(hand) if hand is not None else text))
    if board.base_text != "1":
        pairs.append(("base", board.base_text))
    if board.piao:
        pairs.append(("piao", str(board.piao)))
    if board.ev:
        pairs += [("ev", "1"), ("draws", board.draws_text)]
        if board.liang_dao_when_ready:
            pairs.append(("ldwr", "1"))
    return urlencode(pairs, safe="[]")


def _safe_revealed(board: Board, rules: Rules, errors: dict[str, str]) -> tuple[Hand, ...]:
    """The revealed hands the engine accepts (13 tiles, ready); the others get a message."""
    out = []
    for key, hand in zip(REVEALED_KEYS, board.revealed):
        if hand is None:
            continue
        try:
            dealing_in(hand, rules)
        except EngineError as exc:
            errors[key] = exc.translated(_)
            continue
        out.append(hand)
    return tuple(out)


def _draws_error(exc: EngineError) -> str:
    """What is wrong with the typed own draws, naming the page's field (the engine's message names the API's draws_left)."""
    if exc.field != "draws_left":
        return exc.translated(_)
    if "unseen" in exc.params:
        return ngettext(
            "Own draws left: %(draws)d, but only %(unseen)d tile is unseen.",
            "Own draws left: %(draws)d, but only %(unseen)d tiles are unseen.", exc.params["unseen"],
        ) % exc.params
    return _("Own draws left must be a whole number from %(low)d to %(limit)d (your own draws still to come).") % exc.params


def _extended(body: dict[str, Any], full: Hand, seen: Counts, rules: Rules, board: Board,
              revealed: tuple[Hand, ...], with_ev: bool, errors: dict[str, str]) -> dict[str, Any]:
    """The plain body with danger and, if asked for and possible, the EV figures (as the API adds them)."""
    if with_ev:
        try:
            copy = {**body, "options": [dict(o) for o in body["options"]]} if "options" in body else dict(body)
            return extend(copy, full, seen, rules,
                          depth="ev", draws_left=board.draws, liang_dao_when_ready=board.liang_dao_when_ready,
                          revealed=revealed)
        except EngineError as exc:
            errors["draws"] = _draws_error(exc)
    return extend(body, full, seen, rules, revealed=revealed) if revealed else body


def _percents(item: dict[str, Any]) -> dict[str, float]:
    """The two chances of an EV figure set (and their standard errors) in percent, for display."""
    errors = item.get("stderr", {})
    return {
        "ready": 100 * item["ready_probability"], "win": 100 * item["win_probability"],
        "ready_pm": 100 * errors.get("ready_probability", 0.0), "win_pm": 100 * errors.get("win_probability", 0.0),
    }


def analysis_of(board: Board, with_ev: bool = False) -> dict[str, Any]:
    """The engine's analysis of a 13- or 14-tile board, or why there is none yet.

    Keys: ``body`` (the API body, or None), ``best`` (best discards), ``chosen`` (the chosen
    row of a 14-tile hand), ``errors`` (field → message), ``missing`` (tiles still to add),
    ``danger`` (tiles that deal in to a revealed hand), ``wins`` (what a complete 14-tile hand
    is worth, by winning tile). Each shown wait carries ``money`` (the engine's ``win_money``).
    ``with_ev`` adds the EV figures when the board asks for them.
    """
    out: dict[str, Any] = {"body": None, "best": (), "chosen": None, "errors": {}, "missing": 0, "danger": frozenset(), "wins": []}
    if set(board.errors) - SIDE_FIELDS or board.hand is None or board.visible is None:
        return out
    count = board.tile_count
    if count < 13:
        out["missing"] = 13 - count
        over = [k for k, n in enumerate(board.seen) if n > COPIES]
        if over:
            out["errors"]["hand"] = _("%(tile)s: %(count)d copies between the hand, its melds and the visible tiles; there are only 4.") % {
                "tile": tile_label(TILE_IDS[over[0]]), "count": board.seen[over[0]],
            }
        return out
    try:
        rules = make_rules(board.rules, list(board.situation), board.options)
        full, seen = build_hand(format_hand(board.hand), (), format_counts(board.visible))
    except EngineError as exc:
        out["errors"]["hand" if exc.field == "melds" else exc.field] = exc.translated(_)
        return out
    revealed = _safe_revealed(board, rules, out["errors"])
    try:
        revealed, seen = prepare(full, seen, [format_hand(h) for h in revealed])
    except EngineError as exc:
        out["errors"]["revealed"] = exc.translated(_)
        revealed = ()
    body = _extended(analyze_hand(full, seen, rules), full, seen, rules, board, revealed,
                     with_ev and board.ev and "draws" not in board.errors, out["errors"])
    out["body"] = body
    out["danger"] = frozenset(t for d in body.get("danger", ()) for t in d["tiles"])
    for item in [body, *body.get("options", ())]:
        item["waits_left"] = sum(w["remaining"] for w in item.get("waits", ()))
        if "win_probability" in item:
            item["pct"] = _percents(item)
    if count < MAX_TILES:
        _add_money(body["waits"], full, rules, board)
    if count == MAX_TILES:
        danger = {TILE_IDS.index(t) for t in out["danger"]}
        plain = [o for o in discard_options(full, seen, rules) if o.discard not in danger]
        out["best"] = tuple(TILE_IDS[k] for k in best_discards(plain))
        options = body["options"]
        first = out["best"][0] if out["best"] else options[0]["discard"]
        out["chosen"] = next((o for o in options if o["discard"] == (board.discard or first)), None) or next(
            o for o in options if o["discard"] == first)
        _add_money(out["chosen"]["waits"], full.with_tile(TILE_IDS.index(out["chosen"]["discard"]), -1), rules, board)
        if body["shanten"] < 0:
            out["wins"] = _complete_wins(options, full, rules, board)
    return out


def _add_money(waits: list[dict[str, Any]], hand: Hand, rules: Rules, board: Board) -> None:
    """Put on each wait what winning on it collects (自摸, 点炮, 包胡) at the board's base and 漂."""
    for wait in waits:
        wait["money"] = win_money(hand, TILE_IDS.index(wait["tile"]), rules, board.base, board.piao)


def _complete_wins(options: list[dict[str, Any]], full: Hand, rules: Rules, board: Board) -> list[dict[str, Any]]:
    """What a complete 14-tile hand is worth, one entry per tile that can have been the winning one (best first)."""
    wins = []
    for option in options:
        wait = next((w for w in option["waits"] if w["tile"] == option["discard"]), None)
        if wait is not None:
            win = dict(wait)
            _add_money([win], full.with_tile(TILE_IDS.index(option["discard"]), -1), rules, board)
            wins.append(win)
    return sorted(wins, key=lambda w: (-w["self_draw"]["total"], -w["discard"]["total"], TILE_IDS.index(w["tile"])))


def _palette(board: Board) -> list[dict[str, Any]]:
    return [
        {"tile": TILE_IDS[k], "left": _left(board, k), "disabled": bool(_refusal(board, k, board.mode))}
        for k in range(len(TILE_IDS))
    ]


def _palette_blocked(board: Board, palette: list[dict[str, Any]]) -> str:
    """Why no palette tile can be tapped now ('' while one can): said in words, not only faded."""
    if not palette or not all(p["disabled"] for p in palette):
        return ""
    if board.tile_count == MAX_TILES:
        return _("The hand has 14 tiles: the table shows what to discard. To change the hand, tap one of its tiles to remove it.")
    return _refusal(board, 0, board.mode)


def _melds(hand: Hand | None) -> list[dict[str, Any]]:
    out = []
    for index, meld in enumerate(hand.melds if hand else ()):
        tiles = [meld.tile] * meld.type.size
        if meld.type is MeldType.CONCEALED_KONG:
            tiles[0] = tiles[-1] = "back"
        out.append({"index": index, "type": meld.type.value, "tile": meld.tile, "tiles": tiles})
    return out


def page_context(board: Board, request: HttpRequest, with_ev: bool = True) -> dict[str, Any]:
    """Everything the analyzer template shows for a board (the EV figures only ``with_ev``)."""
    result = analysis_of(board, with_ev)
    hand = board.hand
    query = canonical_query(board)
    base = request.path
    chosen = result["chosen"]
    palette = _palette(board)
    play_chosen = ""
    if chosen and hand is not None and board.visible is not None:
        kind = TILE_IDS.index(chosen["discard"])
        play_chosen = base + "?" + canonical_query(replace(
            board, hand=hand.with_tile(kind, -1), visible=with_tile(board.visible, kind), discard="",
        ))
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
        "presets": [(key, preset_label(key)) for key in PRESETS],
        "situations": [
            (f, f.multiplier(board.rules if board.rules in PRESETS else "standard"), f.key in board.situation)
            for f in SITUATIONAL_FANS
        ],
        "option_flags": [
            (key, _(OPTION_LABELS[key]), board.options.get(key, getattr(DEFAULT_OPTIONS, key))) for key in OPTION_KEYS
        ],
        "options_changed": any(
            board.options.get(key, getattr(DEFAULT_OPTIONS, key)) != getattr(DEFAULT_OPTIONS, key) for key in OPTION_KEYS
        ),
        "modes": MODES,
        "result": result,
        "body": result["body"],
        "best": result["best"],
        "chosen": chosen,
        "play_chosen": play_chosen,
        "rows": _rows(board, base, result),
        "examples": [(base + "?" + urlencode({"hand": text}, safe="[]"), text, _(label)) for text, label in EXAMPLES],
        **_ev_context(board, result, query, base),
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
        "revealed_fields": [
            (key, n, text, board.errors.get(key) or result["errors"].get(key, ""))
            for n, (key, text) in enumerate(zip(REVEALED_KEYS, board.revealed_texts), start=1)
        ],
    }


def _rows(board: Board, base: str, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The discard options of a 14-tile hand, each with its link and whether it is a best choice."""
    body = result["body"]
    if not body or "options" not in body:
        return []
    options = body["options"]
    ev_top = _ev_top(options)
    least = min(o["shanten"] for o in options)
    return [
        {**o, "best": o["discard"] in result["best"], "ev_best": o["discard"] in ev_top,
         "reference": "win_probability" in o and o["shanten"] > least,
         "link": base + "?" + canonical_query(replace(board, discard=o["discard"]))}
        for o in options
    ]


def _ev_top(options: list[dict[str, Any]]) -> set[str]:
    """Discards tied first in the engine's EV order (same danger, shanten and expected score as the first, above 0)."""
    if not options or not options[0].get("expected_score"):
        return set()
    def key(o: dict[str, Any]) -> tuple[bool, int, float]:
        return o.get("deals_in", False), o["shanten"], o["expected_score"]
    return {o["discard"] for o in options if key(o) == key(options[0]) and not o.get("deals_in")}


def _limited_context(board: Board, request: HttpRequest, with_ev: bool) -> dict[str, Any]:
    """``page_context``, with the EV figures only inside an EV slot (``ev_limits``); refused, the plain page says why."""
    if not (with_ev and board.ev):
        return page_context(board, request, with_ev)
    try:
        with ev_slot(request) as run:
            return run(page_context, board, request, with_ev)
    except EVRefused as refused:
        return {**page_context(board, request, False), "ev_pending": False, "ev_refused": refused.message}


def analyzer(request: HttpRequest) -> HttpResponse:
    """The analyzer: full page, or for htmx the region that changed; edits redirect to the canonical link."""
    board, edited = apply_edit(read_board(request.GET), request.GET)
    htmx = request.htmx and not request.htmx.history_restore_request
    ev_request = bool(htmx) and request.htmx.trigger == EV_TRIGGER
    context = _limited_context(board, request, with_ev=not htmx or ev_request)
    url = context["url"]
    clean = not context["errors"] and not board.notice
    if not htmx and clean and _differs(request.GET, url):
        return HttpResponseRedirect(url, status=303) if edited else HttpResponseRedirect(url)
    if ev_request:
        response = render(request, "analysis/analyzer.html#results", context)
    elif htmx:
        typing = request.htmx.trigger_name in TYPING_FIELDS
        template = "analysis/analyzer.html#live" if typing else "analysis/analyzer.html#app"
        response = render(request, template, context)
        if clean or not typing:
            (replace_url if typing else push_url)(response, url if clean else False)
    else:
        response = render(request, "analysis/analyzer.html", context)
    patch_vary_headers(response, ("HX-Request", "HX-Trigger"))
    return response


def _differs(query: QueryDict, url: str) -> bool:
    """Whether the request's query is not already the canonical one."""
    canonical = QueryDict(url.partition("?")[2])
    return sorted(query.lists()) != sorted(canonical.lists())


def ev_help(request: HttpRequest) -> HttpResponse:
    """The assumptions behind the EV columns, in the active language, with the parameters of the link."""
    board = read_board(request.GET)
    in_english = english()
    query = canonical_query(replace(board, ev=True))
    return render(request, "analysis/ev_help.html", {
        "assumptions": [(a.key, a.title_en if in_english else a.title, a.text_en if in_english else a.text) for a in ASSUMPTIONS],
        "board": board,
        "draws_error": board.errors.get("draws", ""),
        "rules_label": preset_label(board.rules) if board.rules in PRESETS else board.rules,
        "rate": DEFAULT_DISCARD_RATE,
        "liang_dao_rate": DEFAULT_LIANG_DAO_DISCARD_RATE,
        "samples": DEFAULT_SAMPLES,
        "exact_max_shanten": EXACT_MAX_SHANTEN,
        "back_url": reverse("analyze") + "?" + query,
    })


urlpatterns = [
    path("", analyzer, name="analyzer"),
    path("analyze/", analyzer, name="analyze"),
    path("analyze/ev-help/", ev_help, name="analyzer-ev-help"),
]

"""The analyzer page (``/`` and ``/analyze/``): build a hand by tapping tiles, see its waits and values.

Every state is a link. The query string holds it all: ``hand`` (bracket notation, melds
included), ``visible``, ``rules``, ``situation`` (repeated), each rule option as ``key=1`` /
``key=0`` when it differs from the default, ``discard`` (the chosen row of a 14-tile hand) and
``to`` (what a palette tap adds: the hand, a 碰, a 明杠 or an 暗杠). One edit parameter
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
from django.urls import path
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _, gettext_noop
from django_htmx.http import push_url, replace_url

from analysis.engine import EngineError, analyze_hand, build_hand
from analysis.engine.analysis import MAX_TEXT
from analysis.engine.deal import practice_hand
from analysis.engine.efficiency import best_discards, discard_options, remaining
from analysis.engine.fans import SITUATIONAL_FANS
from analysis.engine.notation import format_counts, format_hand, parse_hand, parse_tile, parse_tiles
from analysis.engine.rules import OPTION_KEYS, PRESETS, RuleOptions, make_rules
from analysis.engine.tiles import COPIES, EMPTY, TILE_IDS, Counts, Hand, Meld, MeldType, add, with_tile
from analysis.text import preset_label, tile_label

MAX_TILES = 14
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

    @property
    def seen(self) -> Counts:
        """Copies in the hand, its melds and the visible tiles (what a tap may not exceed)."""
        return add(self.hand.held if self.hand else EMPTY, self.visible or EMPTY)

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
    board = Board(
        hand_text=hand_text, hand=hand, visible_text=visible_text, visible=visible,
        rules=query.get("rules", "standard")[:40], situation=situation, options=options,
        mode=mode if mode in MODES else "hand", discard=query.get("discard", "")[:10], errors=errors,
    )
    try:
        make_rules(board.rules, list(situation), options)
    except EngineError as exc:
        errors[exc.field] = exc.translated(_)
    return board


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
        if index.isdigit() and int(index) < len(hand.melds):
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
    return urlencode(pairs, safe="[]")


def analysis_of(board: Board) -> dict[str, Any]:
    """The engine's analysis of a 13- or 14-tile board, or why there is none yet.

    Keys: ``body`` (the API body, or None), ``best`` (best discards), ``chosen`` (the chosen
    row of a 14-tile hand), ``errors`` (field → message), ``missing`` (tiles still to add).
    """
    out: dict[str, Any] = {"body": None, "best": (), "chosen": None, "errors": {}, "missing": 0}
    if board.errors or board.hand is None or board.visible is None:
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
    body = analyze_hand(full, seen, rules)
    out["body"] = body
    for item in [body, *body.get("options", ())]:
        item["waits_left"] = sum(w["remaining"] for w in item.get("waits", ()))
    if count == MAX_TILES:
        out["best"] = tuple(TILE_IDS[k] for k in best_discards(discard_options(full, seen, rules)))
        options = body["options"]
        out["chosen"] = next((o for o in options if o["discard"] == board.discard), options[0] if options else None)
    return out


def _palette(board: Board) -> list[dict[str, Any]]:
    return [
        {"tile": TILE_IDS[k], "left": _left(board, k), "disabled": bool(_refusal(board, k, board.mode))}
        for k in range(len(TILE_IDS))
    ]


def _melds(hand: Hand | None) -> list[dict[str, Any]]:
    out = []
    for index, meld in enumerate(hand.melds if hand else ()):
        tiles = [meld.tile] * meld.type.size
        if meld.type is MeldType.CONCEALED_KONG:
            tiles[0] = tiles[-1] = "back"
        out.append({"index": index, "type": meld.type.value, "tile": meld.tile, "tiles": tiles})
    return out


def page_context(board: Board, request: HttpRequest) -> dict[str, Any]:
    """Everything the analyzer template shows for a board."""
    result = analysis_of(board)
    hand = board.hand
    query = canonical_query(board)
    base = request.path
    chosen = result["chosen"]
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
        "palette": _palette(board),
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
    }


def _rows(board: Board, base: str, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The discard options of a 14-tile hand, each with its link and whether it is a best choice."""
    body = result["body"]
    if not body or "options" not in body:
        return []
    return [
        {**o, "best": o["discard"] in result["best"],
         "link": base + "?" + canonical_query(replace(board, discard=o["discard"]))}
        for o in body["options"]
    ]


def analyzer(request: HttpRequest) -> HttpResponse:
    """The analyzer: full page, or for htmx the region that changed; edits redirect to the canonical link."""
    board, edited = apply_edit(read_board(request.GET), request.GET)
    context = page_context(board, request)
    url = context["url"]
    clean = not context["errors"] and not board.notice
    htmx = request.htmx and not request.htmx.history_restore_request
    if not htmx and clean and _differs(request.GET, url):
        return HttpResponseRedirect(url, status=303) if edited else HttpResponseRedirect(url)
    if htmx:
        typing = request.htmx.trigger_name in TYPING_FIELDS
        template = "analysis/analyzer.html#live" if typing else "analysis/analyzer.html#app"
        response = render(request, template, context)
        if clean or not typing:
            (replace_url if typing else push_url)(response, url if clean else False)
    else:
        response = render(request, "analysis/analyzer.html", context)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _differs(query: QueryDict, url: str) -> bool:
    """Whether the request's query is not already the canonical one."""
    canonical = QueryDict(url.partition("?")[2])
    return sorted(query.lists()) != sorted(canonical.lists())


urlpatterns = [
    path("", analyzer, name="analyzer"),
    path("analyze/", analyzer, name="analyze"),
]

"""The analyzer's form state: a ``Board`` read from the query string, its edits and its canonical link.

Every state is a link. The query string holds it all: ``hand`` (bracket notation, melds
included), ``visible``, ``rules``, ``situation`` (repeated), each rule option as ``key=1`` /
``key=0`` when it differs from the default, ``discard`` (the chosen row of a 14-tile hand) and
``to`` (what a palette tap adds: the hand, a 碰, a 明杠 or an 暗杠), ``rev1`` / ``rev2``
(opponents' revealed 亮倒 hands), ``base`` and ``piao`` (the stakes of the money lines) and,
for the expected-value columns, ``ev=1``, ``draws`` (own draws left) and ``ldwr=1`` (亮倒 as
soon as ready). The table of a position (rivers, melds, 亮倒 tiles, wall, offered and drawn
tile) and the estimate at the table are ``analysis.table_form``'s keys (``r0``–``r2``,
``m1``/``m2``, ``l1``/``l2``, ``wall``, ``offer``/``by``/``kind``, ``drawn``, ``tto``, ``seed``,
``advice=1``), written after all the others. One edit parameter (``add``, ``remove_tile``,
``remove_meld``, ``add_visible``, ``remove_visible``, ``clear``, ``random``, or the table's
``tadd``, ``tdel``, ``tundo``) changes that state.
(Not ``remove``: a form control of that name would hide the form's own ``remove()`` from htmx.)
Every limit (tiles, melds, copies, text lengths) is the engine's; this module only reads the form.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from urllib.parse import urlencode

from django.http import QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from analysis.table_form import TABLE_EDIT_KEYS, TableForm, TableRequest, edit_table, read_request
from kwx import EngineError
from kwx.hand.analysis import check_text
from kwx.hand.deal import practice_hand
from kwx.hand.ev import check_draws
from kwx.hand.ev_analysis import MAX_REVEALED, MAX_REVEALED_TEXT
from kwx.hand.fans import SITUATIONAL_FANS
from kwx.hand.notation import format_counts, format_hand, parse_hand, parse_tile, parse_tiles
from kwx.hand.rules import MAX_MELDS, MAX_TILES, Rules, make_rules
from kwx.hand.tiles import COPIES, EMPTY, TILE_IDS, Counts, Hand, Meld, MeldType, add, with_tile
from kwx.numbers import read_whole
from kwx.rules import OPTION_KEYS, PRESETS, OptionValue, RuleSet, read_option_text, resolve
from kwx.table.settlement import check_stakes
from kwx_site.flags import read_flag
from kwx_site.text import tile_label

DEFAULT_DRAWS = 12
"""Own draws assumed left when EV is first asked for: a few turns in, about a third of a 44-tile wall."""
REVEALED_KEYS = tuple(f"rev{n}" for n in range(1, MAX_REVEALED + 1))
"""Query keys of the opponents' revealed (亮倒) hands."""
MODES: tuple[str, ...] = ("hand",) + tuple(t.value for t in MeldType)
"""What a palette tap adds: a concealed tile, or a meld of that tile."""
SITUATION_ORDER: tuple[str, ...] = tuple(f.key for f in SITUATIONAL_FANS)
EDIT_KEYS = ("add", "remove_tile", "remove_meld", "add_visible", "remove_visible", "clear", "random", *TABLE_EDIT_KEYS)


@dataclass(frozen=True)
class Board:
    """The analyzer's whole state, parsed from the query; ``errors`` maps a field to its message."""

    hand_text: str = ""
    hand: Hand | None = Hand(EMPTY)
    visible_text: str = ""
    visible: Counts | None = EMPTY
    rules: str = "standard"
    situation: tuple[str, ...] = ()
    options: dict[str, OptionValue] = field(default_factory=dict)
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
    rule_set: Rules | None = None
    """The engine's rules for ``rules``, ``situation`` and ``options`` (None when they are refused)."""
    table: TableRequest = TableRequest(TableForm())
    """The table (rivers, melds, 亮倒, wall, offered tile) and the estimate's keys (``analysis.table_form``)."""
    town: tuple[str, tuple[tuple[str, OptionValue], ...]] = ("standard", ())
    """The viewer's town (preset, options that differ from it): what a link without ``rules`` and without a hand means."""

    @cached_property
    def seen(self) -> Counts:
        """Copies in the hand, its melds, the visible tiles, revealed hands and the table (what a tap may not exceed)."""
        seen = add(self.hand.held if self.hand else EMPTY, self.visible or EMPTY)
        for hand in self.revealed:
            if hand is not None:
                seen = add(seen, hand.held)
        return add(seen, self.table.table.seen)

    @property
    def tile_count(self) -> int:
        """Tiles in the hand, each meld counting 3."""
        return self.hand.tile_count if self.hand else 0


def _options(query: QueryDict, errors: dict[str, str]) -> dict[str, OptionValue]:
    """The rule options the query sets (each by its key), checked; an unreadable one becomes a message."""
    options: dict[str, OptionValue] = {}
    for key in OPTION_KEYS:
        if key in query:
            try:
                options[key] = read_option_text(key, query.getlist(key)[-1][:40])
            except EngineError as exc:
                errors["options"] = exc.translated(_)
    return options


def preset_values(rules: str) -> RuleSet:
    """The values of a preset key (the legacy defaults for a key that is not a preset)."""
    return PRESETS[rules].values if rules in PRESETS else RuleSet()


def coupled_targets(rules: str) -> frozenset[str]:
    """The options a room switch of this preset sets with it (``Preset.couplings``): the form never carries them, they follow the switch."""
    couplings = PRESETS[rules].couplings if rules in PRESETS else {}
    return frozenset(key for by_value in couplings.values() for changes in by_value.values() for key in changes)


def _form_options(query: QueryDict, rules: str, options: dict[str, OptionValue], errors: dict[str, str]) -> dict[str, OptionValue]:
    """The options of a submitted form (``shown``: the preset whose room switches it showed, ``{% town_picker embedded=True %}``).

    When the preset was changed in the same submit, the old preset's switches are left out; else
    each switch is turned with its couplings (``Preset.switched``). Other options stay as given.
    """
    shown = query.get("shown", "")
    if rules not in PRESETS:
        return options
    chosen = PRESETS[rules]
    if shown != rules:
        old = set(PRESETS[shown].room) | coupled_targets(shown) if shown in PRESETS else set()
        return {key: value for key, value in options.items() if key not in old}
    try:
        values = chosen.switched({key: value for key, value in options.items() if key in chosen.room})
    except EngineError as exc:
        errors["options"] = exc.translated(_)
        return options
    targets = coupled_targets(rules)
    rest = {key: value for key, value in options.items() if key not in chosen.room and key not in targets}
    return {key: values.value(key) for key in OPTION_KEYS if values.value(key) != chosen.values.value(key)} | rest


def read_board(query: QueryDict, town: tuple[str, dict[str, OptionValue]] = ("standard", {})) -> Board:
    """The state a query string describes; unreadable parts become messages in ``errors``.

    ``town`` is the viewer's town (``accounts.selectors.request_town``: preset and options): a
    link with neither ``rules`` nor a hand (the analyzer opened afresh) starts from it. A link to a
    hand without ``rules`` is under the standard rules, as every link made before towns was.
    """
    errors: dict[str, str] = {}
    hand_text = query.get("hand", "").strip()
    visible_text = query.get("visible", "").strip()
    hand: Hand | None = None
    visible: Counts | None = None
    try:
        hand = parse_hand(check_text(hand_text, "hand"), "hand")
    except EngineError as exc:
        errors["hand"] = exc.translated(_)
    try:
        visible = parse_tiles(check_text(visible_text, "visible"), "visible")
    except EngineError as exc:
        errors["visible"] = exc.translated(_)
    situation = tuple(dict.fromkeys(s for item in query.getlist("situation") for s in item.split(",") if s))
    options = _options(query, errors)
    town_rules, town_options = town if town[0] in PRESETS else ("standard", {})
    if "rules" not in query and not hand_text:
        options = {**town_options, **options}
    rules = query.get("rules", town_rules if not hand_text else "standard")[:40]
    if "shown" in query:
        options = _form_options(query, rules, options, errors)
    mode = query.get("to", "hand")
    ev = read_flag(query.get("ev", "")) is True
    draws_text = query.get("draws", "").strip()[:10] or str(DEFAULT_DRAWS)
    draws = DEFAULT_DRAWS
    try:
        draws = check_draws(int(draws_text) if draws_text.isdecimal() else draws_text, 1)
    except EngineError as exc:
        if ev:
            errors["draws"] = draws_error(exc)
    revealed_texts = tuple(query.get(key, "").strip() for key in REVEALED_KEYS)
    base_text, base, piao = _stakes(query, errors)
    revealed = tuple(_revealed_hand(t, k, errors) for k, t in zip(REVEALED_KEYS, revealed_texts))
    rule_set = None
    try:
        rule_set = make_rules(rules, list(situation), options)
    except EngineError as exc:
        errors[exc.field] = exc.translated(_)
    return Board(
        hand_text=hand_text,
        hand=hand,
        visible_text=visible_text,
        visible=visible,
        rules=rules,
        situation=situation,
        options=options,
        mode=mode if mode in MODES else "hand",
        discard=query.get("discard", "")[:10],
        errors=errors,
        ev=ev,
        draws_text=draws_text,
        draws=draws,
        liang_dao_when_ready=read_flag(query.get("ldwr", "")) is True,
        revealed_texts=revealed_texts,
        revealed=revealed,
        base_text=base_text,
        base=base,
        piao=piao,
        rule_set=rule_set,
        table=read_request(query),
        town=(town_rules, tuple(town_options.items())),
    )


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
        return parse_hand(check_text(text, key, limit=MAX_REVEALED_TEXT), key)
    except EngineError as exc:
        errors[key] = exc.translated(_)
    return None


def _tile_kind(value: str) -> int | None:
    try:
        return parse_tile(value[:10], "tile")
    except EngineError:
        return None


def copies_left(board: Board, kind: int) -> int:
    """Copies of ``kind`` not yet on the board (hand, melds, visible tiles, revealed hands)."""
    return max(0, COPIES - board.seen[kind])


def refusal(board: Board, kind: int, mode: str) -> str:
    """Why a palette tap of ``kind`` in ``mode`` cannot be done now ('' if it can)."""
    hand = board.hand or Hand(EMPTY)
    left, name = copies_left(board, kind), tile_label(TILE_IDS[kind])
    size = 1 if mode == "hand" else 3
    if board.tile_count + size > MAX_TILES:
        return _("The hand is full: 14 tiles at most, each meld counting 3. Tap a tile in the hand to remove it.")
    if mode != "hand" and len(hand.melds) >= MAX_MELDS:
        return _("A hand has at most 4 melds.")
    need = 1 if mode == "hand" else MeldType(mode).size
    if left < need:
        return _("%(tile)s: %(need)d needed, %(left)d left (4 copies, counting the hand, its melds and the visible tiles).") % {
            "tile": name,
            "need": need,
            "left": left,
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
        return replace(board, hand=Hand(dealt), visible=board.visible or EMPTY, discard="", mode="hand", errors=_rule_errors(board))
    if any(key in query for key in TABLE_EDIT_KEYS) and not ("tadd" in query and board.table.target == "hand"):
        return replace(board, table=edit_table(board.table, query, board.seen))
    if hand is None or board.visible is None:
        return replace(board, notice=_("Correct the text first: it is not a hand yet."))
    if "remove_meld" in query:
        index = read_whole(query.get("remove_meld", ""))
        if index is not None and index < len(hand.melds):
            melds = hand.melds[:index] + hand.melds[index + 1 :]
            return replace(board, hand=Hand(hand.concealed, melds), discard="")
        return board
    for key in ("add", "remove_tile", "add_visible", "remove_visible", "tadd"):
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
            if not copies_left(board, kind):
                return replace(board, notice=_("All four %(tile)s are already used.") % {"tile": tile_label(TILE_IDS[kind])})
            return replace(board, visible=with_tile(board.visible, kind))
        mode = "hand" if key == "tadd" else board.mode  # a table tap aimed at the hand adds one tile
        refused = refusal(board, kind, mode)
        if refused:
            return replace(board, notice=refused)
        if mode == "hand":
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


def implied_rules(board: Board, has_hand: bool) -> tuple[str, RuleSet]:
    """What a link without ``rules`` means for this board: the standard rules for a hand, the viewer's town for an empty analyzer (preset, values)."""
    rules, options = ("standard", ()) if has_hand else board.town
    return rules, resolve(rules, dict(options))


def canonical_query(board: Board) -> str:
    """The shortest query string that gives this board again (texts in canonical notation)."""
    pairs: list[tuple[str, str]] = []
    hand_text = format_hand(board.hand) if board.hand is not None else board.hand_text
    visible_text = format_counts(board.visible) if board.visible is not None else board.visible_text
    if hand_text:
        pairs.append(("hand", hand_text))
    if visible_text:
        pairs.append(("visible", visible_text))
    implied, start = implied_rules(board, bool(hand_text))
    if board.rules != implied:
        pairs.append(("rules", board.rules))
        start = preset_values(board.rules)
    known = [s for s in SITUATION_ORDER if s in board.situation]
    pairs += [("situation", s) for s in known + [s for s in board.situation if s not in known]]
    for key in OPTION_KEYS:
        if key in board.options and board.options[key] != start.value(key):
            value = board.options[key]
            pairs.append((key, ("1" if value else "0") if isinstance(value, bool) else "none" if value is None else str(value)))
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
    pairs += board.table.pairs()
    return urlencode(pairs, safe="[]")


def discard_links(board: Board, base: str, discards: Iterable[str]) -> dict[str, str]:
    """The canonical link of each discard row of a 14-tile board (``canonical_query`` with that ``discard``), built once."""
    out: dict[str, str] = {}
    template: list[str] | None = None
    at = -1
    for tile in discards:
        if template is None:
            template = canonical_query(replace(board, discard=tile)).split("&")
            at = template.index(f"discard={tile}") if f"discard={tile}" in template else -1
            out[tile] = base + "?" + "&".join(template)
            continue
        if at < 0:
            out[tile] = base + "?" + canonical_query(replace(board, discard=tile))
            continue
        template[at] = f"discard={tile}"
        out[tile] = base + "?" + "&".join(template)
    return out


def draws_error(exc: EngineError) -> str:
    """What is wrong with the typed own draws, naming the page's field (the engine's message names the API's draws_left)."""
    if exc.field != "draws_left":
        return exc.translated(_)
    if "unseen" in exc.params:
        return (
            ngettext(
                "Own draws left: %(draws)d, but only %(unseen)d tile is unseen.",
                "Own draws left: %(draws)d, but only %(unseen)d tiles are unseen.",
                exc.params["unseen"],
            )
            % exc.params
        )
    return _("Own draws left must be a whole number from %(low)d to %(limit)d (your own draws still to come).") % exc.params


def board_url(board: Board, base: str = "") -> str:
    """The canonical link of a board: ``base`` (the analyzer's path by default) and its canonical query."""
    query = canonical_query(board)
    return (base or reverse("analyze")) + ("?" + query if query else "")


def analyzer_url(
    hand: str | Hand = "",
    *,
    visible: str = "",
    rules: str = "standard",
    situation: Iterable[str] = (),
    options: Mapping[str, OptionValue] | None = None,
    discard: str = "",
    ev: bool = False,
    draws: int = DEFAULT_DRAWS,
) -> str:
    """The analyzer's canonical link of a hand and its state: every link to the analyzer is built here.

    ``rules`` and ``options`` (those that differ from the preset, e.g. a player's town:
    ``accounts.selectors.Town.options``) go into the link, so it shows the same figures to anyone.
    """
    hand_value = hand if isinstance(hand, Hand) else parse_hand(hand)
    return board_url(
        Board(
            hand_text=format_hand(hand_value),
            hand=hand_value,
            visible=parse_tiles(visible),
            rules=rules,
            situation=tuple(dict.fromkeys(situation)),
            options=dict(options or {}),
            discard=discard,
            ev=ev,
            draws_text=str(draws),
            draws=draws,
        )
    )

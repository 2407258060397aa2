"""The settlement forms: a sheet's setup (players, base, a preset and its options) and one hand, turned into the engine's JSON form.

A hand form asks only what the rules use: horses (买马) where the rules buy them, the dice under 上楼,
the first declarer where a drawn hand's money depends on it, the three hands at a drawn hand under
查大叫, whether an 暗杠 was of tiles already held under option 33, 海底 where ``hai_di`` counts it, 漂
unless the rules play without. 坎, 跑恰摸八 and the 查大叫 best values are computed from the tiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from kwx import EngineError
from kwx.hand.money import buys_horses
from kwx.hand.scoring import situation_counts
from kwx.rules import LEGACY, OPTIONS, PRESETS, Option, OptionValue, RuleSet, label, read_option_text, resolve
from kwx.table.record import DEFAULT_PLAYERS
from kwx.table.settlement import MAX_BASE, MAX_NAME, PIAO_CHOICES, USER_SITUATION_KEYS, USER_SITUATIONS, WALL_TILES, double_win_partner, first_declarer_counts
from kwx_site.text import english, preset_label, preset_note

from .text import RESULT_LABELS, option_text

KONG_ROWS = 4
DEFAULT_NAMES = (_("Player A"), _("Player B"), _("Player C"))
KONG_LABELS = {"an_gang": _("暗杠 (concealed)"), "ming_gang": _("明杠 (added to a pong)"), "zhi_gang": _("直杠 (on a discard)")}
SITUATION_LABELS = {
    "gang_shang_kai_hua": _("杠上开花 (self-draw on a kong's replacement tile)"),
    "hai_di_lao": _("海底捞 (self-draw of the last tile)"),
    "gang_shang_pao": _("杠上炮 (discard right after the discarder's kong)"),
    "hai_di_pao": _("海底炮 (a win on the last discard)"),
}
FORM_RESULTS = ("draw", "self_draw", "discard", "double", "rob_kong")
"""The results a player picks (包胡 is not one: it follows from the 亮倒 boxes and the rules, and names the result afterwards)."""
DICE = [("", "—")] + [(n, str(n)) for n in range(1, 7)]
TEXT_ATTRS = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


def _seat(value: int | None) -> int | str:
    """A seat for the engine; an empty choice becomes "" so the engine's message says no player was chosen."""
    return "" if value is None else value


def _player_field(label: Any, blank: bool) -> forms.TypedChoiceField:
    choices = ([("", "—")] if blank else []) + [(i, str(n)) for i, n in enumerate(DEFAULT_NAMES)]
    return forms.TypedChoiceField(label=label, choices=choices, coerce=int, required=not blank, empty_value=None)


def _option_field(option: Option, value: OptionValue) -> forms.ChoiceField:
    """One rule option as a select: its values in words (``kwx.rules.OPTIONS``), its meaning as help."""
    en = english()
    return forms.ChoiceField(
        label=option.name_en if en else option.name,
        choices=[(option_text(v), option.label(v, en)) for v in option.values],
        initial=option_text(value),
        help_text=option.meaning_en if en else option.meaning,
    )


class SetupForm(forms.Form):
    """Three names, the base stake, and the rules: a preset, its room switches and (folded away) every other option.

    ``rules_shown`` is the preset whose options the form showed: when the posted preset differs (chosen
    without JavaScript), the posted options belong to the other preset and give way to the new one's.
    ``kept`` is a sheet's own preset and stored rules: its options start from them, not from the
    preset's current values.
    """

    name_0 = forms.CharField(label=_("Player 1"), max_length=MAX_NAME, initial=DEFAULT_NAMES[0])
    name_1 = forms.CharField(label=_("Player 2"), max_length=MAX_NAME, initial=DEFAULT_NAMES[1])
    name_2 = forms.CharField(label=_("Player 3"), max_length=MAX_NAME, initial=DEFAULT_NAMES[2])
    base = forms.IntegerField(label=_("Base stake (底金)"), min_value=1, max_value=MAX_BASE, initial=1)
    rules = forms.ChoiceField(label=_("Rules"), choices=[], initial="standard")
    rules_shown = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, preset_key: str = "standard", kept: tuple[str, RuleSet] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = [(key, preset_label(key)) for key in PRESETS]
        chosen = self.data.get("rules") if self.is_bound else None
        key = chosen if isinstance(chosen, str) and chosen in PRESETS else str(self.initial.get("rules") or preset_key)
        key = key if key in PRESETS else "standard"
        self.preset = PRESETS[key]
        self.start = kept[1] if kept is not None and kept[0] == key else self.preset.values
        self.initial.setdefault("rules", key)
        self.initial["rules_shown"] = key
        for option in OPTIONS:
            self.fields[f"opt_{option.key}"] = _option_field(option, self.start.value(option.key))
        self.rules_changed = self.is_bound and self.data.get("rules_shown") != key
        if self.rules_changed:  # options of another preset (or none at all): the chosen preset's own
            data = self.data.copy()
            for option in OPTIONS:
                data[f"opt_{option.key}"] = option_text(self.start.value(option.key))
            data["rules_shown"] = key
            self.data = data
        for coupled, (value, switch) in self._coupled(self._given()).items():  # set by a room switch: shown, not chosen
            field = self.fields[f"opt_{coupled}"]
            field.disabled, field.initial = True, option_text(value)
            field.help_text = _("Set with the room switch “%(switch)s”.") % {"switch": self.fields[f"opt_{switch}"].label}

    @property
    def preset_key(self) -> str:
        """The chosen preset (the posted one when it is a preset, else the initial one)."""
        return self.preset.key

    def _given(self) -> dict[str, OptionValue]:
        """Each option as the form holds it (the starting value where it holds none it can read)."""
        given: dict[str, OptionValue] = {}
        for option in OPTIONS:
            text = self.data.get(f"opt_{option.key}") if self.is_bound else None
            try:
                given[option.key] = read_option_text(option.key, text) if isinstance(text, str) else self.start.value(option.key)
            except EngineError:
                given[option.key] = self.start.value(option.key)
        return given

    def _coupled(self, given: dict[str, OptionValue]) -> dict[str, tuple[OptionValue, str]]:
        """The options a room switch sets with it (§3.3: 碰碰胡 → 杠上开花/杠上炮, 四归一 → 海底), each with its value and the switch."""
        out: dict[str, tuple[OptionValue, str]] = {}
        for key in self.preset.room:
            for coupled, value in self.preset.couplings.get(key, {}).get(given[key], {}).items():
                out[coupled] = (value, key)
        return out

    def rule_set(self) -> RuleSet:
        """The chosen preset with the room switches as set (and what they are coupled to), and any other option changed."""
        given = self._given()
        current = self.start
        for key in self.preset.room:
            if given[key] != self.start.value(key):
                current = self.preset.switch(current, key, given[key])
        coupled = self._coupled(given)
        changes = {key: value for key, value in given.items() if key not in self.preset.room and key not in coupled and value != self.start.value(key)}
        changes |= {key: value for key, (value, _switch) in coupled.items() if value != current.value(key)}
        return resolve(self.preset.key, {**current.as_dict(), **changes}) if changes else current

    def rules_label(self) -> str:
        """The rules by name, "孝感（改）" when an option differs from the preset."""
        return label(self.preset.key, self.rule_set(), english())

    def preset_note(self) -> str:
        """What the chosen preset plays (its note), in the active language."""
        return preset_note(self.preset.key)

    @property
    def preset_name(self) -> str:
        """The chosen preset's name in the active language."""
        return preset_label(self.preset.key)

    @property
    def room_changed(self) -> tuple[str, ...]:
        """The room switches set off the preset's value."""
        return tuple(key for key in self.preset.changed(self.rule_set()) if key in self.preset.room)

    def room_fields(self) -> list[forms.BoundField]:
        """The preset's room switches (town-rules.md §3.3), in §1 order."""
        return [self[f"opt_{key}"] for key in self.preset.room]

    def other_fields(self) -> list[dict[str, Any]]:
        """Every other option, each with whether it differs from the preset's value (and from the legacy one)."""
        chosen = self.rule_set()
        return [
            {"field": self[f"opt_{o.key}"], "changed": chosen.value(o.key) != self.preset.values.value(o.key), "legacy": chosen.value(o.key) == LEGACY.value(o.key)}
            for o in OPTIONS
            if o.key not in self.preset.room
        ]

    def names(self) -> list[str]:
        """The three names as typed (defaults where the form is unbound or invalid)."""
        data = self.cleaned_data if self.is_bound and hasattr(self, "cleaned_data") else {}
        return [str(data.get(f"name_{i}") or self.data.get(f"name_{i}") or DEFAULT_NAMES[i]).strip() for i in range(3)]


class SheetForm(SetupForm):
    """A new or edited score sheet: setup, first dealer and an optional title."""

    title = forms.CharField(label=_("Title"), max_length=60, required=False)
    first_dealer = forms.TypedChoiceField(label=_("Dealer of the first hand (庄)"), choices=[], coerce=int, initial=0, required=False, empty_value=0)

    def __init__(self, *args: Any, names: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        labels = [
            str(self.data.get(f"name_{i}") or "").strip() or (names[i] if names else str(DEFAULT_NAMES[i])) for i in range(3)
        ]  # the names as typed (a refused form shows them again), else the sheet's, else 甲 乙 丙
        self.fields["first_dealer"].choices = [(i, labels[i]) for i in range(3)]


class HandForm(forms.Form):
    """One hand: 漂 and 亮倒 per player, the result, the winner(s), up to four kongs, and what the rules ask beside them.

    ``rules`` decides which fields there are (a field the rules do not use is not on the form, so
    nothing posted for it is read); ``to_data`` leaves out what the result does not use.
    """

    result = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect, initial="self_draw", choices=[(k, _(RESULT_LABELS[k])) for k in FORM_RESULTS])
    winner = _player_field(_("Winner"), blank=True)
    discarder = _player_field(_("Discarded by (or kong robbed from)"), blank=True)
    hand = forms.CharField(label=_("Winner's hand (13 tiles, melds in brackets)"), max_length=200, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "4556p123s789sZZZ"}))
    tile = forms.CharField(label=_("Winning tile"), max_length=10, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "5p", "size": 4}))
    hand2 = forms.CharField(label=_("The other winner's hand (一炮双响)"), max_length=200, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "46p111s222s333sFF"}))
    situation = forms.MultipleChoiceField(label=_("How it was won"), required=False, widget=forms.CheckboxSelectMultiple, choices=[])

    def __init__(self, *args: Any, names: list[str] | None = None, rules: RuleSet = LEGACY, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.fields["situation"].choices = [(key, text) for key, text in SITUATION_LABELS.items() if key in USER_SITUATION_KEYS and situation_counts(key, rules)]
        for i in range(3):
            if rules.piao_mode != "off":
                self.fields[f"piao_{i}"] = forms.TypedChoiceField(label=_("漂"), choices=[(p, str(p)) for p in PIAO_CHOICES], coerce=int, initial=0)
            self.fields[f"liang_{i}"] = forms.BooleanField(label=_("亮倒"), required=False)
        if first_declarer_counts(rules):
            self.fields["liang_first"] = _player_field(_("Who declared 亮倒 first"), blank=True)
        if rules.buys_horses:
            count = rules.horse_count
            self.fields["horses"] = forms.CharField(
                label=_("Horse tiles turned"),
                max_length=40,
                required=False,
                widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "7s" if count == 1 else "2p3s9pZ4p7s"}),
                help_text=_("%(count)d tile(s) from the wall after the self-draw.") % {"count": count},
            )
            self.fields["wall_left"] = forms.IntegerField(
                label=_("Tiles left in the wall"),
                min_value=0,
                max_value=WALL_TILES,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                help_text=_("Only when the wall held fewer tiles than the horses."),
            )
        if rules.shang_lou:
            for d in (0, 1):
                self.fields[f"dice_{d}"] = forms.TypedChoiceField(label=_("Die %(n)d") % {"n": d + 1}, choices=DICE, coerce=int, required=False, empty_value=None)
        if rules.cha_da_jiao:
            for i in range(3):
                self.fields[f"hands_{i}"] = forms.CharField(label=_("Hand"), max_length=200, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "4556p123s789sZZZ"}))
        for row in range(KONG_ROWS):
            self.fields[f"kong_who_{row}"] = _player_field(_("Kong by"), blank=True)
            self.fields[f"kong_type_{row}"] = forms.ChoiceField(label=_("Type"), choices=list(KONG_LABELS.items()), initial="an_gang")
            self.fields[f"kong_tile_{row}"] = forms.CharField(label=_("Tile"), max_length=10, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "F", "size": 3}))
            self.fields[f"kong_fed_{row}"] = _player_field(_("Fed by (直杠)"), blank=True)
            self.fields[f"kong_chain_{row}"] = forms.BooleanField(label=_("杠上杠: right after the kong above"), required=False)
            if rules.an_gang_chain_drawn_only:
                self.fields[f"kong_held_{row}"] = forms.BooleanField(label=_("暗杠 of four tiles held before the draw (not the tile just drawn)"), required=False)
        if names:
            for name, field in self.fields.items():
                if name in ("winner", "discarder", "liang_first") or name.startswith(("kong_who_", "kong_fed_")):
                    field.choices = [(v, names[v] if isinstance(v, int) else label) for v, label in field.choices]
        self.names = names or [str(n) for n in DEFAULT_NAMES]

    def players(self) -> list[dict[str, Any]]:
        """Per player: name and its 漂 (None when the rules play without) and 亮倒 fields, and its hand at a drawn hand under 查大叫."""
        return [
            {
                "name": self.names[i],
                "piao": self[f"piao_{i}"] if f"piao_{i}" in self.fields else None,
                "liang": self[f"liang_{i}"],
                "hand": self[f"hands_{i}"] if f"hands_{i}" in self.fields else None,
                "seat": i,
            }
            for i in range(3)
        ]

    def kong_rows(self) -> list[dict[str, Any]]:
        """Per kong row: its bound fields, for the template."""
        keys = ("who", "type", "tile", "fed", "chain", "held")
        return [{key: self[f"kong_{key}_{row}"] for key in keys if f"kong_{key}_{row}" in self.fields} | {"number": row + 1} for row in range(KONG_ROWS)]

    def field_or_none(self, name: str) -> forms.BoundField | None:
        """A field the rules may leave out (None when they do)."""
        return self[name] if name in self.fields else None

    def dice(self) -> list[forms.BoundField]:
        """The two dice under 上楼 (none otherwise)."""
        return [self[f"dice_{d}"] for d in (0, 1) if f"dice_{d}" in self.fields]

    def declared(self) -> list[int]:
        """Who declared 亮倒, in the order they declared: the first declarer first (when the rules ask), the others by seat."""
        d = self.cleaned_data
        seats = [i for i in range(3) if d[f"liang_{i}"]]
        first = d.get("liang_first")
        return [first] + [s for s in seats if s != first] if first in seats else seats

    def to_data(self) -> dict[str, Any]:
        """The hand in the engine's JSON form, players by seat (call after is_valid); what the rules or the result do not use is left out."""
        d = self.cleaned_data
        result = d["result"]
        kind = "discard" if result == "double" else result
        data: dict[str, Any] = {
            "piao": [d.get(f"piao_{i}", 0) for i in range(3)],
            "liang_dao": self.declared(),
            "result": kind,
            "kongs": self._kongs(),
        }
        dice = [d.get(f"dice_{n}") for n in (0, 1)]
        if None not in dice:
            data["dice"] = dice
        if kind in ("discard", "rob_kong") and d["discarder"] is not None:
            data["discarder"] = d["discarder"]
        if kind == "draw":
            data["winners"] = []
            if "hands_0" in self.fields:
                data["hands"] = [d[f"hands_{i}"].strip() for i in range(3)]
            return data
        fitting = [s for s in d["situation"] if s in USER_SITUATIONS[kind]]
        winners = [{"player": _seat(d["winner"]), "hand": d["hand"], "tile": d["tile"], "situation": fitting}]
        other = double_win_partner(d["winner"], d["discarder"]) if None not in (d["winner"], d["discarder"]) else None
        if result == "double" and other is not None:
            winners.append({"player": other, "hand": d["hand2"], "tile": d["tile"], "situation": fitting})
        data["winners"] = winners
        if kind == "self_draw" and "horses" in self.fields and buys_horses(self.rules, True, d["winner"] in data["liang_dao"]):
            data["horses"] = d["horses"].strip()
            if d["wall_left"] is not None:
                data["wall_left"] = d["wall_left"]
        return data

    def _kongs(self) -> list[dict[str, Any]]:
        d = self.cleaned_data
        kongs: list[dict[str, Any]] = []
        for row in range(KONG_ROWS):
            if d[f"kong_who_{row}"] is None and not d[f"kong_tile_{row}"].strip():
                continue
            kong: dict[str, Any] = {"who": _seat(d[f"kong_who_{row}"]), "type": d[f"kong_type_{row}"], "tile": d[f"kong_tile_{row}"]}
            if d[f"kong_fed_{row}"] is not None and kong["type"] == "zhi_gang":
                kong["fed_by"] = d[f"kong_fed_{row}"]
            if d[f"kong_chain_{row}"] and kongs:
                kong["chain"] = kongs[-1].get("chain", 1) + 1
            if d.get(f"kong_held_{row}") and kong["type"] == "an_gang":
                kong["drawn"] = False
            kongs.append(kong)
        return kongs

    @staticmethod
    def initial_from(data: dict[str, Any]) -> dict[str, Any]:
        """Form initial values from a stored hand (the reverse of ``to_data``)."""
        initial: dict[str, Any] = {"result": data.get("result", "draw")}
        declared = data.get("liang_dao") or []
        for i in range(3):
            initial[f"piao_{i}"] = (data.get("piao") or [0, 0, 0])[i]
            initial[f"liang_{i}"] = i in declared
        if declared:
            initial["liang_first"] = declared[0]
        winners = data.get("winners") or []
        if len(winners) == 2 and data.get("result") == "discard":
            initial["result"] = "double"
            initial["hand2"] = winners[1].get("hand", "")
        if winners:
            first = winners[0]
            initial.update(winner=first.get("player"), hand=first.get("hand", ""), tile=first.get("tile", ""), situation=first.get("situation", []))
        if data.get("discarder") is not None:
            initial["discarder"] = data["discarder"]
        horses = data.get("horses")
        if horses:
            initial["horses"] = horses if isinstance(horses, str) else "".join(horses)
        if data.get("wall_left") is not None:
            initial["wall_left"] = data["wall_left"]
        for n, die in enumerate(data.get("dice") or []):
            initial[f"dice_{n}"] = die
        for i, text in enumerate(data.get("hands") or []):
            initial[f"hands_{i}"] = text if isinstance(text, str) else ""
        for row, kong in enumerate((data.get("kongs") or [])[:KONG_ROWS]):
            initial.update(
                {
                    f"kong_who_{row}": kong.get("who"),
                    f"kong_type_{row}": kong.get("type"),
                    f"kong_tile_{row}": kong.get("tile", ""),
                    f"kong_fed_{row}": kong.get("fed_by"),
                    f"kong_chain_{row}": kong.get("chain", 1) > 1,
                    f"kong_held_{row}": kong.get("drawn", True) is False,
                }
            )
        return initial


def _meld_text(meld: Mapping[str, Any]) -> str:
    """A meld object in the hand notation: [ZZZ] 碰, [ZZZZ] 明杠 or 直杠, {9999p} 暗杠."""
    tile = str(meld["tile"])
    body = tile[0] * (3 if meld["type"] == "pong" else 4) + tile[1:]
    return "{" + body + "}" if meld["type"] == "concealed_kong" else f"[{body}]"


def _hand_text(item: Mapping[str, Any]) -> str:
    return str(item["hand"]) + "".join(_meld_text(m) for m in item.get("melds") or ())


def calculator_fields(hand: Mapping[str, Any], names: tuple[str, ...] | list[str] = DEFAULT_PLAYERS) -> dict[str, Any]:
    """A hand in the vectors' form (town-rules.md §6: seats by number, melds as objects) as the calculator's fields, every one as a player fills it in.

    ``reverse("settle") + "?" + urlencode(calculator_fields(hand), doseq=True)`` opens the hand in the calculator, settled.
    """
    rules = str(hand.get("rules", "standard"))
    values = resolve(rules, hand.get("options"))
    fields: dict[str, Any] = {f"name_{i}": names[i] for i in range(3)} | {"base": str(hand.get("base", 1)), "rules": rules, "rules_shown": rules}
    fields |= {f"opt_{o.key}": option_text(values.value(o.key)) for o in OPTIONS}
    fields |= {f"piao_{i}": str(p) for i, p in enumerate(hand.get("piao") or (0, 0, 0))}
    declared = list(hand.get("liang_dao") or ())
    fields |= {f"liang_{seat}": "on" for seat in declared}
    if declared:
        fields["liang_first"] = str(declared[0])
    winners = list(hand.get("winners") or ())
    fields["result"] = "double" if len(winners) == 2 else str(hand.get("result", "draw"))
    if hand.get("discarder") is not None:
        fields["discarder"] = str(hand["discarder"])
    if winners:
        first = winners[0]
        fields |= {"winner": str(first["seat"]), "hand": _hand_text(first), "tile": first["tile"], "situation": list(first.get("situation") or ())}
    if len(winners) == 2:
        fields["hand2"] = _hand_text(winners[1])
    if hand.get("horses"):
        horses = hand["horses"]
        fields["horses"] = horses if isinstance(horses, str) else "".join(horses)
    if hand.get("wall_left") is not None:
        fields["wall_left"] = str(hand["wall_left"])
    for n, die in enumerate(hand.get("dice") or ()):
        fields[f"dice_{n}"] = str(die)
    for i, player in enumerate(hand.get("players") or ()):
        fields[f"hands_{i}"] = _hand_text(player)
    for row in range(KONG_ROWS):
        fields[f"kong_type_{row}"] = "an_gang"
    for row, kong in enumerate(list(hand.get("kongs") or ())[:KONG_ROWS]):
        fields |= {f"kong_who_{row}": str(kong["seat"]), f"kong_type_{row}": kong["type"], f"kong_tile_{row}": kong["tile"]}
        if kong.get("fed_by") is not None:
            fields[f"kong_fed_{row}"] = str(kong["fed_by"])
        if kong.get("chain", 1) > 1:
            fields[f"kong_chain_{row}"] = "on"
        if kong.get("drawn") is False:
            fields[f"kong_held_{row}"] = "on"
    return fields

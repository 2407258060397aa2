"""The settlement forms: a sheet's setup (players, base, rules) and one hand, turned into the engine's JSON form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from kwx.rules import PRESETS
from kwx.table.settlement import MAX_BASE, MAX_NAME, PIAO_CHOICES, USER_SITUATIONS, double_win_partner
from kwx_site.text import preset_label

from .text import RESULT_LABELS

KONG_ROWS = 4
DEFAULT_NAMES = (_("Player A"), _("Player B"), _("Player C"))
KONG_LABELS = {"an_gang": _("暗杠 (concealed)"), "ming_gang": _("明杠 (added to a pong)"), "zhi_gang": _("直杠 (on a discard)")}
SITUATION_LABELS = {
    "gang_shang_kai_hua": _("杠上开花 (self-draw on a kong's replacement tile)"),
    "hai_di_lao": _("海底捞 (self-draw of the last tile)"),
    "gang_shang_pao": _("杠上炮 (discard right after the discarder's kong)"),
}
TEXT_ATTRS = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"}


def _seat(value: int | None) -> int | str:
    """A seat for the engine; an empty choice becomes "" so the engine's message says no player was chosen."""
    return "" if value is None else value


def _player_field(label: Any, blank: bool) -> forms.TypedChoiceField:
    choices = ([("", "—")] if blank else []) + [(i, str(n)) for i, n in enumerate(DEFAULT_NAMES)]
    return forms.TypedChoiceField(label=label, choices=choices, coerce=int, required=not blank, empty_value=None)


class SetupForm(forms.Form):
    """Three names, the base stake and the town's rules."""

    name_0 = forms.CharField(label=_("Player 1"), max_length=MAX_NAME, initial=DEFAULT_NAMES[0])
    name_1 = forms.CharField(label=_("Player 2"), max_length=MAX_NAME, initial=DEFAULT_NAMES[1])
    name_2 = forms.CharField(label=_("Player 3"), max_length=MAX_NAME, initial=DEFAULT_NAMES[2])
    base = forms.IntegerField(label=_("Base stake (底金)"), min_value=1, max_value=MAX_BASE, initial=1)
    rules = forms.ChoiceField(label=_("Rules"), choices=[], initial="standard")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = [(key, preset_label(key)) for key in PRESETS]

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
    """One hand: 漂 and 亮倒 per player, the result, the winner(s) and up to four kongs."""

    result = forms.ChoiceField(label=_("Result"), widget=forms.RadioSelect, initial="self_draw", choices=[(k, _(v)) for k, v in RESULT_LABELS.items()])
    winner = _player_field(_("Winner"), blank=True)
    discarder = _player_field(_("Discarded by (or kong robbed from)"), blank=True)
    hand = forms.CharField(label=_("Winner's hand (13 tiles, melds in brackets)"), max_length=200, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "4556p123s789sZZZ"}))
    tile = forms.CharField(label=_("Winning tile"), max_length=10, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "5p", "size": 4}))
    hand2 = forms.CharField(label=_("The other winner's hand (一炮双响)"), max_length=200, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "46p111s222s333sFF"}))
    situation = forms.MultipleChoiceField(label=_("How it was won"), required=False, widget=forms.CheckboxSelectMultiple, choices=list(SITUATION_LABELS.items()))

    def __init__(self, *args: Any, names: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(3):
            self.fields[f"piao_{i}"] = forms.TypedChoiceField(label=_("漂"), choices=[(p, str(p)) for p in PIAO_CHOICES], coerce=int, initial=0)
            self.fields[f"liang_{i}"] = forms.BooleanField(label=_("亮倒"), required=False)
        for row in range(KONG_ROWS):
            self.fields[f"kong_who_{row}"] = _player_field(_("Kong by"), blank=True)
            self.fields[f"kong_type_{row}"] = forms.ChoiceField(label=_("Type"), choices=list(KONG_LABELS.items()), initial="an_gang")
            self.fields[f"kong_tile_{row}"] = forms.CharField(label=_("Tile"), max_length=10, required=False, widget=forms.TextInput(attrs={**TEXT_ATTRS, "placeholder": "F", "size": 3}))
            self.fields[f"kong_fed_{row}"] = _player_field(_("Fed by (直杠)"), blank=True)
            self.fields[f"kong_chain_{row}"] = forms.BooleanField(label=_("杠上杠: right after the kong above"), required=False)
        if names:
            for name, field in self.fields.items():
                if name in ("winner", "discarder") or name.startswith(("kong_who_", "kong_fed_")):
                    field.choices = [(v, names[v] if isinstance(v, int) else label) for v, label in field.choices]
        self.names = names or [str(n) for n in DEFAULT_NAMES]

    def players(self) -> list[dict[str, Any]]:
        """Per player: name and its 漂 and 亮倒 fields, for the template."""
        return [{"name": self.names[i], "piao": self[f"piao_{i}"], "liang": self[f"liang_{i}"], "seat": i} for i in range(3)]

    def kong_rows(self) -> list[dict[str, Any]]:
        """Per kong row: its bound fields, for the template."""
        return [{key: self[f"kong_{key}_{row}"] for key in ("who", "type", "tile", "fed", "chain")} | {"number": row + 1} for row in range(KONG_ROWS)]

    def to_data(self) -> dict[str, Any]:
        """The hand in the engine's JSON form, players by seat (call after is_valid)."""
        d = self.cleaned_data
        result = d["result"]
        kind = "discard" if result == "double" else result
        data: dict[str, Any] = {
            "piao": [d[f"piao_{i}"] for i in range(3)],
            "liang_dao": [i for i in range(3) if d[f"liang_{i}"]],
            "result": kind,
            "kongs": self._kongs(),
        }
        if kind in ("discard", "rob_kong") and d["discarder"] is not None:
            data["discarder"] = d["discarder"]
        if kind == "draw":
            data["winners"] = []
            return data
        fitting = [s for s in d["situation"] if s in USER_SITUATIONS[kind]]
        winners = [{"player": _seat(d["winner"]), "hand": d["hand"], "tile": d["tile"], "situation": fitting}]
        other = double_win_partner(d["winner"], d["discarder"]) if None not in (d["winner"], d["discarder"]) else None
        if result == "double" and other is not None:
            winners.append({"player": other, "hand": d["hand2"], "tile": d["tile"], "situation": fitting})
        data["winners"] = winners
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
            kongs.append(kong)
        return kongs

    @staticmethod
    def initial_from(data: dict[str, Any]) -> dict[str, Any]:
        """Form initial values from a stored hand (the reverse of ``to_data``)."""
        initial: dict[str, Any] = {"result": data.get("result", "draw")}
        for i in range(3):
            initial[f"piao_{i}"] = (data.get("piao") or [0, 0, 0])[i]
            initial[f"liang_{i}"] = i in (data.get("liang_dao") or [])
        winners = data.get("winners") or []
        if len(winners) == 2 and data.get("result") == "discard":
            initial["result"] = "double"
            initial["hand2"] = winners[1].get("hand", "")
        if winners:
            first = winners[0]
            initial.update(winner=first.get("player"), hand=first.get("hand", ""), tile=first.get("tile", ""), situation=first.get("situation", []))
        if data.get("discarder") is not None:
            initial["discarder"] = data["discarder"]
        for row, kong in enumerate((data.get("kongs") or [])[:KONG_ROWS]):
            initial.update(
                {
                    f"kong_who_{row}": kong.get("who"),
                    f"kong_type_{row}": kong.get("type"),
                    f"kong_tile_{row}": kong.get("tile", ""),
                    f"kong_fed_{row}": kong.get("fed_by"),
                    f"kong_chain_{row}": kong.get("chain", 1) > 1,
                }
            )
        return initial

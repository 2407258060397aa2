"""settlement pages: the calculator (结算) and game-night score sheets (list, sheet, hands, CSV)."""

from __future__ import annotations

import csv
import re
import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.selectors import request_player
from accounts.services import player_for
from kwx import EngineError
from kwx.hand.tiles import TILE_IDS
from kwx.rules import PRESETS
from kwx.table.settlement import Settlement, parse_input, settle
from kwx_site.drawing import drawn_hand
from kwx_site.htmx import render_page, wants_fragment
from kwx_site.shortcuts import found

from .forms import KONG_ROWS, HandForm, SetupForm, SheetForm
from .models import ScoreSheet
from .selectors import SheetTable, default_preset, get_hand, get_sheet, sheet_table, sheets_for
from .services import add_hand, create_sheet, delete_hand, delete_sheet, edit_hand, full_input, update_sheet
from .text import error_text, kind_text, payment_words, ready_rows, result_label, rules_label, rules_rows

TEMPLATES = "settlement/"
FORM_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,36}")
"""A hand form's token (``hand_form`` makes a uuid4 hex)."""


def _sheet(request: HttpRequest, sheet_id: int) -> ScoreSheet:
    """The visitor's sheet, or 404 (also for another player's sheet)."""
    return found(get_sheet(request_player(request), sheet_id), "No such score sheet.")


def present(result: Settlement) -> dict[str, Any]:
    """A settlement as the templates show it: wins with tiles and fans, payments with their kind and reasons, 查大叫 standings, nets."""
    names = result.input.players
    wins = []
    for win, extras in zip(result.wins, result.extras or [None] * len(result.wins)):
        wins.append(
            {
                "player": names[win.seat],
                "side": win.side,
                "fans": [{"key": h.key, "multiplier": h.multiplier, "tile": TILE_IDS[h.kind] if h.kind is not None else ""} for h in win.value.fans],
                "total": win.value.total,
                "capped": win.value.product > win.value.total,
                "product": win.value.product,
                "value": win.amount(result.input.base),
                "tiles": drawn_hand(win.hand),
                "tile": TILE_IDS[win.kind],
                "kan": extras.kan if extras is not None else None,
            }
        )
    return {
        "label": result_label(result),
        "rules": rules_label(result.input.rules, result.rules),
        "wins": wins,
        "ready": ready_rows(result),
        "payments": [{"payer": names[p.payer], "payee": names[p.payee], "amount": p.amount, "kind": p.kind, "kind_text": kind_text(p), "parts": payment_words(result, p)} for p in result.payments],
        "nets": [{"name": names[i], "net": result.nets[i]} for i in range(3)],
    }


def form_error(*forms: Any) -> str:
    """The first field error of some bound forms, as "label: message" ("" when all are valid)."""
    for form in forms:
        if not form.is_valid():
            name, errors = next(iter(form.errors.items()))
            label = form.fields[name].label if name in form.fields else ""
            return f"{label}: {errors[0]}" if label else str(errors[0])
    return ""


def _settle_form(setup: SetupForm, form: HandForm) -> tuple[dict[str, Any] | None, str]:
    """Settle a bound calculator form: (presented result, "") or (None, what is wrong)."""
    problem = form_error(setup, form)
    if problem:
        return None, problem
    data = {**form.to_data(), "players": setup.names(), "base": setup.cleaned_data["base"], "rules": setup.preset_key, "options": setup.rule_set().as_dict()}
    try:
        return present(settle(parse_input(data))), ""
    except EngineError as exc:
        return None, error_text(exc)


def _kongs_given(form: HandForm) -> bool:
    """Whether any kong row is filled in (the kong section then starts open)."""
    source = form.data if form.is_bound else form.initial
    return any(source.get(f"kong_tile_{row}") for row in range(KONG_ROWS))


def _error_text(error: EngineError | None) -> str:
    return error_text(error) if error is not None else ""


def _fragment(request: HttpRequest, target: str, partial: str, default: str | None) -> str | None:
    """The partial an htmx request asks for: ``partial`` when it targets ``#target`` (the rules changed), else ``default``."""
    htmx = getattr(request, "htmx", None)
    return partial if htmx and htmx.target == target else default


@require_http_methods(["GET", "POST"])
def calculator(request: HttpRequest) -> HttpResponse:
    """One hand under a preset and its switches: the form (asking only what those rules use), and after POST, or live with htmx, its payments and nets.

    A GET with the form's fields (``calculator_fields``: a worked example's link) opens the hand filled in and settled.

    Changing the rules re-renders the whole calculator (htmx target ``#st-calc``), since the fields they ask for change with them.
    """
    asked = request.GET.get("rules", "")
    start = asked if asked in PRESETS else default_preset(player=request_player(request))  # a link's rules, else the player's town
    data = request.POST if request.method == "POST" else request.GET if "result" in request.GET else None
    if data is not None:
        setup = SetupForm(data, preset_key=start)
        form = HandForm(data, names=setup.names(), rules=setup.rule_set())
        result, error = _settle_form(setup, form)
    else:
        setup = SetupForm(preset_key=start)
        form = HandForm(names=setup.names(), rules=setup.rule_set())
        result, error = None, ""
    players = [p | {"name_field": setup[f"name_{p['seat']}"]} for p in form.players()]
    context = {"setup": setup, "form": form, "players": players, "result": result, "error": error, "kongs_open": _kongs_given(form), "rules_open": setup.rules_changed and bool(setup.preset.room)}
    partial = _fragment(request, "st-calc", "calc", "result" if request.method == "POST" else None)
    return render_page(request, TEMPLATES + "calculator.html", partial, context)


@require_http_methods(["GET", "POST"])
def sheet_list(request: HttpRequest) -> HttpResponse:
    """The visitor's sheets, and the form to start one (under a preset and its switches).

    A preset chosen without JavaScript shows its switches first (the sheet is not started with switches its table never saw).
    """
    player = request_player(request)
    form = SheetForm(request.POST or None, preset_key=default_preset(player=player))
    error = ""
    partial = _fragment(request, "st-rules", "rules", None)
    if request.method == "POST" and partial is None and form.is_valid() and not (form.rules_changed and form.preset.room):
        d = form.cleaned_data
        try:
            sheet = create_sheet(
                player=lambda: player_for(request),
                players=form.names(),
                base=d["base"],
                rules=form.preset_key,
                options=form.rule_set(),
                first_dealer=d["first_dealer"],
                title=d["title"],
            )
        except EngineError as exc:
            error = error_text(exc)
        else:
            return redirect("settle-sheet", sheet_id=sheet.pk)
    sheets = [{"sheet": s, "rules": rules_label(s.rules, s.rule_set)} for s in sheets_for(player)]
    return render_page(request, TEMPLATES + "sheet_list.html", partial, {"form": form, "sheets": sheets, "error": error})


def _table_context(table: SheetTable) -> dict[str, Any]:
    """Rows of a sheet for the template: result words, winners, nets and running totals per player."""
    sheet = table.sheet
    names = sheet.players
    rows = []
    for row in table.rows:
        result = row.settlement
        rows.append(
            {
                "row": row,
                "label": result_label(result) if result else "",
                "winners": [{"name": names[w.seat], "total": w.value.total} for w in result.wins] if result else [],
                "discarder": names[result.input.discarder] if result and result.input.discarder is not None else "",
                "dealer": names[row.dealer],
                "cells": [{"net": row.nets[i], "total": row.totals[i]} for i in range(3)],
                "error": _error_text(row.error),
            }
        )
    total_cells = [{"name": names[i], "total": table.totals[i], "dealer": i == table.next_dealer} for i in range(3)]
    return {"sheet": sheet, "names": names, "rows": rows, "total_cells": total_cells, "next_dealer": names[table.next_dealer], "rules": rules_label(sheet.rules, sheet.rule_set)}


def sheet_detail(request: HttpRequest, sheet_id: int) -> HttpResponse:
    """A game night: hands, running totals, the next dealer."""
    sheet = _sheet(request, sheet_id)
    return render(request, TEMPLATES + "sheet.html", _table_context(sheet_table(sheet)))


@require_http_methods(["GET", "POST"])
def sheet_edit(request: HttpRequest, sheet_id: int) -> HttpResponse:
    """Rename players, change the base, the rules (the sheet's own options kept while its preset stays) or first dealer (totals follow)."""
    sheet = _sheet(request, sheet_id)
    initial = {f"name_{i}": sheet.players[i] for i in range(3)} | {
        "base": sheet.base,
        "rules": sheet.rules,
        "first_dealer": sheet.first_dealer,
        "title": sheet.title,
    }
    form = SheetForm(request.POST or None, initial=initial, names=sheet.players, kept=(sheet.rules, sheet.rule_set))
    error = ""
    partial = _fragment(request, "st-rules", "rules", None)
    if request.method == "POST" and partial is None and form.is_valid() and not (form.rules_changed and form.preset.room):
        d = form.cleaned_data
        try:
            update_sheet(sheet=sheet, players=form.names(), base=d["base"], rules=form.preset_key, options=form.rule_set(), first_dealer=d["first_dealer"], title=d["title"])
        except EngineError as exc:
            error = error_text(exc)
        else:
            return redirect("settle-sheet", sheet_id=sheet.pk)
    return render_page(request, TEMPLATES + "sheet_edit.html", partial, {"form": form, "sheet": sheet, "error": error})


@require_POST
def sheet_delete(request: HttpRequest, sheet_id: int) -> HttpResponse:
    """Delete a whole sheet."""
    delete_sheet(sheet=_sheet(request, sheet_id))
    return redirect("settle-sheets")


@require_http_methods(["GET", "POST"])
def hand_form(request: HttpRequest, sheet_id: int, hand_id: int | None = None) -> HttpResponse:
    """Add a hand to a sheet, or edit one: preview live (htmx) or with the Preview button, then save."""
    sheet = _sheet(request, sheet_id)
    hand = found(get_hand(sheet, hand_id), "No such hand.") if hand_id is not None else None
    names = list(sheet.players)
    result, error = None, ""
    if request.method == "POST":
        form = HandForm(request.POST, names=names, rules=sheet.rule_set)
        token = request.POST.get("token", "")
        if not FORM_TOKEN.fullmatch(token):  # what the form sends (a uuid4 hex); anything else, a NUL say, never reaches the database
            token = ""
        error = form_error(form)
        if not error:
            data = form.to_data()
            try:
                result = present(settle(parse_input(full_input(sheet, data))))
                if request.POST.get("action") == "save" and not wants_fragment(request):
                    if hand is None:
                        add_hand(sheet=sheet, data=data, token=token)
                    else:
                        edit_hand(sheet=sheet, hand_id=hand.pk, data=data)
                    return redirect(reverse("settle-sheet", args=[sheet.pk]) + "#totals")
            except EngineError as exc:
                error = error_text(exc)
    else:
        initial = HandForm.initial_from(hand.data) if hand else _next_hand_initial(sheet)
        form = HandForm(initial=initial, names=names, rules=sheet.rule_set)
        token = uuid.uuid4().hex
    number = _hand_number(sheet, hand)
    context = {
        "sheet": sheet,
        "rules": rules_label(sheet.rules, sheet.rule_set),
        "hand": hand,
        "form": form,
        "players": form.players(),
        "result": result,
        "error": error,
        "token": token,
        "number": number,
        "kongs_open": _kongs_given(form),
        "piao_carried": _piao_carried(form, names, number) if hand is None and request.method == "GET" else None,
    }
    return render_page(request, TEMPLATES + "hand_form.html", "result" if request.method == "POST" else None, context)


def _hand_number(sheet: Any, hand: Any) -> int:
    """The hand's place on the sheet (1-based); the next number for a new hand."""
    ids = list(sheet.hands.values_list("pk", flat=True))
    return ids.index(hand.pk) + 1 if hand is not None else len(ids) + 1


def _next_hand_initial(sheet: Any) -> dict[str, Any]:
    """A new hand starts with the 漂 of the last one (players rarely change it mid-night)."""
    last = sheet.hands.last()
    piao = (last.data.get("piao") if last else None) or [0, 0, 0]
    return {f"piao_{i}": piao[i] for i in range(3)} | {"result": "self_draw"}


def _piao_carried(form: HandForm, names: list[str], number: int) -> dict[str, Any] | None:
    """The 漂 a new hand took over from the one before, said out loud (None when everyone is at 0)."""
    piao = [form.initial.get(f"piao_{i}", 0) for i in range(3)]
    if not any(piao):
        return None
    return {"number": number - 1, "values": " · ".join(f"{names[i]} {piao[i]}" for i in range(3))}


@require_POST
def hand_delete(request: HttpRequest, sheet_id: int, hand_id: int) -> HttpResponse:
    """Remove a hand from a sheet."""
    sheet = _sheet(request, sheet_id)
    delete_hand(sheet=sheet, hand_id=hand_id)
    return redirect(reverse("settle-sheet", args=[sheet.pk]) + "#totals")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet program may read as the start of a formula in a text cell."""


def csv_cell(value: Any) -> Any:
    """A CSV cell that no spreadsheet runs as a formula: text starting like one gets a leading apostrophe (numbers stay numbers)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def sheet_csv(request: HttpRequest, sheet_id: int) -> HttpResponse:
    """The sheet as CSV: one row a hand, each player's net and running total; then the totals, the next dealer, and the rules it is played under."""
    table = sheet_table(_sheet(request, sheet_id))
    names = table.sheet.players
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="kwx-sheet-{table.sheet.pk}.csv"'
    response.write("\ufeff")  # so spreadsheet programs read the Chinese names as UTF-8
    writer = csv.writer(response)
    this_hand, running = _("this hand"), _("running total")
    rows = [[_("Round"), _("Dealer"), _("Result"), _("Winners")] + [f"{n} {this_hand}" for n in names] + [f"{n} {running}" for n in names]]
    for row in table.rows:
        result = row.settlement
        if result is None:
            label, winners = "", _error_text(row.error)
        else:
            label, winners = result_label(result), " ".join(f"{names[w.seat]} ×{w.value.total}" for w in result.wins)
        rows.append([row.number, names[row.dealer], label, winners] + list(row.nets) + list(row.totals))
    blank = [""] * 3
    rows.append([_("Total"), "", "", ""] + blank + list(table.totals))  # the totals under the running-total columns
    rows.append([_("Next hand"), names[table.next_dealer], "", ""] + blank + blank)  # its dealer under "Dealer"
    rows.append([])
    rows.extend(rules_rows(table.sheet.rules, table.sheet.rule_set))  # the town: its name ("孝感（改）") and every option off its legacy value
    writer.writerows([csv_cell(cell) for cell in cells] for cells in rows)
    return response

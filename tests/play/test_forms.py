"""The play forms: what the start form, a move and an upload take in, and how a refusal names its field."""

from __future__ import annotations

import json

import pytest
from django.http import QueryDict
from django.test import Client
from django.utils import translation

from analysis import records
from kwx.bots.basic import BasicBot
from kwx.bots.strong import StrongBot
from kwx.table.selfplay import play, seeded_deal
from play.forms import ChoiceForm, MoveForm, NextHandForm, StartForm, UploadForm
from play.models import Hand

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "field,values",
    [
        ("level", ("expert", "standard", "1", "0")),
        ("level", ("advice", "standard", "1", "0")),
        ("rules", ("basic", "riichi", "1", "0")),
        ("base", ("basic", "standard", "0", "0")),
        ("base", ("basic", "standard", "²", "0")),
        ("piao", ("basic", "standard", "1", "3")),
    ],
)
def test_bad_settings_name_their_field(field, values):
    form = StartForm(dict(zip(("level", "rules", "base", "piao"), values)))
    assert not form.is_valid() and set(form.first_errors()) == {field}


def test_good_settings_are_the_services_values():
    form = StartForm({"level": "strong", "rules": "standard", "base": "2", "piao": "5"})
    assert form.is_valid() and form.cleaned_data == {"level": "strong", "rules": "standard", "base": 2, "piao": 5, "options": {}}


def test_a_town_and_its_room_switches_are_read_as_the_picker_posts_them():
    """The embedded picker posts the preset, the preset it showed and each switch (a checkbox's hidden 0 before its 1)."""
    form = StartForm(QueryDict("level=basic&rules=xiaogan&shown=xiaogan&base=1&piao=0&shu_kan=0&dui_liang_dui_fan=0&dui_liang_dui_fan=1&cap=8"))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["options"] == {"shu_kan": False, "dui_liang_dui_fan": True, "cap": 8}


def test_switches_of_a_preset_no_longer_shown_are_left_out():
    """The preset was changed in the same submit (no JavaScript to show the new one's switches): the new preset starts from its own values."""
    form = StartForm(QueryDict("level=basic&rules=suizhou&shown=xiaogan&base=1&piao=0&shu_kan=0"))
    assert form.is_valid() and form.cleaned_data["options"] == {}


def test_a_switch_value_the_option_does_not_take_names_the_rules():
    form = StartForm(QueryDict("level=basic&rules=xiaogan&shown=xiaogan&base=1&piao=0&cap=7"))
    assert not form.is_valid() and set(form.first_errors()) == {"rules"} and "cap" in form.first_errors()["rules"]


@pytest.mark.parametrize("move", ["", "discard", "discard 9z", "pong 5p extra", "draw 5p", "discard 5p xx"])
def test_a_malformed_move_names_the_move(move):
    form = ChoiceForm({"move": move})
    assert not form.is_valid() and set(form.first_errors()) == {"move"}


def test_a_move_reads_its_page_and_an_unreadable_count_or_hand_is_none():
    form = MoveForm({"move": "discard 5p ld", "seen": "12", "hand": "7"})
    assert form.is_valid()
    choice = form.cleaned_data["move"]
    assert (choice.action.verb, choice.action.tile, choice.action.liang_dao) == ("discard", "5p", True)
    assert (form.cleaned_data["seen"], form.cleaned_data["hand"]) == (12, 7)
    odd = MoveForm({"move": "pass", "seen": "9" * 40, "hand": "x"})
    assert odd.is_valid() and odd.cleaned_data["move"].action is None and (odd.cleaned_data["seen"], odd.cleaned_data["hand"]) == (None, None)
    assert NextHandForm({"number": "2", "piao": "2"}).is_valid() and not NextHandForm({"number": "2", "piao": "3"}).is_valid()


def _record() -> dict:
    return play(seeded_deal(5, 0), [BasicBot(), StrongBot(), StrongBot()]).record.to_json()


def test_a_bad_record_names_the_action_at_fault_and_the_seat_is_checked():
    bad = _record()
    bad["actions"][3] = {**bad["actions"][3], "seat": (bad["actions"][3]["seat"] + 1) % 3}
    form = UploadForm({"record": json.dumps(bad), "seat": "0"})
    with translation.override("en"):
        assert not form.is_valid() and form.first_errors()["record"].startswith("Action 3 (")
    assert set(UploadForm({"record": "{not json", "seat": "0"}).first_errors()) == {"record"}
    assert set(UploadForm({"record": "", "seat": "0"}).first_errors()) == {"record"}
    assert set(UploadForm({"record": json.dumps(_record()), "seat": "3"}).first_errors()) == {"seat"}


def test_an_upload_reads_and_replays_the_record_once(monkeypatch):
    calls = []
    real = records.replay
    monkeypatch.setattr(records, "replay", lambda data: calls.append(1) or real(data))
    response = Client().post("/play/upload/", {"record": json.dumps(_record()), "seat": "1"})
    assert response.status_code == 302 and Hand.objects.get(source=Hand.UPLOAD).seat == 1
    assert len(calls) == 1

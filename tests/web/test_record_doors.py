"""One reader for a record from outside: POST /api/v1/hands/replay/ and /play/upload/ (pasted or a file) refuse alike.

Hostile records of issue 26 (deep nesting, ``"options": null``, a lone surrogate in an action,
a NUL or surrogate in a player's name, bytes that are not UTF-8) are 400s naming the field at
both doors, nothing is stored, and the page says what is wrong.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import Player
from kwx.errors import RecordError
from kwx.table.record import replay
from play.models import Hand
from tests.conftest import VECTORS

pytestmark = pytest.mark.django_db
CASES = json.loads((VECTORS / "hands.json").read_text(encoding="utf-8"))["cases"]
LEGAL = next(c["record"] for c in CASES if "error" not in c["expect"] and c["expect"]["result"])
API = "/api/v1/hands/replay/"


def _text(**change) -> str:
    return json.dumps(copy.deepcopy(LEGAL) | change)


def _surrogate_in_action() -> str:
    record = copy.deepcopy(LEGAL)
    record["actions"][1] = {"seat": record["actions"][1]["seat"], "draw": "SURROGATE"}
    return json.dumps(record).replace("SURROGATE", "\\ud800")


HOSTILE = [
    pytest.param("[" * 5000 + "]" * 5000, "body", "nested", id="deep-list"),
    pytest.param(_text(options={"rob_kong": True}).replace('"rob_kong": true', '"rob_kong": ' + "[" * 100 + "]" * 100), "options", "nested", id="deep-option"),
    pytest.param(_text(options=None), "options", "options", id="options-null"),
    pytest.param(_surrogate_in_action(), "actions", "U+D800", id="surrogate-in-action"),
    pytest.param(_text(players=["a\u0000b", "乙", "丙"]), "players", "U+0000", id="nul-in-name"),
    pytest.param(_text(players=["甲", "乙", "SURROGATE"]).replace("SURROGATE", "\\udc00"), "players", "U+DC00", id="surrogate-in-name"),
    pytest.param(_text(players=["甲", "乙\u202e", "丙"]), "players", "U+202E", id="bidi-mark-in-name"),
    pytest.param(_text(base=float("nan")), "record", "NaN", id="nan"),
]


def _client() -> Client:
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize("text, field, words", HOSTILE)
def test_the_replay_api_refuses_it_naming_the_field(text, field, words):
    response = _client().post(API, text, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["field"] == (field if field != "record" else "body") and error["message"]


@pytest.mark.parametrize("as_file", [False, True], ids=["pasted", "file"])
@pytest.mark.parametrize("text, field, words", HOSTILE)
def test_the_upload_refuses_it_saying_what_is_wrong_and_stores_nothing(text, field, words, as_file):
    data = {"seat": "0"}
    if as_file:
        data["file"] = SimpleUploadedFile("hand.json", text.encode("utf-8", "surrogatepass"), "application/json")
    else:
        data["record"] = text
    response = _client().post("/play/upload/", data)
    assert response.status_code == 400, response.content[:300]
    page = response.content.decode()
    message = page[page.index('id="record-error"') :].split("</p>")[0]
    assert words in message
    assert not Hand.objects.exists() and not Player.objects.exists()


def test_a_file_that_is_not_utf8_is_refused_naming_the_byte():
    raw = json.dumps(LEGAL, ensure_ascii=False).encode().replace(b'"format"', b'"\xff\xfeformat"', 1)
    response = _client().post("/play/upload/", {"seat": "0", "file": SimpleUploadedFile("hand.json", raw, "application/json")})
    assert response.status_code == 400 and "UTF-8" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_legal_record_passes_both_doors_and_its_stored_record_downloads():
    client = _client()
    assert client.post(API, _text(), content_type="application/json").status_code == 200
    response = client.post("/play/upload/", {"record": _text(), "seat": "0"})
    assert response.status_code == 302
    hand = Hand.objects.get()
    assert client.get(f"/play/{hand.pk}/record.json").json() == LEGAL


@pytest.mark.parametrize(
    "change, field",
    [({"options": None}, "options"), ({"options": []}, "options"), ({"players": ["a\x00", "b", "c"]}, "players"), ({"players": ["a", "b\ud800", "c"]}, "players")],
)
def test_replay_itself_refuses_bad_header_types_with_a_record_error(change, field):
    with pytest.raises(RecordError) as exc:
        replay(copy.deepcopy(LEGAL) | change)
    assert exc.value.field == field


@pytest.mark.parametrize("as_file", [True, False], ids=["multipart-file", "urlencoded"])
def test_a_form_over_the_limit_is_refused_by_its_length_before_anything_reads_it(monkeypatch, settings, as_file):
    from django.http import multipartparser

    def never(*args, **kwargs):
        raise AssertionError("the body was parsed")

    monkeypatch.setattr(multipartparser.MultiPartParser, "parse", never)
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    client = _client()
    if as_file:
        response = client.post("/play/upload/", {"seat": "0", "file": SimpleUploadedFile("hand.json", big.encode(), "application/json")})
    else:
        response = client.post("/play/upload/", f"record={big}&seat=0", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413
    assert "64 KB" in response.content.decode() and not Hand.objects.exists()

"""The Chinese catalog is complete and compiled, and the engine's messages are in it."""

from __future__ import annotations

import ast
import gettext

import polib

from kwx import errors
from tests.conftest import ROOT

PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def test_every_message_is_translated():
    catalog = polib.pofile(str(PO))
    missing = [e.msgid for e in catalog if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
    assert missing == []
    plurals = [e for e in catalog if not e.obsolete and e.msgid_plural]
    assert plurals and all(e.msgstr_plural.get(0) for e in plurals)  # one Chinese form serves every count


def test_the_compiled_catalog_matches_the_source():
    catalog = polib.pofile(str(PO))
    with open(PO.with_suffix(".mo"), "rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    for entry in catalog:
        if entry.obsolete or not entry.msgid:
            continue
        if entry.msgid_plural:
            for n in (1, 2):
                assert compiled.ngettext(entry.msgid, entry.msgid_plural, n) == entry.msgstr_plural[0], entry.msgid
        elif entry.msgctxt:
            assert compiled.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr, (entry.msgctxt, entry.msgid)
        else:
            assert compiled.gettext(entry.msgid) == entry.msgstr, entry.msgid


def test_engine_messages_are_in_the_catalog():
    marked = set()
    for path in (ROOT / "kwx").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop" and node.args:
                marked.add(node.args[0].value)
    msgids = {e.msgid for e in polib.pofile(str(PO))}
    assert len(marked) > 30 and marked <= msgids, marked - msgids
    assert errors.gettext_noop("x") == "x"

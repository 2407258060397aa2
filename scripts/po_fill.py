#!/usr/bin/env python3
"""Fill translations into locale/zh_Hans/LC_MESSAGES/django.po from a JSON file of
{msgid: msgstr}, then compile the .mo. Existing translations are kept unless --force.
A plural entry (ngettext, blocktranslate count) is filled by its singular msgid: Chinese
has one form, so the one msgstr serves every count.

Usage: .venv/bin/python scripts/po_fill.py translations.json [--force]
       .venv/bin/python scripts/po_fill.py --missing      (list untranslated msgids)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polib

PO = Path(__file__).resolve().parent.parent / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"


def main(argv: list[str]) -> int:
    po = polib.pofile(str(PO))
    if "--missing" in argv:
        missing = [e.msgid for e in po if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
        print(json.dumps(missing, ensure_ascii=False, indent=1))
        return 1 if missing else 0
    table = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    force = "--force" in argv
    for entry in po:
        if entry.msgid not in table or not (force or not entry.translated() or "fuzzy" in entry.flags):
            continue
        if entry.msgid_plural:
            entry.msgstr_plural = {0: table[entry.msgid]}
        else:
            entry.msgstr = table[entry.msgid]
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    po.save()
    po.save_as_mofile(str(PO.with_suffix(".mo")))
    left = [e.msgid for e in po if not e.obsolete and not e.translated()]
    print(f"{len(po.translated_entries())} translated, {len(left)} left")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

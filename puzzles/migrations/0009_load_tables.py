"""Load the table drills (puzzles/data/table_bank.json.gz, ``manage.py generate_table_drills``).

The 何切 and 期望值 puzzles loaded before the table field existed (0002, 0004) take their tables
from their own records here."""

from django.db import migrations


def load(apps, schema_editor):
    from puzzles.generation.bank import BANK_PATH, load_bank, read_bank
    from puzzles.generation.ev import EV_BANK_PATH
    from puzzles.generation.table_bank import TABLE_BANK_PATH

    Puzzle = apps.get_model("puzzles", "Puzzle")
    load_bank(Puzzle, TABLE_BANK_PATH)
    tables = {r["key"]: r["table"] for path in (BANK_PATH, EV_BANK_PATH) for r in read_bank(path) if "table" in r}
    changed = []
    for puzzle in Puzzle.objects.filter(key__in=list(tables)):
        puzzle.table = tables[puzzle.key]
        changed.append(puzzle)
    Puzzle.objects.bulk_update(changed, ["table"], batch_size=500)


def unload(apps, schema_editor):
    Puzzle = apps.get_model("puzzles", "Puzzle")
    Puzzle.objects.filter(kind__in=["pong", "kong", "declare", "defence"]).delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0008_table_drill_fields")]
    operations = [migrations.RunPython(load, unload)]

"""Load the table drills (puzzles/data/table_bank.json.gz, ``manage.py generate_table_drills``) and give every
shipped 何切 and 期望值 puzzle its table (puzzles/data/bank_tables.json.gz, ``manage.py build_bank_tables``)."""

from django.db import migrations


def load(apps, schema_editor):
    from puzzles.generation.bank import load_bank
    from puzzles.generation.bank_tables import load_bank_tables
    from puzzles.generation.table_bank import TABLE_BANK_PATH

    Puzzle = apps.get_model("puzzles", "Puzzle")
    load_bank(Puzzle, TABLE_BANK_PATH)
    load_bank_tables(Puzzle)


def unload(apps, schema_editor):
    Puzzle = apps.get_model("puzzles", "Puzzle")
    Puzzle.objects.filter(kind__in=["pong", "kong", "declare", "defence"]).delete()
    Puzzle.objects.exclude(table={}).update(table={})


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0008_table_drill_fields")]
    operations = [migrations.RunPython(load, unload)]

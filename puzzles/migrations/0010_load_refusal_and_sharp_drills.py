"""Load the table drills added to puzzles/data/table_bank.json.gz after 0009: 杠不杠 drills where refusing
the kong is right, and defence drills that tell the safe tiles apart (docs/drills.md). Drills already
loaded are left as they are: only keys missing from the table are added."""

from django.db import migrations


def load(apps, schema_editor):
    from puzzles.generation.bank import load_bank
    from puzzles.generation.table_bank import TABLE_BANK_PATH

    load_bank(apps.get_model("puzzles", "Puzzle"), TABLE_BANK_PATH)


def unload(apps, schema_editor):
    from kwx.drills.table_drills import PREFIX, REFUSALS_FROM, SHARP_DEFENCE_FROM

    Puzzle = apps.get_model("puzzles", "Puzzle")
    for kind, start in (("kong", REFUSALS_FROM), ("defence", SHARP_DEFENCE_FROM)):
        Puzzle.objects.filter(kind=kind, key__gte=f"{PREFIX[kind]}{start + 1:05d}").delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0009_load_tables")]
    operations = [migrations.RunPython(load, unload)]

"""Load the 期望值 puzzles (puzzles/data/ev_bank.json.gz), made by ``manage.py generate_ev_puzzles``."""

from django.db import migrations


def load(apps, schema_editor):
    from puzzles.generation.bank import load_bank
    from puzzles.generation.ev import EV_BANK_PATH

    load_bank(apps.get_model("puzzles", "Puzzle"), EV_BANK_PATH)


def unload(apps, schema_editor):
    apps.get_model("puzzles", "Puzzle").objects.filter(draws_left__isnull=False).delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0003_ev_fields")]
    operations = [migrations.RunPython(load, unload)]

"""Load the shipped puzzle bank (puzzles/data/bank.json.gz) so a fresh install has every puzzle."""

from django.db import migrations


def load(apps, schema_editor):
    from puzzles.generation.bank import load_bank

    load_bank(apps.get_model("puzzles", "Puzzle"))


def unload(apps, schema_editor):
    apps.get_model("puzzles", "Puzzle").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]

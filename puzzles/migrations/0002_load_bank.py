"""Load the shipped puzzle bank (puzzles/data/bank.json.gz) so a fresh install has every puzzle."""
from django.db import migrations

BATCH = 1000


def load(apps, schema_editor):
    from puzzles.generation.bank import BANK_PATH, read_bank

    Puzzle = apps.get_model("puzzles", "Puzzle")
    existing = set(Puzzle.objects.values_list("key", flat=True))
    rows = []
    for r in read_bank(BANK_PATH):
        if r["key"] in existing:
            continue
        rows.append(Puzzle(
            key=r["key"], kind=r["kind"], hand=r["hand"],
            melds=r["melds"], visible=r["visible"], rules=r["rules"],
            situation=r["situation"], turn=r["turn"], wall_left=r["wall_left"],
            win_tile=r.get("win", ""), win_side=r.get("side", ""), accepted=r["accepted"],
            options=r["options"], themes=" " + " ".join(r["themes"]) + " " if r["themes"] else "",
            rating=r["rating"],
        ))
    Puzzle.objects.bulk_create(rows, batch_size=BATCH)


def unload(apps, schema_editor):
    apps.get_model("puzzles", "Puzzle").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]
    operations = [migrations.RunPython(load, unload)]

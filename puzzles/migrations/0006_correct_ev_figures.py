"""Correct the 期望值 puzzles of an existing database from the rebuilt bank (puzzles/data/ev_bank.json.gz).

The exact programme counted a redrawn copy of the discarded kind as still unseen, so the
figures of discards that step back a shanten were too high (69 EV rows of 39 puzzles;
every puzzle's position, answer and plain table stayed the same). Migration 0004 inserts
only the keys a database lacks, so a database made before the rebuild keeps the old
rows: this rewrites each EV puzzle's figures from the bank where the key names the same
position. A rating that plays have already moved is kept; an unplayed puzzle takes the
bank's first estimate. Going back leaves the corrected figures in place.
"""

from django.db import migrations

POSITION = ("hand", "melds", "visible", "rules", "situation", "draws_left")


def correct(apps, schema_editor):
    from puzzles.generation.bank import read_bank
    from puzzles.generation.ev import EV_BANK_PATH

    Puzzle = apps.get_model("puzzles", "Puzzle")
    records = {r["key"]: r for r in read_bank(EV_BANK_PATH)}
    for puzzle in Puzzle.objects.filter(key__in=list(records), draws_left__isnull=False):
        record = records[puzzle.key]
        if any(getattr(puzzle, field) != record[field] for field in POSITION):
            continue
        puzzle.ev, puzzle.accepted, puzzle.options = record["ev"], record["accepted"], record["options"]
        fields = ["ev", "accepted", "options"]
        if not puzzle.plays:
            puzzle.rating = record["rating"]
            fields.append("rating")
        puzzle.save(update_fields=fields)


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0005_quiz_rating_streak_floor")]
    operations = [migrations.RunPython(correct, migrations.RunPython.noop)]

"""No operation. This migration corrected the 期望值 figures of a database loaded before the EV bank was rebuilt (a step-back discard's redrawn copy counted as unseen); ``load_banks`` does the same for any record that changes: a stored puzzle of the record's position takes its figures, and its rating while unplayed.

The banks are loaded by ``manage.py load_banks`` now (``puzzles/banks.py``: upserted by key, run by
``make setup`` and at deploy), so migrations change only the schema and a fresh ``migrate`` reads no
bank file. A database migrated before keeps the rows this loaded; ``load_banks`` finds them as they
are and changes nothing.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0005_quiz_rating_streak_floor")]
    operations: list[migrations.operations.base.Operation] = []

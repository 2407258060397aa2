"""No operation. This migration loaded the table drills added after 0009 (杠不杠 refusals and sharp defence drills).

The banks are loaded by ``manage.py load_banks`` now (``puzzles/banks.py``: upserted by key, run by
``make setup`` and at deploy), so migrations change only the schema and a fresh ``migrate`` reads no
bank file. A database migrated before keeps the rows this loaded; ``load_banks`` finds them as they
are and changes nothing.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0009_load_tables")]
    operations: list[migrations.operations.base.Operation] = []

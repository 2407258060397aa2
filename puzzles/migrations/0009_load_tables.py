"""No operation. This migration loaded the table drills (puzzles/data/table_bank.json.gz) and the tables of the 何切 and 期望值 puzzles (puzzles/data/bank_tables.json.gz).

The banks are loaded by ``manage.py load_banks`` now (``puzzles/banks.py``: upserted by key, run by
``make setup`` and at deploy), so migrations change only the schema and a fresh ``migrate`` reads no
bank file. A database migrated before keeps the rows this loaded; ``load_banks`` finds them as they
are and changes nothing.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0008_table_drill_fields")]
    operations: list[migrations.operations.base.Operation] = []

"""No operation. This migration loaded the 何切 puzzles and 算番 quiz items (puzzles/data/bank.json.gz).

The banks are loaded by ``manage.py load_banks`` now (``puzzles/banks.py``: upserted by key, run by
``make setup`` and at deploy), so migrations change only the schema and a fresh ``migrate`` reads no
bank file. A database migrated before keeps the rows this loaded; ``load_banks`` finds them as they
are and changes nothing.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("puzzles", "0001_initial")]
    operations: list[migrations.operations.base.Operation] = []

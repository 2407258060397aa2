"""``Player`` now belongs to the accounts app: attempts and review cards point at ``accounts.Player``.

State only: the puzzles app forgets the model; its table ``puzzles_player`` stays (the accounts
model's ``Meta.db_table``), so every row, key and foreign key in the database is as it was.
"""

import django.db.models.deletion
from django.db import migrations, models


def _owner(related_name):
    return models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name=related_name, to="accounts.player")


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0011_puzzle_retired"),
        ("accounts", "0001_initial"),
        ("play", "0004_player_in_accounts"),  # play points at accounts.Player before the puzzles app forgets its model
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="attempt", name="player", field=_owner("attempts")),
                migrations.AlterField(model_name="reviewcard", name="player", field=_owner("review_cards")),
                migrations.DeleteModel(name="Player"),
            ],
            database_operations=[],
        ),
    ]

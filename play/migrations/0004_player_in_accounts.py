"""Games, hands and review items point at ``accounts.Player``: in Django's state only (the same table, ``puzzles_player``)."""

import django.db.models.deletion
from django.db import migrations, models


def _owner(related_name):
    return models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name=related_name, to="accounts.player")


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0003_review_task"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(model_name="game", name="player", field=_owner("games")),
                migrations.AlterField(model_name="hand", name="player", field=_owner("hands")),
                migrations.AlterField(model_name="reviewitem", name="player", field=_owner("play_reviews")),
            ],
            database_operations=[],
        ),
    ]

"""A score sheet is owned by its player alone: the user and session-key columns go."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0003_scoresheet_owner_rows"),
    ]

    operations = [
        migrations.RemoveField(model_name="scoresheet", name="user"),
        migrations.RemoveField(model_name="scoresheet", name="anon_key"),
        migrations.AlterField(
            model_name="scoresheet",
            name="player",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="score_sheets", to="accounts.player"),
        ),
    ]

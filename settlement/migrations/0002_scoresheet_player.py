"""Score sheets get a player (``accounts.Player``), beside their user or session key for now (filled by 0003, those dropped by 0004)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0001_initial"),
        ("accounts", "0002_player_sheet_key"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="scoresheet", name="score_sheet_has_owner"),
        migrations.AddField(
            model_name="scoresheet",
            name="player",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="score_sheets", to="accounts.player"),
        ),
    ]

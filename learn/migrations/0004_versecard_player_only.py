"""A memorise card is owned by its player alone: the user column goes, one card per player and couplet."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("learn", "0003_versecard_owner_rows"),
    ]

    operations = [
        migrations.RemoveField(model_name="versecard", name="user"),
        migrations.AlterField(
            model_name="versecard",
            name="player",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="verse_cards", to="accounts.player"),
        ),
        migrations.AddConstraint(
            model_name="versecard",
            constraint=models.UniqueConstraint(fields=("player", "couplet"), name="verse_card_once_per_couplet"),
        ),
        migrations.AddIndex(
            model_name="versecard",
            index=models.Index(fields=["player", "due"], name="verse_card_due"),
        ),
    ]

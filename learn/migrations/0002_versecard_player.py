"""Memorise cards get a player (``accounts.Player``), beside their user for now (filled by 0003, the user dropped by 0004)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("learn", "0001_initial"),
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="versecard", name="verse_card_once_per_couplet"),
        migrations.RemoveIndex(model_name="versecard", name="verse_card_due"),
        migrations.AddField(
            model_name="versecard",
            name="player",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="verse_cards", to="accounts.player"),
        ),
        migrations.AlterField(
            model_name="versecard",
            name="user",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name="verse_cards", to=settings.AUTH_USER_MODEL),
        ),
    ]

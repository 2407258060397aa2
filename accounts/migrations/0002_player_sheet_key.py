from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="sheet_key",
            field=models.CharField(
                blank=True,
                db_index=True,
                default="",
                help_text="The score-sheet key a visitor's session held before sheets had a player (settle_owner): that session finds this player by it.",
                max_length=64,
            ),
        ),
    ]

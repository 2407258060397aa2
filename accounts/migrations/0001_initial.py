"""The accounts app takes over ``Player`` from the puzzles app: in Django's state only.

The table stays ``puzzles_player`` (``Meta.db_table``); nothing in the database changes, so every
player, its key (what a visitor's session holds) and everything that points at it stay as they
were. The content type (so the permissions) follows the model.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _relabel(ContentType, old, new):
    """Move the player's content type from one app label to another (drop the old one if the new exists)."""
    rows = ContentType.objects.filter(app_label=old, model="player")
    if ContentType.objects.filter(app_label=new, model="player").exists():
        rows.delete()
    else:
        rows.update(app_label=new)


def forward(apps, schema_editor):
    _relabel(apps.get_model("contenttypes", "ContentType"), "puzzles", "accounts")


def backward(apps, schema_editor):
    _relabel(apps.get_model("contenttypes", "ContentType"), "accounts", "puzzles")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("puzzles", "0011_puzzle_retired"),  # the table is made there
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("rating", models.FloatField(default=1500.0)),
                        ("rating_deviation", models.FloatField(default=350.0)),
                        ("volatility", models.FloatField(default=0.06)),
                        ("quiz_rating", models.FloatField(default=1500.0, help_text="算番 quiz rating.")),
                        ("quiz_rating_deviation", models.FloatField(default=350.0)),
                        ("quiz_volatility", models.FloatField(default=0.06)),
                        ("streak", models.PositiveIntegerField(default=0, help_text="Current streak-mode run.")),
                        ("streak_floor", models.FloatField(default=0.0, help_text="Rating of the run's last puzzle: the next one is rated higher.")),
                        ("best_streak", models.PositiveIntegerField(default=0)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("merged_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "merged_into",
                            models.ForeignKey(
                                blank=True,
                                help_text="An anonymous player folded into an account: answers still in flight with its session go there.",
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="accounts.player",
                            ),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="kwx_player",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={"db_table": "puzzles_player"},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forward, backward),
    ]

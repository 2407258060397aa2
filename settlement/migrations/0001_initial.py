"""The settlement app takes over the score sheets from the analysis app: in Django's state only.

The tables stay ``analysis_scoresheet`` and ``analysis_sheethand`` (``Meta.db_table``); nothing
in the database changes, so the sheets of a database migrated before stay where they are.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("analysis", "0002_score_sheets"),  # the tables are made there
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ScoreSheet",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("anon_key", models.CharField(blank=True, db_index=True, default="", max_length=64)),
                        ("title", models.CharField(blank=True, default="", max_length=60)),
                        ("players", models.JSONField(help_text="Three names, in seat order.")),
                        ("base", models.PositiveIntegerField(default=1)),
                        ("rules", models.CharField(default="standard", max_length=20)),
                        ("first_dealer", models.PositiveSmallIntegerField(default=0)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("updated", models.DateTimeField(auto_now=True)),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="score_sheets", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "analysis_scoresheet",
                        "ordering": ["-updated", "-id"],
                        "constraints": [
                            models.CheckConstraint(condition=models.Q(("user__isnull", False), models.Q(("anon_key", ""), _negated=True), _connector="OR"), name="score_sheet_has_owner"),
                            models.CheckConstraint(condition=models.Q(("first_dealer__lte", 2)), name="score_sheet_dealer_is_a_player"),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="SheetHand",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("position", models.PositiveIntegerField()),
                        ("data", models.JSONField(help_text="The engine's hand input without players, base and rules.")),
                        ("token", models.CharField(blank=True, default="", help_text="Form token: a form sent twice adds one hand.", max_length=36)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("updated", models.DateTimeField(auto_now=True)),
                        ("sheet", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="hands", to="settlement.scoresheet")),
                    ],
                    options={
                        "db_table": "analysis_sheethand",
                        "ordering": ["position", "id"],
                        "constraints": [
                            models.UniqueConstraint(condition=models.Q(("token", ""), _negated=True), fields=("sheet", "token"), name="sheet_hand_token_once"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]

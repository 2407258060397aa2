"""The learn app takes over the verse cards from the analysis app: in Django's state only.

The table stays ``analysis_versecard`` (``Meta.db_table``); nothing in the database changes,
so the cards of a database migrated before stay where they are.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("analysis", "0001_verse_cards"),  # the table is made there
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="VerseCard",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("couplet", models.PositiveSmallIntegerField(help_text="Number of the couplet in learn/data/kouque.txt, from 1.")),
                        ("state", models.PositiveSmallIntegerField(default=1, help_text="fsrs.State: 1 learning, 2 review, 3 relearning.")),
                        ("step", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("stability", models.FloatField(blank=True, null=True)),
                        ("difficulty", models.FloatField(blank=True, null=True)),
                        ("due", models.DateTimeField()),
                        ("last_review", models.DateTimeField(blank=True, null=True)),
                        ("reviews", models.PositiveIntegerField(default=0, help_text="Grades counted so far; a repeated form post is ignored.")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="verse_cards", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "analysis_versecard",
                        "indexes": [models.Index(fields=["user", "due"], name="verse_card_due")],
                        "constraints": [models.UniqueConstraint(fields=("user", "couplet"), name="verse_card_once_per_couplet")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]

"""The tournaments app takes over the tournament shards from the analysis app: in Django's state only.

The table stays ``analysis_tournamentshard`` (``Meta.db_table``); nothing in the database changes,
so the shards of a database migrated before stay where they are.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("analysis", "0004_tournament_shards"),  # the table is made there
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TournamentShard",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("lineup", models.CharField(max_length=600)),
                        ("seed", models.BigIntegerField()),
                        ("hands", models.PositiveIntegerField()),
                        ("rules", models.CharField(max_length=40)),
                        ("shards", models.PositiveIntegerField()),
                        ("shard", models.PositiveIntegerField()),
                        ("outcomes", models.JSONField()),
                        ("decisions", models.JSONField(default=dict)),
                        ("cpu_seconds", models.FloatField()),
                        ("wall_seconds", models.FloatField()),
                        ("created", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "db_table": "analysis_tournamentshard",
                        "constraints": [models.UniqueConstraint(fields=("lineup", "seed", "hands", "rules", "shards", "shard"), name="tournament_shard_once")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]

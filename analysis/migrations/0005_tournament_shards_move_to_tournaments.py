"""The tournament shards now belong to the tournaments app.

State only: the analysis app forgets the model (its table stays, now named by the tournaments
app's ``Meta.db_table``), and the content type (so the permissions) follows the model.
"""

from django.db import migrations


def _relabel(ContentType, old, new):
    """Move the shard's content type from one app label to another (drop the old one if the new exists)."""
    rows = ContentType.objects.filter(app_label=old, model="tournamentshard")
    if ContentType.objects.filter(app_label=new, model="tournamentshard").exists():
        rows.delete()
    else:
        rows.update(app_label=new)


def forward(apps, schema_editor):
    _relabel(apps.get_model("contenttypes", "ContentType"), "analysis", "tournaments")


def backward(apps, schema_editor):
    _relabel(apps.get_model("contenttypes", "ContentType"), "tournaments", "analysis")


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0004_tournament_shards"),
        ("tournaments", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="TournamentShard")],
            database_operations=[],
        ),
        migrations.RunPython(forward, backward),
    ]

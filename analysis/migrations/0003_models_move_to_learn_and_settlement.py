"""The verse cards and score sheets now belong to the learn and settlement apps.

State only: the analysis app forgets the models (their tables stay, now named by the new
apps' ``Meta.db_table``), and the content types (so the permissions) follow the models.
"""

from django.db import migrations

MOVED = {"versecard": "learn", "scoresheet": "settlement", "sheethand": "settlement"}


def _relabel(ContentType, moves):
    """Move each model's content type from one app label to another (drop the old one if the new exists)."""
    for model, (old, new) in moves.items():
        rows = ContentType.objects.filter(app_label=old, model=model)
        if ContentType.objects.filter(app_label=new, model=model).exists():
            rows.delete()
        else:
            rows.update(app_label=new)


def forward(apps, schema_editor):
    _relabel(apps.get_model("contenttypes", "ContentType"), {m: ("analysis", app) for m, app in MOVED.items()})


def backward(apps, schema_editor):
    _relabel(apps.get_model("contenttypes", "ContentType"), {m: (app, "analysis") for m, app in MOVED.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0002_score_sheets"),
        ("learn", "0001_initial"),
        ("settlement", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="SheetHand"),
                migrations.DeleteModel(name="ScoreSheet"),
                migrations.DeleteModel(name="VerseCard"),
            ],
            database_operations=[],
        ),
        migrations.RunPython(forward, backward),
    ]

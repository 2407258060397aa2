"""Reviews become background tasks: a hand's review state and progress.

The reviews stored before (version 1: the strong bot's own ``worth_of`` guesses, no ±) are
dropped from the hands — they are figures worked out from the record, not anything the player
did; review items and their schedules are kept. ``manage.py enqueue_reviews`` (run by
``make setup`` and scripts/serve-prod.sh) then queues every finished hand without a review,
so old hands are reviewed again by paired rollouts (docs/play.md).
"""

from django.db import migrations, models


def drop_old_reviews(apps, schema_editor):
    Hand = apps.get_model("play", "Hand")
    Hand.objects.exclude(review=None).update(review=None)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0002_hand_outcome"),
    ]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="review_done",
            field=models.PositiveIntegerField(default=0, help_text="Decisions judged so far."),
        ),
        migrations.AddField(
            model_name="hand",
            name="review_state",
            field=models.CharField(
                blank=True,
                choices=[("", "not asked"), ("queued", "queued"), ("running", "running"), ("done", "done"), ("failed", "failed")],
                default="",
                max_length=8,
            ),
        ),
        migrations.AddField(
            model_name="hand",
            name="review_total",
            field=models.PositiveIntegerField(default=0, help_text="Decisions to judge (0 until the task starts)."),
        ),
        migrations.RunPython(drop_old_reviews, migrations.RunPython.noop),
    ]

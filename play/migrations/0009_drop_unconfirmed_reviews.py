"""Reviews are confirmed on a second set of deals (issue 36): the reviews stored before (version 2, one set of deals) are dropped.

They are figures worked out from the record, not anything the player did: the hands go back to
"not asked", and ``manage.py enqueue_reviews`` (run by ``make setup`` and scripts/serve-prod.sh)
queues each again, so it is reviewed by the select-and-confirm method. Review items and their
schedules are kept; each is judged by its hand's new figures once they are done.
"""

from django.db import migrations


def drop_unconfirmed_reviews(apps, schema_editor):
    Hand = apps.get_model("play", "Hand")
    for hand in Hand.objects.exclude(review=None).only("pk", "review").iterator():
        if (hand.review or {}).get("method", {}).get("version", 0) < 3:
            Hand.objects.filter(pk=hand.pk).update(review=None, review_state="", review_done=0, review_total=0)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0008_game_town_options"),
    ]

    operations = [
        migrations.RunPython(drop_unconfirmed_reviews, migrations.RunPython.noop),
    ]

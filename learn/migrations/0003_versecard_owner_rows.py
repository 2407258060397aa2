"""Each memorise card's owner becomes its account's player (made for an account that had none).

Backwards, a card goes back to its player's account; a visitor's card (no account) did not exist
before and is dropped.
"""

from django.db import migrations


def forward(apps, schema_editor):
    Player = apps.get_model("accounts", "Player")
    VerseCard = apps.get_model("learn", "VerseCard")
    for user_id in VerseCard.objects.filter(player__isnull=True).values_list("user_id", flat=True).distinct():
        player, _made = Player.objects.get_or_create(user_id=user_id)
        VerseCard.objects.filter(player__isnull=True, user_id=user_id).update(player=player)


def backward(apps, schema_editor):
    Player = apps.get_model("accounts", "Player")
    VerseCard = apps.get_model("learn", "VerseCard")
    VerseCard.objects.filter(player__user__isnull=True).delete()
    for player in Player.objects.filter(user__isnull=False, verse_cards__isnull=False).distinct():
        VerseCard.objects.filter(player=player).update(user_id=player.user_id)


class Migration(migrations.Migration):
    dependencies = [
        ("learn", "0002_versecard_player"),
    ]

    operations = [migrations.RunPython(forward, backward)]

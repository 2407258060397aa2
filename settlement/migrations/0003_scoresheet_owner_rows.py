"""Each score sheet's owner becomes a player: its account's (made if the account had none), or, for a
visitor's sheets, one player per session key (``sheet_key``), which that session finds on its next visit.

Backwards, a sheet goes back to its player's account or session key; a sheet of a visitor's player
that never had a key gets one of its own (the old check wanted an owner).
"""

from django.db import migrations


def forward(apps, schema_editor):
    Player = apps.get_model("accounts", "Player")
    ScoreSheet = apps.get_model("settlement", "ScoreSheet")
    pending = ScoreSheet.objects.filter(player__isnull=True)
    for user_id in pending.filter(user__isnull=False).values_list("user_id", flat=True).distinct():
        player, _made = Player.objects.get_or_create(user_id=user_id)
        pending.filter(user_id=user_id).update(player=player)
    for key in pending.filter(user__isnull=True).values_list("anon_key", flat=True).distinct():
        player = Player.objects.filter(user__isnull=True, sheet_key=key).first() or Player.objects.create(sheet_key=key)
        pending.filter(user__isnull=True, anon_key=key).update(player=player)


def backward(apps, schema_editor):
    ScoreSheet = apps.get_model("settlement", "ScoreSheet")
    for sheet in ScoreSheet.objects.select_related("player"):
        owner = sheet.player
        sheet.user_id = owner.user_id
        sheet.anon_key = "" if owner.user_id else (owner.sheet_key or f"player-{owner.pk}")
        sheet.save(update_fields=["user", "anon_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("settlement", "0002_scoresheet_player"),
    ]

    operations = [migrations.RunPython(forward, backward)]

"""The ladder's number moves to a scale where everyone starts at 1,000.

Ratings are rebuilt from the games whenever a result changes, so only the
stored change over each player's last game, which is on the shown scale,
needs working out again here: from that game's rating before and after.
The formula is copied, as a migration must keep its own.
"""

from django.db import migrations

MU, START, SCALE = 25.0, 1000, 10


def shown(mu: float) -> int:
    return round(START + (mu - MU) * SCALE)


def rescale(apps, schema_editor):
    Standing = apps.get_model("games", "Standing")
    PlayerRating = apps.get_model("games", "PlayerRating")
    changed = []
    for standing in Standing.objects.all():
        last = (
            PlayerRating.objects.filter(player_id=standing.player_id)
            .order_by("-game__finished_at", "-game_id")
            .first()
        )
        if last is not None:
            standing.change = shown(last.mu) - shown(last.mu_before)
            changed.append(standing)
    Standing.objects.bulk_update(changed, ["change"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("games", "0016_game_key")]

    operations = [migrations.RunPython(rescale, migrations.RunPython.noop)]

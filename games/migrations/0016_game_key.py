"""Each game gets a key of its own, carried by the history file (see Game.key)."""

import secrets

from django.db import migrations, models

import games.models


def give_keys(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for pk in Game.objects.values_list("pk", flat=True):
        Game.objects.filter(pk=pk).update(key=secrets.token_urlsafe(16))


class Migration(migrations.Migration):
    dependencies = [("games", "0015_club_night")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="key",
            field=models.CharField(default=games.models.new_game_key, editable=False, max_length=64),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                fields=("table", "key"), name="game_key_unique_per_table"
            ),
        ),
    ]

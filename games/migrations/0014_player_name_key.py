"""Players' names unique at a table in any case, kept by the database.

Names were compared without case by the forms only, so two phones adding
"Ann" and "ann" at the same moment could both succeed. Each player now keeps
the name's key (games/engine/names.py) and the key is unique at its table.
Look-alikes already stored are reported and told apart as "ann (2)": their
games, ratings and seats stay theirs, and the owner can rename them.
"""

from django.db import migrations, models

from games.engine.names import MOST_NAME, name_key


def keep_keys(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    seen: dict[tuple[int, str], int] = {}
    for player in Player.objects.order_by("table_id", "id"):
        key = name_key(player.name)
        name, count = player.name, 1
        while (player.table_id, key) in seen:
            count += 1
            suffix = f" ({count})"
            name = player.name[: MOST_NAME - len(suffix)] + suffix
            key = name_key(name)
        if name != player.name:
            print(  # noqa: T201 - the migration's report
                f"\n  Table {player.table_id}: player {player.pk} “{player.name}” looks like "
                f"player {seen[(player.table_id, name_key(player.name))]}; now “{name}”."
            )
        seen[(player.table_id, key)] = player.pk
        Player.objects.filter(pk=player.pk).update(name=name, name_key=key)


class Migration(migrations.Migration):
    dependencies = [("games", "0013_evenings")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.RunPython(keep_keys, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_per_table"),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("table", "name_key"), name="player_name_unique_per_table_in_any_case"
            ),
        ),
    ]

"""The model is called what the screens call it: a club night.

Its games still point at it through ``Game.evening`` and the history file
still says ``"evening"``: files already written, and big-screen links already
out there (``/watch/evenings/…``), keep working.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("games", "0014_player_name_key")]

    operations = [migrations.RenameModel("Evening", "ClubNight")]

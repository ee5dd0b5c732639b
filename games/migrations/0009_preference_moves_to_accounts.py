from django.db import migrations


class Migration(migrations.Migration):
    """Preference now belongs to the accounts app (its table is kept)."""

    dependencies = [
        ("games", "0008_drop_session_seat_player_restrict"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Preference")],
            database_operations=[],
        ),
    ]

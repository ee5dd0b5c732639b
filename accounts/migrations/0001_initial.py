import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """Preference moves here from games: its table stays, only Django's record moves."""

    initial = True

    dependencies = [
        ("games", "0008_drop_session_seat_player_restrict"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Preference",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("language", models.CharField(blank=True, max_length=10)),
                        ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="preference", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "games_preference"},
                ),
            ],
            database_operations=[],
        ),
    ]

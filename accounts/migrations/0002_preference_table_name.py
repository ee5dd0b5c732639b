from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("games", "0009_preference_moves_to_accounts"),
    ]

    operations = [
        migrations.AlterModelTable(name="preference", table=None),
    ]

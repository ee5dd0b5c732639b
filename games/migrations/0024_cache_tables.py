"""The database caches' tables (settings.CACHES), made by migrate like every
other table, so an upgrade needs no step of its own."""

from django.core.management import call_command
from django.db import migrations


def create_cache_tables(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("games", "0023_kept_upload")]

    operations = [migrations.RunPython(create_cache_tables, migrations.RunPython.noop)]

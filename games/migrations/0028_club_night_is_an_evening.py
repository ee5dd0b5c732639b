# A club night is an Evening in code, as in its URLs, templates and history files.

from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0027_ruleset_options_from_the_engine'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel(old_name='ClubNight', new_name='Evening'),
    ]

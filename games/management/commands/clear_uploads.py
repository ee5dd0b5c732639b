"""Forget uploaded files never confirmed, past their 30 minutes (run it daily)."""

from django.core.management.base import BaseCommand

from games.services.uploads import forget_expired


class Command(BaseCommand):
    help = "Forget uploaded history files whose import was never confirmed in time."

    def handle(self, *args, **options):
        count = forget_expired()
        self.stdout.write(f"{count} uploaded file(s) forgotten.")

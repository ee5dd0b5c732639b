"""Remove guests who never kept their scores, 30 days on (run it daily, from cron)."""

from django.core.management.base import BaseCommand

from accounts.guests import KEPT_DAYS, clear_guests


class Command(BaseCommand):
    help = f"Remove guests of more than {KEPT_DAYS} days who never kept their scores."

    def handle(self, *args, **options):
        count = clear_guests()
        self.stdout.write(f"{count} guest account(s) removed.")

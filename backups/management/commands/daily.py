"""The daily job: back the database up first, then clear what has expired.

Once (a systemd timer, cron), or with ``--at HH:MM`` every day at that time
of the club's clock (``TIME_ZONE``), for a container that runs beside the app
(compose.yaml's ``daily``).
"""

from __future__ import annotations

import signal
import sys
import time
from datetime import datetime, timedelta

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

# In this order: a clean-up that fails never costs a night's backup.
STEPS = ("backup", "clearsessions", "clear_guests", "clear_uploads")


def parse_time(raw: str) -> tuple[int, int]:
    try:
        moment = datetime.strptime(raw, "%H:%M")
    except ValueError:
        raise CommandError(f"--at takes a time of day as HH:MM, like 03:30; got {raw!r}") from None
    return moment.hour, moment.minute


def next_run(now: datetime, hour: int, minute: int) -> datetime:
    """The next time the clock shows hour:minute after ``now`` (an aware time)."""
    today = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return today if today > now else today + timedelta(days=1)


class Command(BaseCommand):
    help = "Back the database up, then clear expired sessions, guests and uploads."

    def add_arguments(self, parser):
        parser.add_argument(
            "--at", metavar="HH:MM", help="keep running, and do it every day at this time"
        )

    def handle(self, *args, **options):
        if not options["at"]:
            if not self.run_once():
                raise CommandError("The daily job did not finish: see above.")
            return
        hour, minute = parse_time(options["at"])
        # A container's first process gets no default for SIGTERM: stop at once on it.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        while True:
            now = timezone.localtime()
            due = next_run(now, hour, minute)
            self.stdout.write(f"Next daily job at {due:%Y-%m-%d %H:%M %Z}.")
            time.sleep((due - now).total_seconds())
            self.run_once()

    def run_once(self) -> bool:
        """Every step, each whatever the one before did; whether all of them did."""
        whole = True
        for step in STEPS:
            try:
                call_command(step, stdout=self.stdout, stderr=self.stderr)
            except Exception as error:  # the next step still runs; the log says why
                whole = False
                self.stderr.write(f"{step} failed: {error}")
        return whole

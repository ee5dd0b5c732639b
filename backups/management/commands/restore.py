"""Put the database back as a backup holds it (stop the app first)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from backups.database import BackupFailed, restore


class Command(BaseCommand):
    help = "Replace the whole database with a backup made by `backup`. Stop the app first."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive",
            help="do not ask before replacing the database",
        )  # fmt: skip

    def handle(self, *args, **options):
        path = options["file"]
        if options["interactive"]:
            answer = input(f"Replace everything in the database with {path}? Type 'yes': ")
            if answer.strip() != "yes":
                raise CommandError("Nothing was restored.")
        try:
            restore(path)
        except BackupFailed as failure:
            raise CommandError(f"Nothing was restored: {failure}") from None
        self.stdout.write(f"Restored from {path}.")

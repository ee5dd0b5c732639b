"""Back the database up, and keep 7 daily and 4 weekly backups (daily, from the timer)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from backups.database import BackupFailed, backup, rotate


class Command(BaseCommand):
    help = "Back the whole database up into BACKUP_DIR, then remove those no longer kept."

    def add_arguments(self, parser):
        parser.add_argument("--to", type=Path, help="the folder (default: BACKUP_DIR)")

    def handle(self, *args, **options):
        folder = options["to"] or Path(settings.BACKUP_DIR)
        try:
            made = backup(folder)
        except BackupFailed as failure:
            raise CommandError(f"No backup was made: {failure}") from None
        except OSError as error:
            # Most often on install day: a folder that only the daily job was to make.
            raise CommandError(
                f"No backup was made: {error.filename or folder} can't be written "
                f"({error.strerror}). Make {folder} writable by this user, or set BACKUP_DIR "
                "to a folder that is."
            ) from None
        removed = rotate(folder)
        self.stdout.write(f"Backed up to {made}.")
        if removed:
            self.stdout.write(f"Removed {len(removed)} older backup(s) no longer kept.")

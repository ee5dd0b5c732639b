"""``python manage.py import_games FILE [--owner USERNAME]``."""

from __future__ import annotations

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.history import ImportRefused, import_history


class Command(BaseCommand):
    help = "Import a game history file (JSON format 1), all games or none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON file to import ('-' for standard input).")
        parser.add_argument(
            "--owner",
            help="Username that will own the imported tables (default: the first superuser).",
        )

    def handle(self, *args: object, **options: object) -> None:
        path = options["file"]
        try:
            if path == "-":
                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
        except OSError as error:
            raise CommandError(f"Can't read {path}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{path} is not valid JSON: {error}") from None
        owner = self._owner(options["owner"])
        try:
            games = import_history(data, owner=owner)
        except ImportRefused as error:
            raise CommandError(f"Nothing imported. {error.message}") from None
        deals = sum(g.deals.count() for g in games)
        self.stdout.write(
            f"Imported {len(games)} games ({deals} deals) for {owner.get_username()}."
        )

    def _owner(self, username: object):
        users = get_user_model().objects
        if username:
            try:
                return users.get_by_natural_key(username)
            except users.model.DoesNotExist:
                raise CommandError(f"There is no user named {username!r}.") from None
        owner = users.filter(is_superuser=True).order_by("pk").first()
        if owner is None:
            raise CommandError("Name the owner with --owner USERNAME (there is no superuser yet).")
        return owner

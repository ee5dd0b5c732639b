"""``python manage.py import_games FILE [--owner USERNAME] [--table NAME]``."""

from __future__ import annotations

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.formats.paper import looks_like_results, read_upload
from games.formats.reading import ImportRefused
from games.services.imports import import_history


def counted(count: int, noun: str) -> str:
    """ "1 game", "3 games": the command speaks English, as Django's own do."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


class Command(BaseCommand):
    help = (
        "Import a game history file (JSON format 1), or a CSV of results kept on paper "
        "(with --table), all games or none."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The JSON file to import ('-' for standard input).")
        parser.add_argument(
            "--owner",
            help="Username that will own the imported tables (default: the first superuser).",
        )
        parser.add_argument(
            "--table",
            help="For a CSV of results kept on paper: the table they were kept at "
            "(the owner's table of that name, made if there is none).",
        )

    def handle(self, *args: object, **options: object) -> None:
        path = options["file"]
        try:
            if path == "-":
                raw = sys.stdin.buffer.read()
            else:
                with open(path, "rb") as f:
                    raw = f.read()
        except OSError as error:
            raise CommandError(f"Can't read {path}: {error.strerror}") from None
        table = options["table"] or ""
        if not table and looks_like_results(raw.decode("utf-8-sig", errors="replace")):
            raise CommandError(
                "This is a CSV of results: name the table they were kept at with --table NAME."
            )
        owner = self._owner(options["owner"])
        try:
            # No limit on the number of games here: a whole backup comes this way.
            games = import_history(read_upload(raw, table=table), owner=owner)
        except ImportRefused as error:
            raise CommandError(f"Nothing imported. {error.message}") from None
        deals = sum(g.deals.count() for g in games)
        there = (
            " 1 game was at its table already."
            if games.skipped == 1
            else f" {games.skipped} games were at their tables already."
        )
        self.stdout.write(
            f"Imported {counted(len(games), 'game')} ({counted(deals, 'deal')}) "
            f"for {owner.get_username()}." + (there if games.skipped else "")
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

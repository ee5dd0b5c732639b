"""``python manage.py export_games [--table NAME] [--output FILE] [--format json|csv]``."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.formats.writing import iter_csv, iter_json
from games.models import Game, Season


class Command(BaseCommand):
    help = "Write the game history as JSON (format 1) or CSV."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table", help="Only the games of tables with this name.")
        parser.add_argument("--output", help="Write to this file instead of standard output.")
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args: object, **options: object) -> None:
        games = Game.objects.order_by("started_at", "id")
        if options["table"]:
            games = games.filter(table__name=options["table"])
            if not games.exists():
                raise CommandError(f"No games found for a table named {options['table']!r}.")
        output = options["output"]
        if not output:
            self.stdout.ending = ""
            self._write(games, options["format"], self.stdout)
            return
        try:
            with open(output, "w", encoding="utf-8", newline="") as out:
                self._write(games, options["format"], out)
        except OSError as error:
            raise CommandError(f"Can't write {output}: {error.strerror}") from None

    def _write(self, games, fmt: object, out) -> None:
        seasons = Season.objects.filter(table__games__in=games).distinct()
        for chunk in iter_csv(games) if fmt == "csv" else iter_json(games, seasons):
            out.write(chunk)

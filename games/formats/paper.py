"""Scores kept on paper or in a spreadsheet, read as result-only games.

A CSV file with a header line, commas or semicolons between the columns (a
Norwegian spreadsheet writes semicolons), in one of two layouts:

- **a row a player a game**: ``date, game, player, total`` (``game``: the
  game's number that day, 1, 2, …);
- **a row a game**: ``date``, then a column for each player named in the
  header, their final total under it (blank: not at that game).

Headers may be English or Norwegian (``dato, spill, spiller, sum``); dates are
written 2026-12-04, 04.12.2026 or 04/12/2026. What it reads becomes a history
file's games (``"result_only": true``), so the preview, the import, the keys
that make the same file twice add nothing, and the backups are the JSON
file's own.
"""

from __future__ import annotations

import csv
import hashlib
import json
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games import engine
from games.engine.names import NameRefused, clean_text, name_key, player_name
from games.formats.reading import MOST_TOTAL, ImportRefused, read_history_file
from games.formats.writing import FORMAT

# The words a results table's header may name each column by, in English; each is
# read in every language of settings.LANGUAGES too (the catalogues' words).
HEADER_WORDS = {
    "date": [pgettext_lazy("results column", "date"), pgettext_lazy("results column", "day")],
    "game": [
        pgettext_lazy("results column", "game"),
        pgettext_lazy("results column", "number"),
        pgettext_lazy("results column", "no."),
    ],
    "player": [pgettext_lazy("results column", "player"), pgettext_lazy("results column", "name")],
    "total": [
        pgettext_lazy("results column", "total"),
        pgettext_lazy("results column", "totals"),
        pgettext_lazy("results column", "sum"),
        pgettext_lazy("results column", "points"),
        pgettext_lazy("results column", "score"),
    ],
}


@cache
def headers() -> dict[str, frozenset[str]]:
    """Each column's header words in every language the app speaks."""
    found: dict[str, set[str]] = {column: set() for column in HEADER_WORDS}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for column, words in HEADER_WORDS.items():
                found[column] |= {str(word).casefold() for word in words}
    return {column: frozenset(words) for column, words in found.items()}


_NAMES_TOO = {"dag"}  # header words that are also people's names
RULES = {"name": "Black Maria"}  # what a result-only game is counted as; its deals are unknown


def read_upload(raw: bytes, *, table: str) -> Any:
    """An uploaded file as a history file's data: results from paper (CSV, in
    UTF-8 or a Windows spreadsheet's own encoding), or the JSON history itself."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    if text.lstrip("\ufeff \t\r\n").startswith(("{", "[")):
        # JSON: never a header line of results (a 2 MB history file is often one
        # line, and reading it as cells took 1.5 s of its confirmation).
        return read_history_file(raw)
    if looks_like_results(text):
        return paper_history(text, table=table)
    if looks_like_our_export(text):
        raise ImportRefused(
            _(
                "This is the CSV the app exports for spreadsheets, a row a deal: it can't be "
                "imported back. Download the JSON file instead and import that."
            )
        )
    return read_history_file(raw)


def looks_like_results(text: str) -> bool:
    """A first line that names a date column: a table of results, not JSON."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    return any(_column(cell) == "date" for cell in _cells(first))


def looks_like_our_export(text: str) -> bool:
    """The header of the app's own CSV export (games/formats/writing.py), in
    either language: it holds the deals' points but not the rules they were
    scored by, so it is never read back as results."""
    first = [clean_text(cell).strip().casefold() for cell in _cells(text.split("\n", 1)[0])]
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            if first[:2] == [_("game").casefold(), _("table").casefold()]:
                return True
    return False


def _cells(line: str) -> list[str]:
    delimiter = ";" if line.count(";") > line.count(",") else ","
    try:
        return next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:
        # A cell past the csv module's limit (128 KB): no header of results,
        # so the file is read as JSON, which says what is wrong with it.
        return []


def _column(cell: str) -> str | None:
    word = clean_text(cell).strip().casefold()
    return next((column for column, words in headers().items() if word in words), None)


def paper_history(text: str, *, table: str) -> dict:
    """The results as a history file's games, every line checked; refused whole,
    naming the line and the reason."""
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    reader = csv.reader(lines, delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error:
        raise _refuse(reader.line_num, _("a cell is too long to be a result.")) from None
    header = [clean_text(cell).strip() for cell in rows[0]]
    body = [
        (number, row) for number, row in enumerate(rows[1:], start=2) if any(c.strip() for c in row)
    ]
    if not body:
        raise ImportRefused(_("The file has a header line but no results under it."))
    columns = read_header(header, [row for _line, row in body])
    if "player" in columns and "total" in columns:
        games = _by_player(body, columns)
    else:
        games = _by_game(body, header, columns)
    return {"format": FORMAT, "games": [_game(table, *game) for game in games]}


def read_header(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str | None]:
    """Each header cell's column (date, game, player, total), or None for a
    player's own column. A word that can name the date and a player alike
    ("Dag", a common name, is also "day") is the date only where its column
    holds the dates: of several such columns the one with the most dates is the
    date, the others players; as many dates in two of them is refused, naming both."""
    columns = [_column(cell) for cell in header]
    dated = [at for at, column in enumerate(columns) if column == "date"]
    counts = {at: sum(1 for row in rows if at < len(row) and _parse_day(row[at])) for at in dated}
    if len(dated) == 1 and not counts[dated[0]] and header[dated[0]].casefold() in _NAMES_TOO:
        # "Dag" alone, over numbers: a player, and the file has no dates at all.
        raise _refuse(
            1,
            _(
                "the column {column} holds no dates: if {column} is a player, add a column "
                "of dates (Dato) before the players"
            ).format(column=header[dated[0]]),
        )
    if len(dated) < 2:
        return columns
    most = max(counts.values())
    first = [at for at in dated if counts[at] == most]
    if len(first) > 1:
        both = engine.join_names([header[at] for at in first])
        raise _refuse(
            1,
            _("the columns {columns} could each be the date: keep one column of dates").format(
                columns=both
            ),
        )
    for at in dated:
        if at != first[0]:
            columns[at] = None
    return columns


def _refuse(line: int, reason: str) -> ImportRefused:
    return ImportRefused(_("Line {line}: {reason}").format(line=line, reason=reason))


def _parse_day(value: str) -> date | None:
    value = value.strip()
    for shape in ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d.%m.%y"):
        try:
            return datetime.strptime(value, shape).date()
        except ValueError:
            continue
    return None


def _day(line: int, value: str) -> date:
    day = _parse_day(value)
    if day is not None:
        return day
    value = value.strip()
    raise _refuse(
        line,
        _("the date {value} is not a date (write it as 2026-12-04 or 04.12.2026)").format(
            value=repr(value)
        ),
    )


def _total(line: int, value: str) -> int:
    cleaned = value.strip().replace("\u2212", "-").replace(" ", "")
    try:
        total = int(cleaned)
    except ValueError:
        raise _refuse(
            line, _("the total {value} is not a whole number").format(value=repr(value))
        ) from None
    if abs(total) > MOST_TOTAL:
        raise _refuse(line, _("the total {value} is too large").format(value=repr(value)))
    return total


def _number(line: int, value: str) -> int:
    number = _total(line, value)
    if not 1 <= number <= 1000:
        raise _refuse(
            line, _("the game's number {value} must be 1 or more").format(value=repr(value))
        )
    return number


def _name(line: int, value: str) -> str:
    try:
        return player_name(value)
    except NameRefused as refused:
        raise _refuse(line, refused.message) from None


Game = tuple[int, date, int, list[tuple[str, int]]]  # first line, day, number that day, seats


def _by_player(body, columns) -> list[Game]:
    where = {column: columns.index(column) for column in ("date", "player", "total")}
    number_at = columns.index("game") if "game" in columns else None
    games: dict[tuple[date, int], Game] = {}
    for line, row in body:
        row = row + [""] * (len(columns) - len(row))
        day = _day(line, row[where["date"]])
        number = 1
        if number_at is not None and row[number_at].strip():
            number = _number(line, row[number_at])
        name = _name(line, row[where["player"]])
        total = _total(line, row[where["total"]])
        game = games.setdefault((day, number), (line, day, number, []))
        if any(name_key(name) == name_key(seen) for seen, _t in game[3]):
            raise _refuse(line, _("{name} is in this game twice").format(name=name))
        game[3].append((name, total))
    return list(games.values())


def _by_game(body, header, columns) -> list[Game]:
    if "date" not in columns:
        raise _refuse(1, _("the header must name a date column"))
    day_at = columns.index("date")
    number_at = columns.index("game") if "game" in columns else None
    players = {at: _name(1, cell) for at, cell in enumerate(header) if columns[at] is None and cell}
    keys = [name_key(name) for name in players.values()]
    if len(set(keys)) != len(keys):
        raise _refuse(1, _("a player is named twice in the header"))
    games: list[Game] = []
    count: dict[date, int] = {}
    for line, row in body:
        row = row + [""] * (len(header) - len(row))
        day = _day(line, row[day_at])
        count[day] = count.get(day, 0) + 1
        number = count[day]
        if number_at is not None and row[number_at].strip():
            number = _number(line, row[number_at])
        seats = [(name, _total(line, row[at])) for at, name in players.items() if row[at].strip()]
        games.append((line, day, number, seats))
    return games


def _game(table: str, line: int, day: date, number: int, seats: Sequence[tuple[str, int]]) -> dict:
    if not engine.MIN_PLAYERS <= len(seats) <= engine.MAX_PLAYERS:
        raise _refuse(
            line,
            ngettext(
                "the game of {day} has {count} player; a game is for {least} to {most}",
                "the game of {day} has {count} players; a game is for {least} to {most}",
                len(seats),
            ).format(
                day=day.isoformat(),
                count=len(seats),
                least=engine.MIN_PLAYERS,
                most=engine.MAX_PLAYERS,
            ),
        )
    # When it ended, as near as paper says: that day, the games in their order.
    at = timezone.make_aware(datetime.combine(day, time(20)) + timedelta(minutes=number))
    held = {"day": day.isoformat(), "number": number, "seats": sorted(seats)}
    key = "paper-" + hashlib.sha256(json.dumps(held, ensure_ascii=False).encode()).hexdigest()[:32]
    return result_game(table, key=key, seats=seats, at=at)


def result_game(
    table: str,
    *,
    key: str,
    seats: Sequence[tuple[str, int]],
    at: datetime,
    first: str = "",
    rules: dict | None = None,
) -> dict:
    """A game known only by its final totals, as a history file holds it (the
    paper CSV and the plays logged in other apps alike); ``first``: who dealt
    first, when known, else the first seat; ``rules``: as a history file writes
    them, else Black Maria's."""
    names = [name for name, _t in seats]
    return {
        "key": key,
        "table": table,
        "players": names,
        "first_dealer": first or names[0],
        "rules": rules or RULES,
        "result_only": True,
        "totals": dict(seats),
        "started_at": at.isoformat(),
        "finished_at": at.isoformat(),
    }

"""The game history format (SPEC section 7): JSON format 1 and the CSV export.

Export writes what was entered plus what the engine computed; import reads
only what was entered, re-scores it, and saves all games or none.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from itertools import accumulate
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext as _

from games import ladder
from games import rules as r
from games.models import (
    NAME_MAX_LENGTH,
    TABLE_NAME_MAX_LENGTH,
    Deal,
    DealChange,
    Evening,
    Game,
    Player,
    Seat,
    Table,
)
from games.names import name_key, normalise_name
from games.services import store_scores

FORMAT = "blackmaria-scores/1"


# --- Export -----------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One game as plain rows: what an export reads, without model instances."""

    pk: int
    table: str
    rules: dict[str, Any]
    first_dealer: int
    status: str
    started_at: Any
    finished_at: Any
    names: list[str]
    totals: list[int]
    winners: list[str]
    # (number, mode, entry, raw, scores, moon_seat, totals)
    deals: list[tuple]
    # The club night it was played at ({"key", "name", "date", "scoring"}) and its round.
    evening: dict[str, Any] | None = None
    round: int | None = None


EXPORT_CHUNK = 200


def game_records(games: QuerySet[Game]) -> Iterator[GameRecord]:
    """The games in order, read 200 at a time in three queries each."""
    ids = list(games.values_list("pk", flat=True))
    for start in range(0, len(ids), EXPORT_CHUNK):
        chunk = ids[start : start + EXPORT_CHUNK]
        rows = {
            row["pk"]: row
            for row in Game.objects.filter(pk__in=chunk).values(
                "pk",
                "table__name",
                "rules",
                "first_dealer",
                "status",
                "started_at",
                "finished_at",
                "round",
                "evening_id",
                "evening__name",
                "evening__date",
                "evening__scoring",
            )
        }
        seats: dict[int, list[tuple]] = {pk: [] for pk in chunk}
        for game_id, *seat in (
            Seat.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values_list("game_id", "player__name", "total", "is_winner")
        ):
            seats[game_id].append(seat)
        deals: dict[int, list[tuple]] = {pk: [] for pk in chunk}
        for game_id, *deal in (
            Deal.objects.filter(game_id__in=chunk)
            .order_by("game_id", "number")
            .values_list(
                "game_id", "number", "mode", "entry", "raw", "scores", "moon_seat", "totals"
            )
        ):
            deals[game_id].append(tuple(deal))
        for pk in chunk:
            row = rows[pk]
            yield GameRecord(
                pk=pk,
                table=row["table__name"],
                rules=row["rules"],
                first_dealer=row["first_dealer"],
                status=row["status"],
                started_at=row["started_at"],
                finished_at=row["finished_at"],
                names=[name for name, _, _ in seats[pk]],
                totals=[total for _, total, _ in seats[pk]],
                winners=[name for name, _, won in seats[pk] if won],
                deals=deals[pk],
                evening=None
                if row["evening_id"] is None
                else {
                    "key": f"evening-{row['evening_id']}",
                    "name": row["evening__name"],
                    "date": row["evening__date"].isoformat(),
                    "scoring": row["evening__scoring"],
                },
                round=row["round"],
            )


def _by_name(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(names, values, strict=True))


def entry_to_json(mode: str, data: Any, names: Sequence[str]) -> dict[str, Any]:
    """A stored entry as the history format's ``cards``/``counts``/``points`` object."""
    if mode == "cards":
        return {"cards": _by_name(names, [list(c) for c in data])}
    if mode == "counts":
        return {
            "counts": {
                name: {"hearts": hearts, "cards": list(cards)}
                for name, hearts, cards in zip(names, data["hearts"], data["cards"], strict=True)
            }
        }
    return {"points": _by_name(names, list(data))}


def game_to_json(game: GameRecord) -> dict[str, Any]:
    names = game.names
    rules = r.Rules.from_dict(game.rules)
    players = len(names)
    deals = [
        {
            **entry_to_json(mode, entry, names),
            "number": number,
            "dealer": names[r.dealer(game.first_dealer, players, number)],
            "leader": names[r.leader(game.first_dealer, players, number)],
            "raw": _by_name(names, raw),
            "scores": _by_name(names, scores),
            "moon": None if moon is None else names[moon],
            "totals": _by_name(names, totals),
        }
        for number, mode, entry, raw, scores, moon, totals in game.deals
    ]
    finished = game.status == Game.Status.FINISHED
    evening = {"evening": game.evening, "round": game.round} if game.evening else {}
    return {
        "table": game.table,
        "players": names,
        "first_dealer": names[game.first_dealer],
        "rules": rules.to_dict(),
        "deals": deals,
        "status": game.status,
        "totals": _by_name(names, game.totals),
        "winners": game.winners,
        "deal_total": r.deal_total(rules, players),
        "moon_value": r.moon_value(rules, players),
        "next_dealer": None
        if finished
        else names[r.dealer(game.first_dealer, players, len(deals) + 1)],
        "started_at": game.started_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        **evening,
    }


def iter_json(games: QuerySet[Game]) -> Iterator[str]:
    """The history file, a game at a time, so a big export never sits in memory."""
    yield f'{{"format": "{FORMAT}", "games": ['
    separator = "\n"
    for game in game_records(games):
        yield separator + json.dumps(game_to_json(game), ensure_ascii=False)
        separator = ",\n"
    yield "\n]}\n"


def export_json(games: QuerySet[Game]) -> dict[str, Any]:
    return json.loads("".join(iter_json(games)))


def export_csv_rows(games: QuerySet[Game]) -> Iterator[list[str | int]]:
    """One row per deal, after a header row.

    With one game the columns are named after its players; with several
    (whose players differ) they are numbered by seat, and each row names its
    players in the ``seat N`` columns.
    """
    single = games.count() == 1
    if single:
        names = [s.player.name for s in games.get().seats.select_related("player")]
        header: list[str | int] = [_("game"), _("table"), _("evening"), _("round")]
        header += [_("deal"), _("dealer")]
        header += [_("{name} points").format(name=n) for n in names]
        header += [_("moon")]
        header += [_("{name} total").format(name=n) for n in names]
        yield header
    else:
        widest = Seat.objects.filter(game__in=games).aggregate(m=Max("number"))["m"]
        width = r.MIN_PLAYERS if widest is None else widest + 1
        header = [_("game"), _("table"), _("evening"), _("round"), _("deal"), _("dealer")]
        header += [_("seat {number}").format(number=i) for i in range(1, width + 1)]
        header += [_("seat {number} points").format(number=i) for i in range(1, width + 1)]
        header += [_("moon")]
        header += [_("seat {number} total").format(number=i) for i in range(1, width + 1)]
        yield header
    for game in game_records(games):
        names = game.names
        pad = [] if single else [""] * (width - len(names))
        for number, _mode, _entry, _raw, scores, moon, totals in game.deals:
            row: list[str | int] = [
                game.pk,
                game.table,
                game.evening["name"] if game.evening else "",
                game.round or "",
                number,
                names[r.dealer(game.first_dealer, len(names), number)],
            ]
            if not single:
                row += names + pad
            row += list(scores) + pad
            row += ["" if moon is None else names[moon]]
            row += list(totals) + pad
            yield row


class _Line:
    """A file-like object that hands back what csv.writer writes."""

    def write(self, value: str) -> str:
        return value


def iter_csv(games: QuerySet[Game]) -> Iterator[str]:
    writer = csv.writer(_Line())
    for row in export_csv_rows(games):
        yield writer.writerow([_csv_safe(v) for v in row])


# A cell a spreadsheet could read as a formula: one starting with = + - @ (or
# a tab or return before them), or one where such a sign follows a character a
# spreadsheet may split cells on (Norwegian Excel splits on ";").
_FORMULA_START = re.compile(r"^[=+\-@\t\r]")
_FORMULA_AFTER_SPLIT = re.compile(r"([;,\t|]\s*)(?=[=+\-@])")


def _csv_safe(value: str | int) -> str | int:
    """Text stays text when the file opens in a spreadsheet: such signs get a ' before them.

    >>> _csv_safe("=SUM(A1)"), _csv_safe("a;=1+1"), _csv_safe("Anne-Marie"), _csv_safe(-3)
    ("'=SUM(A1)", "a;'=1+1", 'Anne-Marie', -3)
    """
    if not isinstance(value, str):
        return value
    value = _FORMULA_AFTER_SPLIT.sub(r"\1'", value)
    return "'" + value if _FORMULA_START.match(value) else value


# --- Import -----------------------------------------------------------------


class ImportRefused(Exception):
    """A file that can't be imported; nothing was saved."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


# A history file is never nested deeper than this (format 1 needs 5 levels).
MOST_DEPTH = 20
# Games in one file imported through a web page (a backup on the command line
# may hold more); deals per game are bounded by the rules (rules.MOST_DEALS).
WEB_MOST_GAMES = 500
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def read_history_file(raw: bytes) -> Any:
    """The JSON document in ``raw``, or :class:`ImportRefused` saying why it can't be read.

    Checked for depth before parsing (deep nesting would exhaust Python's
    recursion) and for text that can't be stored (a lone surrogate).
    """
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(_("This file is not a history file (it is not JSON text).")) from None
    brackets = re.sub(r"[^\[\]{}]", "", _JSON_STRING.sub("", text))
    depth = max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)
    if depth > MOST_DEPTH:
        raise ImportRefused(
            _("This file is not a history file: it is nested {depth} levels deep.").format(
                depth=depth
            )
        )
    try:
        data = json.loads(text)
        # Every text in it must be storable: "\ud800" alone is JSON, but not text.
        json.dumps(data, ensure_ascii=False).encode()
    except (ValueError, UnicodeEncodeError):
        # ValueError: not JSON, or a number thousands of digits long.
        raise ImportRefused(_("This file is not a history file (it is not JSON text).")) from None
    return data


@dataclass(frozen=True)
class ParsedGame:
    table: str
    names: tuple[str, ...]
    first_dealer: int
    rules: r.Rules
    entries: tuple[r.Entry, ...]
    state: r.GameState
    # The club night and round it was played in, when the file says.
    evening: ParsedEvening | None = None
    round: int | None = None


@dataclass(frozen=True)
class ParsedEvening:
    key: str
    name: str
    date: date
    scoring: str


def parse_history(data: Any, *, most_games: int | None = None) -> list[ParsedGame]:
    """Check a whole file; raise :class:`ImportRefused` naming game, deal and reason."""
    if not isinstance(data, dict):
        raise ImportRefused(_("The file is not a scorekeeper history (expected a JSON object)."))
    if data.get("format") != FORMAT:
        raise ImportRefused(
            _("The file's format is {found}; this app reads {expected}.").format(
                found=repr(data.get("format")), expected=repr(FORMAT)
            )
        )
    games = data.get("games")
    if not isinstance(games, list):
        raise ImportRefused(_("The file has no list of games."))
    if most_games is not None and len(games) > most_games:
        raise ImportRefused(
            _(
                "The file holds {count} games; at most {most} can be imported at once here. "
                "Import it on the command line, or export fewer games."
            ).format(count=len(games), most=most_games)
        )
    return [_parse_game(index, game) for index, game in enumerate(games, start=1)]


def _parse_game(index: int, data: Any) -> ParsedGame:
    def refuse(reason: str, deal: int | None = None) -> ImportRefused:
        table = data.get("table") if isinstance(data, dict) else None
        if isinstance(table, str):
            where = _("Game {number} ({table})").format(number=index, table=table)
        else:
            where = _("Game {number}").format(number=index)
        if deal is not None:
            where = _("{game}, deal {number}").format(game=where, number=deal)
        return ImportRefused(_("{where}: {reason}").format(where=where, reason=reason))

    if not isinstance(data, dict):
        raise refuse(_("a game must be an object"))
    table = data.get("table")
    if not isinstance(table, str) or not normalise_name(table):
        raise refuse(_("the table's name is missing"))
    table = normalise_name(table)
    if len(table) > TABLE_NAME_MAX_LENGTH:
        raise refuse(
            _("the table's name is longer than {most} characters").format(
                most=TABLE_NAME_MAX_LENGTH
            )
        )
    names = data.get("players")
    if not isinstance(names, list) or not all(
        isinstance(n, str) and normalise_name(n) for n in names
    ):
        raise refuse(_("players must be a list of names"))
    names = [normalise_name(n) for n in names]
    keys = [name_key(n) for n in names]
    twice = [n for n, k in zip(names, keys, strict=True) if keys.count(k) > 1]
    if twice:
        raise refuse(
            _("{names} are the same player written two ways").format(names=r.join_names(twice))
        )
    if any(len(n) > NAME_MAX_LENGTH for n in names):
        raise refuse(
            _("a player's name is longer than {most} characters").format(most=NAME_MAX_LENGTH)
        )
    if not r.MIN_PLAYERS <= len(names) <= r.MAX_PLAYERS:
        raise refuse(
            _("the game is for {least} to {most} players, not {players}").format(
                least=r.MIN_PLAYERS, most=r.MAX_PLAYERS, players=len(names)
            )
        )
    first = data.get("first_dealer")
    if not isinstance(first, str) or name_key(first) not in keys:
        raise refuse(
            _("the first dealer {name} is not one of the players").format(name=repr(first))
        )
    first = names[keys.index(name_key(first))]
    try:
        rules = r.resolve(r.Rules.from_dict(data.get("rules")), len(names))
    except r.RulesError as error:
        raise refuse(_("rules: {problems}").format(problems="; ".join(error.problems))) from None
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise refuse(_("deals must be a list"))
    if len(deals) > r.MOST_DEALS:
        raise refuse(
            _("the game has {count} deals; a game holds at most {most}").format(
                count=len(deals), most=r.MOST_DEALS
            )
        )
    entries = []
    for number, deal in enumerate(deals, start=1):
        try:
            entries.append(_parse_entry(deal, names))
        except ValueError as error:
            raise refuse(str(error), number) from None
    try:
        state = r.score_game(rules, names, names.index(first), entries)
    except r.GameError as error:
        reason = "; ".join(error.problems)
        if error.deal is not None:
            reason = "; ".join(r.without_deal_number(p, error.deal) for p in error.problems)
        raise refuse(reason, error.deal) from None
    evening, round_ = _parse_evening(data, refuse)
    return ParsedGame(
        table.strip(),
        tuple(names),
        names.index(first),
        rules,
        tuple(entries),
        state,
        evening,
        round_,
    )


def _parse_evening(data: dict, refuse) -> tuple[ParsedEvening | None, int | None]:
    """The game's club night and round (optional keys: a file without them imports)."""
    evening = data.get("evening")
    if evening is None:
        return None, None
    if not isinstance(evening, dict):
        raise refuse(_("the evening must be an object"))
    name = evening.get("name")
    name = normalise_name(name) if isinstance(name, str) else ""
    if not name or len(name) > 80:
        raise refuse(_("the evening needs a name of at most 80 characters"))
    try:
        day = date.fromisoformat(evening.get("date"))
    except (TypeError, ValueError):
        raise refuse(_("the evening's date must be written like 2026-12-04")) from None
    scoring = evening.get("scoring", Evening.Scoring.PLACES)
    if scoring not in Evening.Scoring.values:
        raise refuse(
            _("the evening's scoring must be one of {choices}").format(
                choices=", ".join(Evening.Scoring.values)
            )
        )
    key = evening.get("key")
    if not isinstance(key, str) or not key or len(key) > 100:
        key = f"{name}|{day}|{scoring}"
    round_ = data.get("round")
    if round_ is not None and (
        isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= 999
    ):
        raise refuse(_("the round must be a whole number from 1 to 999"))
    return ParsedEvening(key, name, day, scoring), round_


def _parse_entry(deal: Any, names: Sequence[str]) -> r.Entry:
    if not isinstance(deal, dict):
        raise ValueError(_("a deal must be an object"))
    modes = [m for m in r.ENTRY_MODES if m in deal]
    if len(modes) != 1:
        raise ValueError(_("a deal must have exactly one of cards, counts or points"))
    mode = modes[0]
    body = deal[mode]
    if not isinstance(body, dict):
        raise ValueError(
            _("{mode} must map each player's name to what they took").format(mode=mode)
        )
    keys = {name_key(n): n for n in names}
    unknown = [k for k in body if not isinstance(k, str) or name_key(k) not in keys]
    if unknown:
        raise ValueError(
            _("{names} is not playing in this game").format(
                names=r.join_names([repr(k) for k in unknown])
            )
        )
    body = {keys[name_key(k)]: v for k, v in body.items()}
    missing = [n for n in names if n not in body]
    if missing:
        raise ValueError(_("{names} missing from the deal").format(names=r.join_names(missing)))
    if mode == "cards":
        per_seat = [_card_list(body[n], n) for n in names]
        return r.CardsEntry(tuple(per_seat))
    if mode == "counts":
        hearts, cards = [], []
        for n in names:
            item = body[n]
            if not isinstance(item, dict):
                raise ValueError(_("{name}'s counts must have hearts and cards").format(name=n))
            count = item.get("hearts", 0)
            if not isinstance(count, int) or isinstance(count, bool):
                raise ValueError(_("{name}'s hearts must be a whole number").format(name=n))
            hearts.append(count)
            cards.append(_card_list(item.get("cards", []), n))
        return r.CountsEntry(tuple(hearts), tuple(cards))
    points = []
    for n in names:
        value = body[n]
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(_("{name}'s points must be a whole number").format(name=n))
        points.append(value)
    return r.PointsEntry(tuple(points))


def _card_list(value: Any, name: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise ValueError(
            _("{name}'s cards must be a list of card codes such as QS").format(name=name)
        )
    return tuple(c.strip().upper() for c in value)


def import_history(
    data: Any,
    *,
    owner: AbstractBaseUser,
    table: Table | None = None,
    most_games: int | None = None,
) -> list[Game]:
    """Import every game in ``data`` for ``owner``, all or nothing.

    Games go to the owner's table of the same name (made when missing), or
    all into ``table`` when one is given; missing players are added.
    """
    parsed = parse_history(data, most_games=most_games)
    with transaction.atomic():
        evenings: dict[tuple[int, str], Evening] = {}
        games = [_save_game(p, owner=owner, table=table, evenings=evenings) for p in parsed]
        # Ratings come from the games, never from the file: each table once, at the end.
        for rated in {game.table_id: game.table for game in games}.values():
            ladder.rerate(rated)
        return games


def _save_game(
    parsed: ParsedGame,
    *,
    owner: AbstractBaseUser,
    table: Table | None,
    evenings: dict[tuple[int, str], Evening],
) -> Game:
    if table is None:
        tables = Table.objects.filter(owner=owner).order_by("id")
        table = next((t for t in tables if name_key(t.name) == name_key(parsed.table)), None)
        if table is None:
            table = Table.objects.create(owner=owner, name=parsed.table)
    # Players already at the table are matched as people write names: "ann" is Ann.
    known = {name_key(p.name): p for p in table.players.all()}
    players = []
    for name in parsed.names:
        player = known.get(name_key(name))
        if player is None:
            player = known[name_key(name)] = Player.objects.create(table=table, name=name)
        players.append(player)
    evening = None
    if parsed.evening is not None:
        # The games of one evening in the file make one evening at their table.
        evening = evenings.get((table.pk, parsed.evening.key))
        if evening is None:
            evening = evenings[(table.pk, parsed.evening.key)] = Evening.objects.create(
                table=table,
                name=parsed.evening.name,
                date=parsed.evening.date,
                scoring=parsed.evening.scoring,
                created_by=owner,
            )
        evening.present.add(*players)
    game = Game.objects.create(
        table=table,
        rules=parsed.rules.to_dict(),
        first_dealer=parsed.first_dealer,
        evening=evening,
        round=parsed.round if evening else None,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, number=number) for number, player in enumerate(players)
    )
    deals = [
        Deal(game=game, number=number, mode=entry.mode, entry=entry.to_data())
        for number, entry in enumerate(parsed.entries, start=1)
    ]
    store_scores(game, deals, parsed.state, start=0, rerate=False)
    DealChange.objects.bulk_create(
        DealChange(
            game=game,
            deal=deal,
            number=deal.number,
            action=DealChange.Action.RECORDED,
            by=owner,
            after={"mode": deal.mode, "entry": deal.entry, "scores": deal.scores, "imported": True},
        )
        for deal in deals
    )
    return game

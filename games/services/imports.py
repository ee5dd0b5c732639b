"""Bringing a read history file in: tables, players, games, deals and club
nights, all or nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import sql
from games.engine.names import name_key
from games.formats.reading import (
    ImportRefused,
    ParsedGame,
    ParsedSeason,
    parse_history,
    parse_seasons,
)
from games.models import Evening, Game, Player, Table
from games.services import ladder
from games.services.errors import Refused
from games.services.games import NewGame, games_create
from games.services.once import sent_before
from games.services.players import players_join
from games.services.tables import season_add, table_create


def import_history(
    data: Any,
    *,
    owner: AbstractBaseUser,
    table: Table | None = None,
    most_games: int | None = None,
    key: str = "",
) -> list[Game]:
    """Import every game in ``data`` for ``owner``, all or nothing.

    Games go to the owner's table of the same name (made when missing), or
    all into ``table`` when one is given; missing players are added. ``key``
    names this import (the confirmation's upload): its first game keeps it,
    so the same confirmation sent twice, even at once, imports once
    (games/services/once.py finds it).
    """
    parsed = parse_history(data, most_games=most_games)
    seasons = parse_seasons(data)
    if table is not None and sent_before(table.games, key):
        raise ImportedAlready
    try:
        with transaction.atomic():
            if table is not None:
                # One import at a time at a table: the same confirmation sent from
                # several phones at once waits here, then finds the games made.
                Table.objects.select_for_update().filter(pk=table.pk).exists()
                if sent_before(table.games, key):
                    raise ImportedAlready
            made = _Made()
            skipped = 0
            for game in parsed:
                if not _new_game(game, owner=owner, table=table, made=made, key=key):
                    skipped += 1
            if not made.games and table is not None and sent_before(table.games, key):
                # The same confirmation, sent twice at once: the other one finished
                # first, so every game of the file was there when this one looked.
                raise ImportedAlready
            # Every game, then every deal, at once, as the engine scored them on reading;
            # when they started and ended as the file says (the ladder rates in that order).
            games = Imported(games_create([new for new, _ in made.games]))
            games.skipped = skipped
            sql.insert_deals(
                [
                    sql.NewDeal(game.pk, entry.mode, entry.to_data(), scored)
                    for game, (_, read) in zip(games, made.games, strict=True)
                    for entry, scored in zip(read.entries, read.state.deals, strict=True)
                ],
                changes_by=owner,
            )
            for season in seasons:
                _save_season(season, owner=owner, table=table)
            # Ratings come from the games, never from the file: each table once, at the end.
            for rated in {game.table_id: game.table for game in games}.values():
                ladder.rerate(rated)
            return games
    except IntegrityError:
        # The same confirmation, sent twice at once: the other one imported it.
        if table is not None and sent_before(table.games, key):
            raise ImportedAlready from None
        raise


class Imported(list):
    """The games an import made; ``skipped``: those of the file already at their table."""

    skipped = 0


class ImportedAlready(Exception):
    """This import was confirmed before: its games are at the table already."""


@dataclass
class _Made:
    """What an import has made so far: club nights and players by table, deals to write."""

    evenings: dict[tuple[int, str], Evening] = field(default_factory=dict)
    players: dict[int, dict[str, Player]] = field(default_factory=dict)
    games: list[tuple[NewGame, ParsedGame]] = field(default_factory=list)  # to make, at once
    keys: dict[int, set[str]] = field(default_factory=dict)  # the games at each table


def _table(name: str, *, owner: AbstractBaseUser) -> Table:
    """The owner's table of this name, written any way ("Friday club" is "friday  club")."""
    tables = Table.objects.filter(owner=owner).order_by("id")
    table = next((t for t in tables if name_key(t.name) == name_key(name)), None)
    return table or table_create(owner=owner, name=name, ruleset=None)


def _save_season(season: ParsedSeason, *, owner: AbstractBaseUser, table: Table | None) -> None:
    """The season at its table, unless it is there already; one overlapping another
    refuses the whole file, naming it."""
    at = table or _table(season.table or "", owner=owner)
    same = {"name": season.name, "starts": season.starts, "ends": season.ends}
    if at.seasons.filter(**same).exists():
        return
    try:
        season_add(table=at, **same)
    except Refused as refusal:
        raise ImportRefused(
            _("Season {name}: {reason}").format(name=season.name, reason=refusal.problems[0])
        ) from None


def _new_game(
    parsed: ParsedGame, *, owner: AbstractBaseUser, table: Table | None, made: _Made, key: str
) -> bool:
    """The game to make at its table (its players joined), or False when that table
    has it already. The first game made keeps the import's ``key``."""
    if table is None:
        table = _table(parsed.table, owner=owner)
    if table.pk not in made.keys:
        made.keys[table.pk] = set(table.games.values_list("key", flat=True))
    if parsed.key in made.keys[table.pk]:
        return False  # imported before (the same backup again), or twice in this file
    made.keys[table.pk].add(parsed.key)
    # Players already at the table are matched as people write names: "ann" is Ann.
    if table.pk not in made.players:
        made.players[table.pk] = {p.name_key: p for p in table.players.all()}
    known = made.players[table.pk]
    missing = [name for name in parsed.names if name_key(name) not in known]
    known.update((p.name_key, p) for p in players_join(table=table, names=missing))
    players = [known[name_key(name)] for name in parsed.names]
    unnamed = {name_key(name) for name in parsed.unnamed} & {name_key(name) for name in missing}
    if unnamed:
        # Seats another app logged without a name: kept apart, and off the ladder.
        Player.objects.filter(pk__in=[known[key].pk for key in unnamed]).update(unnamed=True)
    evening = None
    if parsed.evening is not None:
        # The games of one evening in the file make one evening at their table.
        evening = made.evenings.get((table.pk, parsed.evening.key))
        if evening is None:
            evening = made.evenings[(table.pk, parsed.evening.key)] = Evening.objects.create(
                table=table,
                name=parsed.evening.name,
                date=parsed.evening.date,
                scoring=parsed.evening.scoring,
                created_by=owner,
            )
        evening.present.add(*players)
    new = NewGame(
        table=table,
        players=players,
        rules=parsed.rules,
        first_dealer=parsed.first_dealer,
        key="" if made.games else key,
        evening=evening,
        round=parsed.round if evening else None,
        state=parsed.state,
        key_of_game=parsed.key,
        result_only=parsed.result_only,
        started_at=parsed.started_at,
        finished_at=parsed.finished_at,
    )
    made.games.append((new, parsed))
    return True

"""Bringing a read history file in: tables, players, games, deals and club
nights, all or nothing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction

from games import sql
from games.engine.names import name_key
from games.formats.reading import ParsedGame, parse_history
from games.models import ClubNight, Game, Player, Table
from games.services import ladder
from games.services.games import game_create
from games.services.once import sent_before
from games.services.players import players_join
from games.services.tables import table_create


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
    if table is not None and sent_before(table.games, key):
        raise ImportedAlready
    try:
        with transaction.atomic():
            made = _Made()
            games = [
                _save_game(game, owner=owner, table=table, made=made, key="" if i else key)
                for i, game in enumerate(parsed)
            ]
            # Every deal of every game at once, as the engine scored them on reading.
            sql.insert_deals(made.deals, changes_by=owner)
            # Ratings come from the games, never from the file: each table once, at the end.
            for rated in {game.table_id: game.table for game in games}.values():
                ladder.rerate(rated)
            return games
    except IntegrityError:
        # The same confirmation, sent twice at once: the other one imported it.
        if table is not None and sent_before(table.games, key):
            raise ImportedAlready from None
        raise


class ImportedAlready(Exception):
    """This import was confirmed before: its games are at the table already."""


@dataclass
class _Made:
    """What an import has made so far: club nights and players by table, deals to write."""

    evenings: dict[tuple[int, str], ClubNight] = field(default_factory=dict)
    players: dict[int, dict[str, Player]] = field(default_factory=dict)
    deals: list[sql.NewDeal] = field(default_factory=list)


def _save_game(
    parsed: ParsedGame, *, owner: AbstractBaseUser, table: Table | None, made: _Made, key: str
) -> Game:
    if table is None:
        tables = Table.objects.filter(owner=owner).order_by("id")
        table = next((t for t in tables if name_key(t.name) == name_key(parsed.table)), None)
        if table is None:
            table = table_create(owner=owner, name=parsed.table, ruleset=None)
    # Players already at the table are matched as people write names: "ann" is Ann.
    if table.pk not in made.players:
        made.players[table.pk] = {p.name_key: p for p in table.players.all()}
    known = made.players[table.pk]
    missing = [name for name in parsed.names if name_key(name) not in known]
    known.update((p.name_key, p) for p in players_join(table=table, names=missing))
    players = [known[name_key(name)] for name in parsed.names]
    evening = None
    if parsed.evening is not None:
        # The games of one evening in the file make one evening at their table.
        evening = made.evenings.get((table.pk, parsed.evening.key))
        if evening is None:
            evening = made.evenings[(table.pk, parsed.evening.key)] = ClubNight.objects.create(
                table=table,
                name=parsed.evening.name,
                date=parsed.evening.date,
                scoring=parsed.evening.scoring,
                created_by=owner,
            )
        evening.present.add(*players)
    game = game_create(
        table=table,
        players=players,
        rules=parsed.rules,
        first_dealer=parsed.first_dealer,
        key=key,
        evening=evening,
        round=parsed.round if evening else None,
        state=parsed.state,
    )
    made.deals += [
        sql.NewDeal(game.pk, entry.mode, entry.to_data(), scored)
        for entry, scored in zip(parsed.entries, parsed.state.deals, strict=True)
    ]
    return game

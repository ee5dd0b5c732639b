"""Bringing a read history file in: tables, players, games, deals and club
nights, all or nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.engine.names import name_key
from games.formats.reading import ParsedGame, parse_history
from games.models import (
    Deal,
    DealChange,
    Evening,
    Game,
    Player,
    Seat,
    Table,
)
from games.services import ladder
from games.services.deals import store_scores


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

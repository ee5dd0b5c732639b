"""Bringing a read history file in: tables, players, games, deals and club
nights, all or nothing."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import sql
from games.engine.names import name_key
from games.formats.reading import ParsedGame, parse_history
from games.models import ClubNight, Deal, DealChange, Game, Table
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
            evenings: dict[tuple[int, str], ClubNight] = {}
            games = [
                _save_game(
                    p, owner=owner, table=table, evenings=evenings, key=key if i == 0 else ""
                )
                for i, p in enumerate(parsed)
            ]
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


def _save_game(
    parsed: ParsedGame,
    *,
    owner: AbstractBaseUser,
    table: Table | None,
    evenings: dict[tuple[int, str], ClubNight],
    key: str,
) -> Game:
    if table is None:
        tables = Table.objects.filter(owner=owner).order_by("id")
        table = next((t for t in tables if name_key(t.name) == name_key(parsed.table)), None)
        if table is None:
            table = table_create(owner=owner, name=parsed.table, ruleset=None)
    # Players already at the table are matched as people write names: "ann" is Ann.
    known = {p.name_key: p for p in table.players.all()}
    missing = [name for name in parsed.names if name_key(name) not in known]
    known.update((p.name_key, p) for p in players_join(table=table, names=missing))
    players = [known[name_key(name)] for name in parsed.names]
    evening = None
    if parsed.evening is not None:
        # The games of one evening in the file make one evening at their table.
        evening = evenings.get((table.pk, parsed.evening.key))
        if evening is None:
            evening = evenings[(table.pk, parsed.evening.key)] = ClubNight.objects.create(
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
    )
    # Written in bulk, as the engine scored them when the file was read: a
    # 2 MB file (500 games of 90 deals) imports in a few seconds.
    state = parsed.state
    deals = [
        Deal(
            game=game,
            number=scored.number,
            mode=entry.mode,
            entry=entry.to_data(),
            raw=list(scored.result.raw),
            scores=list(scored.result.scores),
            totals=list(scored.totals),
            moon_seat=scored.result.moon,
        )
        for entry, scored in zip(parsed.entries, state.deals, strict=True)
    ]
    Deal.objects.bulk_create(deals)
    seats = list(game.seats.order_by("number"))
    for seat in seats:
        seat.total, seat.is_winner = state.totals[seat.number], seat.number in state.winners
    sql.seat_totals(seats)
    if state.finished:
        game.status, game.finished_at = Game.Status.FINISHED, timezone.now()
        Game.objects.filter(pk=game.pk).update(status=game.status, finished_at=game.finished_at)
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

"""What a board's poll compares: the versions of what a game's board shows.

Pages are drawn afresh for every request; only a board already open on a phone
asks, every few seconds, whether what it shows has changed (its poll's ETag,
games/selectors/games.py). A game's own row (its deals' totals, its status, its
note) moves ``Game.version`` in the same write; what the board shows of the
game's table (its name, its players' names, its rulesets) moves ``Table.version``,
one row however many games the table has; the chances move ``chances_version``
(games/services/ladder.py).
"""

from __future__ import annotations

from django.db.models import F, QuerySet

from games.models import Game, Table


def game_changed(game: Game, **fields) -> None:
    """Write ``fields`` to a game whose row the caller holds locked, and move its version on."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, **fields)
    game.version += 1
    for name, value in fields.items():
        setattr(game, name, value)


def games_changed(games: QuerySet[Game], **fields) -> None:
    """Write ``fields`` to these games, each moved on."""
    games.update(version=F("version") + 1, **fields)


def table_changed(table_id: int) -> None:
    """Something of this table that its games' boards show has changed."""
    Table.objects.filter(pk=table_id).update(version=F("version") + 1)

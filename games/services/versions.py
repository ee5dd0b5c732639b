"""What a board's poll compares: the version of what a game's board shows.

Pages are drawn afresh for every request; only a board already open on a phone
asks, every few seconds, whether what it shows has changed (its poll's ETag,
games/selectors/games.py). ``Game.version`` moves in the same write as the game's
row (its deals' totals, its status, its note) and when one of its players is
renamed, the one thing of its table a board shows; a member's poll compares the
table's ``chances_version`` too (games/services/ladder.py). A watch link's poll
reads the game's row alone: its one query is the commonest request of a club night.
"""

from __future__ import annotations

from django.db.models import F, QuerySet

from games.models import Game


def game_changed(game: Game, **fields) -> None:
    """Write ``fields`` to a game whose row the caller holds locked, and move its version on."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1, **fields)
    game.version += 1
    for name, value in fields.items():
        setattr(game, name, value)


def games_changed(games: QuerySet[Game], **fields) -> None:
    """Write ``fields`` to these games, each moved on."""
    games.update(version=F("version") + 1, **fields)

"""The table's ratings, kept: rated again from scratch whenever a result changes."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import F

from games.engine import ratings
from games.models import Game, PlayerRating, Seat, Standing, Table


def finished_results(table: Table) -> list[tuple[int, list[tuple[int, int]]]]:
    """(game, [(player, final total), ...]) for the table's finished games, in finishing order.

    Unnamed seats (brought in from another app's log) are left out: nobody can be
    rated as "Unnamed 1". A game left with fewer than two rated seats is no contest.
    """
    seats = (
        Seat.objects.filter(
            game__table=table, game__status=Game.Status.FINISHED, player__unnamed=False
        )
        .order_by("game__finished_at", "game_id", "number")
        .values_list("game_id", "player_id", "total")
    )
    games: dict[int, list[tuple[int, int]]] = {}
    for game, player, total in seats:
        games.setdefault(game, []).append((player, total))
    return [(game, seats) for game, seats in games.items() if len(seats) >= 2]


@transaction.atomic
def rerate(table: Table) -> None:
    """Rate the table's finished games again, from scratch, and keep the result."""
    # One at a time at a table: two games finishing at once each delete and write the
    # whole ladder. The second waits here, then reads both games finished.
    Table.objects.select_for_update().filter(pk=table.pk).exists()
    rated = ratings.rate(finished_results(table))
    PlayerRating.objects.filter(player__table=table).delete()
    Standing.objects.filter(player__table=table).delete()
    PlayerRating.objects.bulk_create(
        PlayerRating(
            game_id=r.game,
            player_id=r.player,
            place=r.place,
            mu_before=r.before.mu,
            sigma_before=r.before.sigma,
            mu=r.after.mu,
            sigma=r.after.sigma,
        )
        for r in rated
    )
    winners: dict[int, int] = defaultdict(int)
    for r in rated:
        if r.place == 1:
            winners[r.game] += 1
    last: dict[int, ratings.Rated] = {}
    games: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    shared: dict[int, int] = defaultdict(int)
    for r in rated:
        last[r.player] = r
        games[r.player] += 1
        if r.place == 1:
            wins[r.player] += 1
            shared[r.player] += winners[r.game] > 1
    Standing.objects.bulk_create(
        Standing(
            player_id=player,
            mu=r.after.mu,
            sigma=r.after.sigma,
            games=games[player],
            wins=wins[player],
            shared_wins=shared[player],
            change=r.after.shown - r.before.shown,
        )
        for player, r in last.items()
    )
    # Every game page shows chances drawn from the results: before the first deal
    # from the ladder, during a game and over a finished one from the finished
    # games' deals. A member's game page is kept by the table's chances version too
    # (games/selectors/games.py), so one row moves on, not every game's: a game another
    # phone is saving into stays unlocked.
    Table.objects.filter(pk=table.pk).update(chances_version=F("chances_version") + 1)
    table.chances_version += 1

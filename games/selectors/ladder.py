"""The kept ratings as the ladder, a season's ladder, a player's page and the
chances before a game read them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db.models import QuerySet

from games.models import Game, Player, PlayerRating, Seat, Standing, Table


def standings(table: Table) -> QuerySet[Standing]:
    """Each rated player's standing, with the player (one query)."""
    return Standing.objects.filter(player__table=table).select_related("player")


def standings_of(players: Sequence[Player]) -> dict[int, Standing]:
    """The standings of these players that have one, by player (one query)."""
    return {s.player_id: s for s in Standing.objects.filter(player__in=players)}


def standing_of(player: Player) -> Standing | None:
    return Standing.objects.filter(player=player).first()


def ratings_over_time(player: Player) -> list[tuple[int, int, float, float]]:
    """(game, place, mu, sigma) after each of the player's rated games, oldest first."""
    return list(
        PlayerRating.objects.filter(player=player)
        .order_by("game__finished_at", "game_id")
        .values_list("game_id", "place", "mu", "sigma")
    )


def places_of_others(player: Player, games: Iterable[int]) -> QuerySet:
    """(game, place, name) of everyone else in these rated games."""
    return (
        PlayerRating.objects.filter(game_id__in=games)
        .exclude(player=player)
        .values_list("game_id", "place", "player__name")
    )


def season_results(table: Table, season) -> QuerySet:
    """(game, player, total, name) of each seat of the table's games finished in the
    season, in the order they finished."""
    return (
        Seat.objects.filter(
            game__table=table,
            game__status=Game.Status.FINISHED,
            game__finished_at__date__gte=season.starts,
            game__finished_at__date__lte=season.ends,
        )
        .order_by("game__finished_at", "game_id", "number")
        .values_list("game_id", "player_id", "total", "player__name")
    )


def ratings_kept(table: Table) -> QuerySet:
    """(game, player, place, mu before, sigma before, mu, sigma) of every rated seat at
    the table, in the order the games finished."""
    return (
        PlayerRating.objects.filter(player__table=table)
        .order_by("game__finished_at", "game_id", "player_id")
        .values_list("game_id", "player_id", "place", "mu_before", "sigma_before", "mu", "sigma")
    )


def latest_rating(table: Table) -> int:
    """The newest rating row's id: the table is rated again from scratch whenever a
    result changes, so this moves on with every change to its ladder."""
    return (
        PlayerRating.objects.filter(player__table=table)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
        or 0
    )


def last_result_at(table: Table):
    """When the table's newest finished game ended, or None."""
    return (
        table.games.filter(status=Game.Status.FINISHED)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )

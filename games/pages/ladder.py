"""What the ladder, a season's ladder and a player's page show, read from the kept ratings."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from games.engine import ratings
from games.models import Game, PlayerRating, Seat, Standing, Table


@dataclass(frozen=True)
class Rung:
    place: int
    player: int
    name: str
    rating: int
    certainty: str
    games: int
    wins: int
    shared_wins: int
    change: int


def ladder(table: Table) -> list[Rung]:
    """The table's players by rating, best first (one query, however many games)."""
    standings = Standing.objects.filter(player__table=table).select_related("player")
    rows = sorted(standings, key=lambda s: (-ratings.Rating(s.mu, s.sigma).shown, s.player.name))
    rungs = []
    for place, s in enumerate(rows, start=1):
        shown = ratings.Rating(s.mu, s.sigma).shown
        rungs.append(
            Rung(
                place=place,
                player=s.player_id,
                name=s.player.name,
                rating=shown,
                certainty=ratings.certainty(s.sigma),
                games=s.games,
                wins=s.wins,
                shared_wins=s.shared_wins,
                change=s.change,
            )
        )
    return rungs


@dataclass(frozen=True)
class Rival:
    name: str
    together: int
    ahead: int  # games this player finished ahead of the rival
    behind: int


@dataclass(frozen=True)
class Record:
    """A player's ratings over time and how they fare against each other player."""

    ratings: list[int]  # the shown rating after each rated game, oldest first
    places: list[int]
    rivals: list[Rival]


def record(player) -> Record:
    """From the stored ratings: two queries, however many games."""
    mine = list(
        PlayerRating.objects.filter(player=player)
        .order_by("game__finished_at", "game_id")
        .values_list("game_id", "place", "mu", "sigma")
    )
    places = {game: place for game, place, _, _ in mine}
    others = (
        PlayerRating.objects.filter(game_id__in=places)
        .exclude(player=player)
        .values_list("game_id", "place", "player__name")
    )
    tally: dict[str, list[int]] = {}
    for game, place, name in others:
        counts = tally.setdefault(name, [0, 0, 0])
        counts[0] += 1
        counts[1] += places[game] < place
        counts[2] += places[game] > place
    rivals = sorted(
        (Rival(name, *counts) for name, counts in tally.items()),
        key=lambda rival: (-rival.together, rival.name),
    )
    return Record(
        ratings=[ratings.Rating(mu, sigma).shown for _, _, mu, sigma in mine],
        places=[place for _, place, _, _ in mine],
        rivals=rivals,
    )


def season_ladder(table: Table, season) -> list[Rung]:
    """A season's ladder: its finished games rated afresh, as if nothing came before.

    Not stored: one query for the season's results, then milliseconds to rate.
    """
    seats = (
        Seat.objects.filter(
            game__table=table,
            game__status=Game.Status.FINISHED,
            game__finished_at__date__gte=season.starts,
            game__finished_at__date__lte=season.ends,
        )
        .order_by("game__finished_at", "game_id", "number")
        .values_list("game_id", "player_id", "total", "player__name")
    )
    games: dict[int, list[tuple[int, int]]] = {}
    names: dict[int, str] = {}
    for game, player, total, name in seats:
        games.setdefault(game, []).append((player, total))
        names[player] = name
    rated = ratings.rate(games.items())
    return _rungs(rated, names)


def _rungs(rated: list[ratings.Rated], names: dict[int, str]) -> list[Rung]:
    winners: dict = defaultdict(int)
    for r in rated:
        winners[r.game] += r.place == 1
    last: dict = {}
    tally: dict = defaultdict(lambda: [0, 0, 0])
    for r in rated:
        last[r.player] = r
        counts = tally[r.player]
        counts[0] += 1
        counts[1] += r.place == 1
        counts[2] += r.place == 1 and winners[r.game] > 1
    order = sorted(last, key=lambda p: (-last[p].after.shown, names[p]))
    return [
        Rung(
            place=place,
            player=player,
            name=names[player],
            rating=last[player].after.shown,
            certainty=ratings.certainty(last[player].after.sigma),
            games=tally[player][0],
            wins=tally[player][1],
            shared_wins=tally[player][2],
            change=last[player].after.shown - last[player].before.shown,
        )
        for place, player in enumerate(order, start=1)
    ]

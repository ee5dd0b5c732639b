"""What the ladder, a season's ladder and a player's page show, read from the kept ratings."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from games.engine import ratings
from games.models import Player, Table
from games.selectors import ladder as ladder_read


@dataclass(frozen=True)
class Rung:
    place: int | None  # None: not ranked yet (fewer than ratings.RANKED_AFTER games)
    player: int
    name: str
    rating: int
    certainty: str
    games: int
    wins: int
    shared_wins: int
    change: int


class Ladder(list[Rung]):
    """The ranked players by rating, best first, then those not ranked yet, most games first."""

    @property
    def ranked(self) -> list[Rung]:
        return [rung for rung in self if rung.place is not None]

    @property
    def unranked(self) -> list[Rung]:
        return [rung for rung in self if rung.place is None]

    games_to_rank = ratings.RANKED_AFTER
    start = ratings.START


def _ordered(rows: list[Rung]) -> Ladder:
    ranked = sorted((r for r in rows if r.games >= ratings.RANKED_AFTER), key=_best_first)
    unranked = sorted((r for r in rows if r.games < ratings.RANKED_AFTER), key=_most_games)
    # Equal ratings as shown share a place (1, 2, 2, 4): two players shown at
    # 920 are not 4th and 5th by their names' order.
    placed: list[Rung] = []
    for at, rung in enumerate(ranked, start=1):
        shared = placed and placed[-1].rating == rung.rating
        placed.append(replace(rung, place=placed[-1].place if shared else at))
    return Ladder(placed + [replace(rung, place=None) for rung in unranked])


def _best_first(rung: Rung) -> tuple:
    return (-rung.rating, rung.name)


def _most_games(rung: Rung) -> tuple:
    return (-rung.games, -rung.rating, rung.name)


def ladder(table: Table) -> Ladder:
    """The table's ladder (one query, however many games)."""
    standings = ladder_read.standings(table)
    return _ordered(
        [
            Rung(
                place=None,
                player=s.player_id,
                name=s.player.name,
                rating=ratings.Rating(s.mu, s.sigma).shown,
                certainty=ratings.certainty(s.games, s.sigma),
                games=s.games,
                wins=s.wins,
                shared_wins=s.shared_wins,
                change=s.change,
            )
            for s in standings
        ]
    )


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
    mine = ladder_read.ratings_over_time(player)
    places = {game: place for game, place, _, _ in mine}
    others = ladder_read.places_of_others(player, places)
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


def season_ladder(table: Table, season) -> Ladder:
    """A season's ladder: its finished games rated afresh, as if nothing came before.

    Not stored: one query for the season's results, then milliseconds to rate.
    """
    seats = ladder_read.season_results(table, season)
    games: dict[int, list[tuple[int, int]]] = {}
    names: dict[int, str] = {}
    for game, player, total, name in seats:
        games.setdefault(game, []).append((player, total))
        names[player] = name
    rated = ratings.rate(games.items())
    return _rungs(rated, names)


def _rungs(rated: list[ratings.Rated], names: dict[int, str]) -> Ladder:
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
    return _ordered(
        [
            Rung(
                place=None,
                player=player,
                name=names[player],
                rating=r.after.shown,
                certainty=ratings.certainty(tally[player][0], r.after.sigma),
                games=tally[player][0],
                wins=tally[player][1],
                shared_wins=tally[player][2],
                change=r.after.shown - r.before.shown,
            )
            for player, r in last.items()
        ]
    )


def chances(players: Sequence[Player]) -> list[float]:
    """Each player's chance of winning a game about to start, from the kept ratings
    (a player with no finished game yet has a newcomer's); one query."""
    kept = ladder_read.standings_of(players)
    return ratings.chances(
        [
            ratings.Rating(kept[p.pk].mu, kept[p.pk].sigma) if p.pk in kept else ratings.Rating()
            for p in players
        ]
    )


def chances_line(players: Sequence[Player]) -> list[str]:
    """ "Ann 41%", "Ben 33%", "Cara 26%", in the person's language; nothing when
    every player's is the same (nobody rated yet): "33% · 33% · 33%" told nothing
    and pushed the entry of a first game off the first screen."""
    percents = [round(chance * 100) for chance in chances(players)]
    if len(set(percents)) == 1:
        return []
    return [
        _("{name} {percent}%").format(name=player.name, percent=percent)
        for player, percent in zip(players, percents, strict=True)
    ]


def chances_said(table: Table) -> ratings.Calibration:
    """How the chances did over the table's finished games, each from the ratings its
    players had then (as kept); one query."""
    rows = ladder_read.ratings_kept(table)
    return ratings.calibration(
        ratings.Rated(game, player, place, ratings.Rating(mb, sb), ratings.Rating(mu, sigma))
        for game, player, place, mb, sb, mu, sigma in rows
    )

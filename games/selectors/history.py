"""The games a look back reads: a table's history page, and the rows behind the
statistics of a table, a player or a person across tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, QuerySet

from games.models import Deal, Game, Player, Seat, Table


def history(table: Table, player_named: str = "") -> QuerySet[Game]:
    """The table's games, newest first; only those with a player whose name holds
    ``player_named``, when given."""
    games = table.games.all()
    if player_named:
        games = games.filter(seats__player__name__icontains=player_named).distinct()
    return games.order_by("-started_at", "-id")


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """These games with their seats and players, in seat order (one more query)."""
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
    )


def games_of_account(games: QuerySet[Game], user: AbstractBaseUser) -> QuerySet[Game]:
    """Of these games, those where a player linked to this account sat."""
    return games.filter(seats__player__user=user).distinct()


def games_of_player(player: Player) -> QuerySet[Game]:
    return Game.objects.filter(seats__player=player)


@dataclass(frozen=True)
class Filters:
    """The statistics' choice of games: by the rules played and when they began."""

    ruleset: str = ""
    start: date | None = None
    end: date | None = None

    def apply(self, games: QuerySet[Game]) -> QuerySet[Game]:
        if self.ruleset:
            games = games.filter(rules__name=self.ruleset)
        if self.start:
            games = games.filter(started_at__date__gte=self.start)
        if self.end:
            games = games.filter(started_at__date__lte=self.end)
        return games


def ruleset_names(games: QuerySet[Game]) -> list[str]:
    """The rulesets these games were played by, for the filter."""
    names = games.order_by().values_list("rules__name", flat=True).distinct()
    return sorted({n for n in names if n})


SEAT_ROW = (
    "game_id",
    "number",
    "player_id",
    "player__name",
    "player__user_id",
    "player__user__username",
    "total",
    "is_winner",
    "game__status",
    "game__finished_at",
    "game__started_at",
)


def seat_rows(games: QuerySet[Game], *, linked_only: bool = False) -> QuerySet:
    """A row of ``SEAT_ROW`` for each seat at these games (of linked players only)."""
    seats = Seat.objects.filter(game__in=games)
    if linked_only:
        seats = seats.filter(player__user__isnull=False)
    return seats.values_list(*SEAT_ROW)


def deal_rows(games: QuerySet[Game]) -> QuerySet:
    """(game, mode, entry, scores, moon seat) of each deal of these games."""
    return Deal.objects.filter(game__in=games).values_list(
        "game_id", "mode", "entry", "scores", "moon_seat"
    )

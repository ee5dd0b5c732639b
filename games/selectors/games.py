"""A game as its pages read it (with its seats, its deals as rows, what was done to
them), what a deal save reads of it, and the versions its page and a club night's
are known by (a member's, and the ETags a poll compares)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils.translation import get_language

from games.models import Deal, DealChange, Game, Seat


def load_game(queryset: QuerySet[Game], pk: int | None = None) -> Game:
    """One game with its seats and players (deals are read by the scoreboard): game
    ``pk``, or the only one there is (a game's own watch link names one)."""
    games = queryset.select_related("table", "ruleset").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
    )
    return games.get() if pk is None else games.get(pk=pk)


def versions(games: QuerySet[Game], pk: int) -> tuple[int, int] | None:
    """(the game's version, its table's chances'), which a member's poll compares."""
    return games.filter(pk=pk).values_list("version", "table__chances_version").first()


def board_version(version: int, chances_version: int | None = None) -> str:
    """What a game's board shows changes with the game (games/services/versions.py), and
    for a member with the table's chances (its finished games' results, whether chances
    show); a watch link's board shows no chances."""
    return str(version) if chances_version is None else f"{version}.{chances_version}"


def game_etag(game_id: int, version: int | str) -> str:
    # The language too: a browser that switched must not keep the old words.
    return f'"g{game_id}v{version}-{get_language()}"'


def evening_etag(version: str, *, readonly: bool) -> str:
    return f'"e{version}-{get_language()}-{int(readonly)}"'


def game_with_seats(pk: int) -> Game:
    """A game already allowed (saved by this person a moment ago), read whole again."""
    return load_game(Game.objects.all(), pk)


def game_with_table(games: QuerySet[Game], pk: int | None = None) -> QuerySet[Game]:
    """Just game ``pk`` of these (or the only one there is), with its table."""
    games = games if pk is None else games.filter(pk=pk)
    return games.select_related("table")


def in_order(games: QuerySet[Game]) -> QuerySet[Game]:
    """By table, then in the order they began: as an export writes them."""
    return games.order_by("table_id", "started_at", "id")


def deal_rows(game: Game) -> QuerySet:
    """(id, number, scores, totals, moon seat, entered by) of each deal, in order:
    plain rows, no model instances (a game page may show a hundred)."""
    return (
        Deal.objects.filter(game=game)
        .order_by("number")
        .values_list("pk", "number", "scores", "totals", "moon_seat", "entered_by__username")
    )


def deal_count(game: Game) -> int:
    return game.deals.count()


def seat_count(game: Game) -> int:
    return game.seats.count()


def number_sent_with(game: Game, key: str) -> int | None:
    """The number of the game's deal a phone sent with this key, if one came."""
    return game.deals.filter(client_key=key).values_list("number", flat=True).first()


def deal_changes(game: Game) -> QuerySet[DealChange]:
    """Everything done to the game's deals, by deal, oldest first."""
    return game.changes.select_related("by").order_by("number", "at", "id")


def seats_of(game: Game, *, by_total: bool = False) -> list[Seat]:
    """The game's seats with their players, in seat order or lowest total first."""
    order = ("total", "number") if by_total else ("number",)
    return list(game.seats.select_related("player").order_by(*order))

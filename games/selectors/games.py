"""A game as its pages read it (with its seats, its deals as rows, what was done to
them), what a deal save reads of it, and the versions its page and a club night's
are known by (a member's, and the ETags a poll compares)."""

from __future__ import annotations

from django.db.models import Max, OuterRef, Prefetch, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.translation import get_language

from games.models import Deal, DealChange, Game, Seat


def load_game(queryset: QuerySet[Game], pk: int | None = None) -> Game:
    """One game with its seats and players (deals are read by the scoreboard): game
    ``pk``, or the only one there is (a game's own watch link names one)."""
    games = queryset.select_related("table", "ruleset").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
    )
    return games.get() if pk is None else games.get(pk=pk)


def page_key(games: QuerySet[Game], pk: int) -> tuple | None:
    """What a kept game page is kept by: (the game's version, the way of entering a deal
    the table used last, the table's chances' version)."""
    found = games.filter(pk=pk)
    return found.values_list("version", "table__last_entry_mode", "table__chances_version").first()


def versions(games: QuerySet[Game], pk: int) -> tuple[int, int] | None:
    """(the game's version, the table's chances' version), which a member's poll compares."""
    return games.filter(pk=pk).values_list("version", "table__chances_version").first()


# What a deal save reads of a game and its table, and of its seats: nothing more, as
# the save is the commonest request of all.
SAVE_FIELDS = (
    "version", "table_id", "ruleset_id", "rules", "first_dealer", "status", "result_only"
)  # fmt: skip
SAVE_TABLE_FIELDS = ("last_entry_mode", "show_chances", "chances_version")
SAVE_SEAT_FIELDS = ("game_id", "player_id", "number", "total", "is_winner", "player__name")


def for_save(games: QuerySet[Game], pk: int) -> tuple[Game, list[Seat], int] | None:
    """The game (what a save needs of it, its table's too), its seats with their players,
    and how many deals it has had.

    The game is read first: its seats are only ever as new as its version or newer, and
    the save sees a newer version under the game's lock.
    """
    played = Deal.objects.filter(game=OuterRef("pk")).values("game").annotate(n=Max("number"))
    game = (
        games.filter(pk=pk)
        .select_related("table")
        .only(*SAVE_FIELDS, *(f"table__{f}" for f in SAVE_TABLE_FIELDS))
        .annotate(played=Coalesce(Subquery(played.values("n")), Value(0)))
        .first()
    )
    if game is None:
        return None
    seats = list(
        game.seats.select_related("player")
        .only(*SAVE_SEAT_FIELDS, "player__table_id")
        .order_by("number")
    )
    for seat in seats:
        seat.game = game
    return game, seats, game.played


def member_version(version: int, chances_version: int) -> str:
    """What a member's game page shows changes with the game and with the table's
    chances (its finished games' results, whether chances show); a watch link's
    page shows no chances, and goes by the game's version alone."""
    return f"{version}.{chances_version}"


def game_etag(game_id: int, version: int | str) -> str:
    # The language too: a browser that switched must not keep the old words.
    return f'"g{game_id}v{version}-{get_language()}"'


def evening_etag(version: str, *, readonly: bool) -> str:
    return f'"e{version}-{get_language()}-{int(readonly)}"'


def game_with_seats(pk: int) -> Game:
    """A game already allowed (saved by this person a moment ago), read whole again."""
    return load_game(Game.objects.all(), pk)


def one(games: QuerySet[Game], pk: int | None = None) -> QuerySet[Game]:
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


def changes(game: Game) -> QuerySet[DealChange]:
    """Everything done to the game's deals, by deal, oldest first."""
    return game.changes.select_related("by").order_by("number", "at", "id")


def seats(game: Game, *, by_total: bool = False) -> list[Seat]:
    """The game's seats with their players, in seat order or lowest total first."""
    order = ("total", "number") if by_total else ("number",)
    return list(game.seats.select_related("player").order_by(*order))

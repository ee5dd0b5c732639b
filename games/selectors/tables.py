"""A table as its pages read it: its players, members, games, club nights and seasons."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from games.models import Evening, Game, Invite, Membership, Player, Ruleset, Season, Table
from games.selectors.games import in_order

RECENT_GAMES = 30


def players_by_name(table: Table) -> list[Player]:
    return list(table.players.select_related("user").order_by("name"))


def players_as_joined(table: Table) -> list[Player]:
    return list(table.players.order_by("pk"))


def player_names(table: Table, *, besides: int | None = None) -> QuerySet:
    """The names of the table's players (but player ``besides``, being renamed)."""
    return table.players.exclude(pk=besides).values_list("name", flat=True)


def account_named(username: str) -> AbstractBaseUser | None:
    """The account with this username, in any case ("ANN" finds ann)."""
    return get_user_model().objects.filter(username__iexact=username).first()


def game_keys(table: Table) -> QuerySet:
    """The keys of the table's games, by which a file's games are known again."""
    return table.games.values_list("key", flat=True)


def recent_games(table: Table) -> QuerySet[Game]:
    """The table's newest games with their players, for its page and its watch link."""
    games = table.games.prefetch_related("seats__player").order_by("-started_at", "-id")
    return games[:RECENT_GAMES]


def games_in_order(table: Table) -> QuerySet[Game]:
    """All the table's games in the order they began, as its export writes them."""
    return in_order(table.games.all())


def last_game(table: Table) -> tuple[Game | None, list[Player]]:
    """The table's newest game and its players in seat order, to offer again."""
    last = table.games.select_related("ruleset").order_by("-started_at", "-pk").first()
    if last is None:
        return None, []
    return last, [seat.player for seat in last.seats.select_related("player").order_by("number")]


def recent_evenings(table: Table) -> QuerySet[Evening]:
    return table.evenings.annotate(game_count=Count("games"))[:5]


def seasons(table: Table) -> QuerySet[Season]:
    return table.seasons.all()


def seasons_of(tables: QuerySet[Table]) -> QuerySet[Season]:
    return Season.objects.filter(table__in=tables)


def members(table: Table) -> list[Membership]:
    return list(table.memberships.select_related("user"))


def member(table: Table, pk: int) -> Membership | None:
    return table.memberships.select_related("user").filter(pk=pk).first()


def accounts_at(table: Table) -> list[AbstractBaseUser]:
    """Everyone who keeps scores at the table: its owner, then its members."""
    return [table.owner] + [m.user for m in members(table)]


def invites(table: Table) -> list[Invite]:
    """The table's newest invite links (used ones and expired ones are not shown)."""
    return [i for i in table.invites.all()[:10] if i.is_usable]


def invite_by_token(token: str) -> Invite | None:
    return Invite.objects.select_related("table", "created_by").filter(token=token).first()


def games_under_way(tables: Iterable[Table] | QuerySet[Table]) -> QuerySet[Game]:
    """The newest unfinished games at these tables, for the home page."""
    return (
        Game.objects.filter(table__in=tables, status=Game.Status.IN_PROGRESS)
        .select_related("table")
        .prefetch_related("seats__player")
        .order_by("-updated_at", "-id")[:20]
    )


def newest_first(tables: QuerySet[Table]) -> QuerySet[Table]:
    return tables.order_by("-created_at", "-id")


def builtin_rulesets() -> QuerySet[Ruleset]:
    """The rulesets every table may play by; a guest's first game chooses from these."""
    return Ruleset.objects.filter(table=None)

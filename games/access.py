"""Who may see or change what: the one access rule, used by every view.

A table is seen and changed by its owner and its members; its games, deals
and players go with it. Anything else is "not found" (404), so an outsider
learns nothing of what exists. Owner-only actions answer members 403.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from games.models import Deal, Evening, Game, Membership, Player, Ruleset, Table
from games.selectors import games as games_read


def tables_for_user(user) -> QuerySet[Table]:
    """Tables the user owns or keeps scores for as a member."""
    if not user.is_authenticated:
        return Table.objects.none()
    return tables_for_user_id(user.pk)


def tables_for_user_id(user: int) -> QuerySet[Table]:
    return Table.objects.filter(user_may_see(user, owner="owner_id", table="pk"))


def user_may_see(user: int, *, owner: str, table: str) -> Q:
    """Rows whose table (its owner and id at these paths) the user owns or is a member of.

    A plain condition with EXISTS: the database plans it in half the time of
    nested IN subqueries, and the busiest pages run it on every request.
    """
    member = Membership.objects.filter(table_id=OuterRef(table), user_id=user)
    return Q(**{owner: user}) | Q(Exists(member))


def get_table_for_user(request: HttpRequest, pk: int) -> Table:
    return get_object_or_404(tables_for_user(request.user), pk=pk)


def owns(user, table: Table) -> bool:
    """Owner-only actions (the table's settings, members and links, deleting) are for
    this user; pages ask it to show them (``{% if table|owned_by:user %}``)."""
    return user.is_authenticated and table.owner_id == user.pk


def get_table_for_owner(request: HttpRequest, pk: int) -> Table:
    """Owner-only actions: outsiders get 404, members 403."""
    table = get_table_for_user(request, pk)
    if not owns(request.user, table):
        raise PermissionDenied(_("Only the table's owner can do this."))
    return table


def games_for_user(user) -> QuerySet[Game]:
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(user_may_see(user.pk, owner="table__owner_id", table="table_id"))


def game_version_for_user(request: HttpRequest, pk: int) -> str:
    """The version of the game page a member sees, for its poll; 404 for an outsider."""
    found = games_read.versions(games_for_user(request.user), pk)
    if found is None:
        raise Http404("No such game.")
    return games_read.board_version(*found)


def get_game_for_user(request: HttpRequest, pk: int) -> Game:
    try:
        return games_read.load_game(games_for_user(request.user), pk)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None


def get_deal_for_user(request: HttpRequest, pk: int) -> Deal:
    deals = Deal.objects.filter(game__in=games_for_user(request.user))
    return get_object_or_404(deals.select_related("game"), pk=pk)


def get_player_for_user(request: HttpRequest, pk: int) -> Player:
    players = Player.objects.filter(table__in=tables_for_user(request.user))
    return get_object_or_404(players.select_related("table"), pk=pk)


def get_evening_for_user(request: HttpRequest, pk: int) -> Evening:
    """A club night, for the owner and members of its table."""
    evenings = Evening.objects.filter(table__in=tables_for_user(request.user))
    return get_object_or_404(evenings.select_related("table", "ruleset"), pk=pk)


def rulesets_for_table(table: Table) -> QuerySet[Ruleset]:
    """What a table may play by: the built-in rulesets and its own."""
    return Ruleset.objects.filter(Q(table=None) | Q(table=table)).order_by("table_id", "name")


def get_ruleset_for_table(table: Table, pk: int) -> Ruleset:
    return get_object_or_404(rulesets_for_table(table), pk=pk)


def get_own_ruleset_for_owner(request: HttpRequest, table_pk: int, pk: int) -> Ruleset:
    """One of the table's own rulesets (built-in ones are never edited), for its owner."""
    table = get_table_for_owner(request, table_pk)
    return get_object_or_404(Ruleset.objects.filter(table=table).select_related("table"), pk=pk)


# --- Watch links: anyone holding one sees that game, or that table's games ------------


def watched_by_own_link(token: str) -> QuerySet[Game]:
    """The game whose own watch link this is (one indexed lookup, no join)."""
    return Game.objects.filter(watch_token=token) if token else Game.objects.none()


def version_by_own_link(token: str) -> tuple[int, str]:
    """(id, version of its board) of the game this watch link shows, for its poll; else 404."""
    found = watched_by_own_link(token).values_list("pk", "version").first()
    if found is None:
        raise Http404("No such game.")
    pk, version = found
    return pk, games_read.board_version(version)


def version_by_table_link(token: str, pk: int) -> str:
    """The version of the board of one game of the table whose watch link this is, for
    its poll; else 404."""
    games = watched_by_table_link(token).filter(pk=pk)
    found = games.values_list("version").first()
    if found is None:
        raise Http404("No such game.")
    return games_read.board_version(*found)


def watched_table(token: str) -> Table:
    return get_object_or_404(
        Table.objects.filter(watch_token=token) if token else Table.objects.none()
    )


def watched_evening(token: str) -> Evening:
    """The club night whose big-screen link this is."""
    evenings = Evening.objects.filter(watch_token=token) if token else Evening.objects.none()
    return get_object_or_404(evenings.select_related("table", "ruleset"))


def watched_by_table_link(token: str) -> QuerySet[Game]:
    """The games of the table whose watch link this is."""
    return Game.objects.filter(table__watch_token=token) if token else Game.objects.none()

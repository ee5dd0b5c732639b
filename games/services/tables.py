"""Tables: made with their players, renamed, their default rules, seasons, deleted."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.db.models.signals import pre_delete
from django.dispatch import receiver
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.models import Ruleset, Season, Table, TableGone
from games.services.errors import Refused
from games.services.players import players_join


def table_create(
    *, owner: AbstractBaseUser, name: str, ruleset: Ruleset | None, players: Sequence[str] = ()
) -> Table:
    """A new table with these players (their names checked already)."""
    with transaction.atomic():
        table = Table.objects.create(owner=owner, name=name, default_ruleset=ruleset)
        players_join(table=table, names=players)
    return table


def table_rename(*, table: Table, name: str) -> None:
    with transaction.atomic():
        table.name = name
        table.save(update_fields=["name"])


def table_default_ruleset(*, table: Table, ruleset: Ruleset) -> None:
    """The rules the next New game starts from."""
    if table.default_ruleset_id != ruleset.pk:
        Table.objects.filter(pk=table.pk).update(default_ruleset=ruleset)
        table.default_ruleset = ruleset


def table_show_chances(*, table: Table, show: bool) -> None:
    """Whether members and the big screen see each player's chance before a game."""
    with transaction.atomic():
        # Kept game pages go by the chances version (games/selectors/games.py).
        Table.objects.filter(pk=table.pk).update(
            show_chances=show, chances_version=F("chances_version") + 1
        )
        table.show_chances = show
        table.chances_version += 1


def table_remember_mode(*, table: Table, mode: str) -> None:
    """The way of entering a deal the table used last: the next entry starts in it."""
    if table.last_entry_mode != mode:
        Table.objects.filter(pk=table.pk).update(last_entry_mode=mode)
        table.last_entry_mode = mode


def table_delete(*, table: Table) -> None:
    """The table with its players, games, deals, club nights and ratings; its
    members are told once (:func:`members_told_of`)."""
    table.delete()


@receiver(pre_delete, sender=Table)
def members_told_of(sender, instance: Table, **kwargs) -> None:
    """Each member is told the table went, whether its owner deleted it or their account.

    On the table's delete itself, as deleting an account takes its tables with it.
    """
    owner = get_user_model().objects.filter(pk=instance.owner_id).values_list("username", flat=True)
    TableGone.objects.bulk_create(
        TableGone(user_id=user, table_number=instance.pk, name=instance.name, owner=owner[0])
        for user in instance.memberships.values_list("user_id", flat=True)
    )


def tables_gone(*, user: AbstractBaseUser, table_number: int | None = None) -> list[TableGone]:
    """What ``user`` has not yet been told of deleted tables (that one's only, if given):
    read once, then forgotten (one query when there is nothing to tell)."""
    gone = TableGone.objects.filter(user=user)
    if table_number is not None:
        gone = gone.filter(table_number=table_number)
    told = list(gone)
    if told:
        TableGone.objects.filter(pk__in=[t.pk for t in told]).delete()
    return told


def season_add(*, table: Table, name: str, starts: date, ends: date) -> Season:
    """A season of its own dates: one that overlaps another is refused, naming it
    (a game belongs to one season, and each season's ladder shows)."""
    with transaction.atomic():
        Table.objects.select_for_update().filter(pk=table.pk).first()  # one at a time
        other = table.seasons.filter(starts__lte=ends, ends__gte=starts).order_by("starts").first()
        if other is not None:
            raise Refused(
                _("{name} runs from {starts} to {ends}: seasons can't overlap.").format(
                    name=other.name,
                    starts=date_format(other.starts, "DATE_FORMAT"),
                    ends=date_format(other.ends, "DATE_FORMAT"),
                )
            )
        return Season.objects.create(table=table, name=name, starts=starts, ends=ends)


def season_delete(*, season: Season) -> None:
    """The season goes; its games stay, and so does the all-time ladder."""
    season.delete()

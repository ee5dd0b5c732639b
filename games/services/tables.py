"""Tables: made with their players, renamed, their default rules, seasons, deleted."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.models import Ruleset, Season, Table
from games.services.errors import Refused
from games.services.kept_pages import pages_changed
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
        pages_changed(table.games.all())  # every game page says the table's name


def table_default_ruleset(*, table: Table, ruleset: Ruleset) -> None:
    """The rules the next New game starts from."""
    if table.default_ruleset_id != ruleset.pk:
        Table.objects.filter(pk=table.pk).update(default_ruleset=ruleset)
        table.default_ruleset = ruleset


def table_remember_mode(*, table: Table, mode: str) -> None:
    """The way of entering a deal the table used last: the next entry starts in it."""
    if table.last_entry_mode != mode:
        Table.objects.filter(pk=table.pk).update(last_entry_mode=mode)
        table.last_entry_mode = mode


def table_delete(*, table: Table) -> None:
    """The table with its players, games, deals, club nights and ratings."""
    table.delete()


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

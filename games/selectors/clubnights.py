"""A club night as its pages read it, and the version its polls compare."""

from __future__ import annotations

from django.db.models import Count, Sum

from games.models import ClubNight


def evening_version(evening: ClubNight) -> str:
    """What the evening's live pages show, as one string that changes when any of it does."""
    games = evening.games.aggregate(n=Count("pk"), v=Sum("version"))
    # The table's too (its players' names), and its chances: the big screen shows
    # them for the games under way.
    table = evening.table
    shown = (evening.pk, evening.version, games["n"], games["v"] or 0, table.version)
    return ".".join(str(part) for part in (*shown, table.chances_version))


def present(evening: ClubNight) -> set[int]:
    """The players marked present."""
    return set(evening.present.values_list("pk", flat=True))

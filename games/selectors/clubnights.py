"""A club night as its pages read it, and the version its polls compare."""

from __future__ import annotations

from django.db.models import Count, Sum

from games.models import ClubNight


def evening_version(evening: ClubNight) -> str:
    """What the evening's live pages show, as one string that changes when any of it does."""
    games = evening.games.aggregate(n=Count("pk"), v=Sum("version"))
    # The table's chances too: the big screen shows them for the games under way.
    chances = evening.table.chances_version
    return f"{evening.pk}.{evening.version}.{games['n']}.{games['v'] or 0}.{chances}"


def present(evening: ClubNight) -> set[int]:
    """The players marked present."""
    return set(evening.present.values_list("pk", flat=True))

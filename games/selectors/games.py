"""A game as the pages read it, and the versions its page and a club night's are
known by (a member's, and the ETags a poll compares)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils.translation import get_language

from games.models import Game, Seat


def load_game(queryset: QuerySet[Game], pk: int) -> Game:
    """One game with its seats and players (deals are read by the scoreboard)."""
    return (
        queryset.select_related("table", "ruleset")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
        )
        .get(pk=pk)
    )


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

"""Links to hand on: a watch link or an invite, whole, for a QR code or a chat;
a finished game handed to BG Stats."""

from __future__ import annotations

from collections.abc import Sequence

from django.http import HttpRequest
from django.urls import reverse

from games.formats.bg_stats_link import PlayedSeat, play_link
from games.models import Game, Seat


def absolute_url(request: HttpRequest, name: str, token: str | None) -> str | None:
    return request.build_absolute_uri(reverse(name, args=[token])) if token else None


def bg_stats_link(game: Game, seats: Sequence[Seat] | None = None) -> str | None:
    """A finished game handed to BG Stats; None while it is played. ``seats``: the
    game's, with their players, where the page has them already."""
    if not game.is_finished:
        return None
    seats = list(game.seats.all()) if seats is None else seats
    return play_link(
        key=game.key,
        rules=game.rules.get("name", ""),
        seats=[PlayedSeat(s.player_id, s.player.name, s.total, s.is_winner) for s in seats],
        first_dealer=game.first_dealer,
        started_at=game.started_at,
        finished_at=game.finished_at,
        result_only=game.result_only,
    )

"""A result as a picture: for members, and for a watch link's holders (the
preview a chat app shows of the link)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from games.access import (
    get_evening_for_user,
    get_game_for_user,
    get_table_for_user,
    watched_by_own_link,
    watched_by_table_link,
    watched_evening,
    watched_table,
)
from games.models import ClubNight, Game
from games.pages import clubnight
from games.pages.pictures import evening_picture, game_picture, ladder_picture
from games.services import clubnights


def _png(png: bytes, name: str) -> HttpResponse:
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{slugify(name) or "scores"}.png"'
    # What it shows is in its address's key: a changed game draws afresh.
    response["Cache-Control"] = "private, max-age=60"
    return response


def _game(game: Game) -> HttpResponse:
    return _png(game_picture(game), f"{game.table.name}-{game.pk}")


def _evening(evening: ClubNight) -> HttpResponse:
    png = evening_picture(
        evening,
        lambda: clubnight.standings(evening, clubnights.rounds(evening)),
        clubnight.evening_version(evening),
    )
    return _png(png, evening.name)


@login_required
@require_GET
def game_picture_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game(get_game_for_user(request, pk))


@require_GET
def watch_game_picture(request: HttpRequest, token: str) -> HttpResponse:
    return _game(get_object_or_404(watched_by_own_link(token).select_related("table")))


@require_GET
def watch_table_game_picture(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    return _game(get_object_or_404(watched_by_table_link(token).select_related("table"), pk=pk))


@login_required
@require_GET
def evening_picture_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _evening(get_evening_for_user(request, pk))


@require_GET
def watch_evening_picture(request: HttpRequest, token: str) -> HttpResponse:
    return _evening(watched_evening(token))


@login_required
@require_GET
def ladder_picture_view(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    return _png(ladder_picture(table), f"{table.name}-ladder")


@require_GET
def watch_ladder_picture(request: HttpRequest, token: str) -> HttpResponse:
    table = watched_table(token)
    return _png(ladder_picture(table), f"{table.name}-ladder")

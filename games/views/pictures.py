"""A result as a picture: for members, and for a watch link's holders (the
preview a chat app shows of the link)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response
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
from games.drawing.pictures import KeptPicture, evening_picture, game_picture, ladder_picture
from games.models import Evening, Game
from games.pages import clubnight
from games.selectors.clubnights import evening_version, rounds
from games.selectors.games import game_with_table


def _png(request: HttpRequest, kept: KeptPicture, name: str) -> HttpResponse:
    """The picture, or 304 to a phone (or a chat app's preview) that has this one:
    what it shows is in its ETag, so a changed game has another."""
    response = get_conditional_response(request, etag=kept.etag)
    if response is None:
        response = HttpResponse(kept.png(), content_type="image/png")
    response["ETag"] = kept.etag
    response["Content-Disposition"] = f'inline; filename="{slugify(name) or "scores"}.png"'
    response["Cache-Control"] = "private, no-cache"
    return response


def _game(request: HttpRequest, game: Game) -> HttpResponse:
    return _png(request, game_picture(game), f"{game.table.name}-{game.pk}")


def _evening(request: HttpRequest, evening: Evening) -> HttpResponse:
    kept = evening_picture(
        evening,
        lambda: clubnight.standings(evening, rounds(evening)),
        evening_version(evening),
    )
    return _png(request, kept, evening.name)


@login_required
@require_GET
def game_picture_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _game(request, get_game_for_user(request, pk))


@require_GET
def watch_game_picture(request: HttpRequest, token: str) -> HttpResponse:
    return _game(request, get_object_or_404(game_with_table(watched_by_own_link(token))))


@require_GET
def watch_table_game_picture(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    return _game(request, get_object_or_404(game_with_table(watched_by_table_link(token), pk)))


@login_required
@require_GET
def evening_picture_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _evening(request, get_evening_for_user(request, pk))


@require_GET
def watch_evening_picture(request: HttpRequest, token: str) -> HttpResponse:
    return _evening(request, watched_evening(token))


@login_required
@require_GET
def ladder_picture_view(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    return _png(request, ladder_picture(table), f"{table.name}-ladder")


@require_GET
def watch_ladder_picture(request: HttpRequest, token: str) -> HttpResponse:
    table = watched_table(token)
    return _png(request, ladder_picture(table), f"{table.name}-ladder")

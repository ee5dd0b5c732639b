"""Downloads: a game, a table or an account as JSON (history format 1) or CSV."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from games.access import (
    games_for_user,
    get_table_for_user,
    tables_for_user,
    watched_by_own_link,
    watched_by_table_link,
)
from games.formats.writing import iter_csv, iter_json
from games.models import Game, Season
from games.selectors import games as games_read
from games.selectors import tables as tables_read


def _download(
    games: QuerySet[Game], fmt: str, filename: str, seasons: QuerySet[Season] | None = None
) -> StreamingHttpResponse:
    """Stream the history (JSON format 1, or CSV) as a file to save."""
    if fmt == "csv":
        response = StreamingHttpResponse(iter_csv(games), content_type="text/csv; charset=utf-8")
    else:
        response = StreamingHttpResponse(
            iter_json(games, seasons), content_type="application/json; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _slug(text: str) -> str:
    return slugify(text) or "scores"


def _game_filename(game: Game) -> str:
    return f"{_slug(game.table.name)}-{timezone.localdate(game.started_at)}-game-{game.pk}"


@login_required
@require_GET
def game_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    games = games_read.game_with_table(games_for_user(request.user), pk)
    game = get_object_or_404(games)
    return _download(games, fmt, _game_filename(game))


@login_required
@require_GET
def table_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    table = get_table_for_user(request, pk)
    games = tables_read.games_in_order(table)
    name = f"{_slug(table.name)}-{timezone.localdate()}"
    return _download(games, fmt, name, seasons=tables_read.seasons(table))


@login_required
@require_GET
def account_export(request: HttpRequest) -> HttpResponse:
    games = games_read.in_order(games_for_user(request.user))
    name = f"scores-{_slug(request.user.get_username())}-{timezone.localdate()}"
    seasons = tables_read.seasons_of(tables_for_user(request.user))
    return _download(games, "json", name, seasons=seasons)


@require_GET
def watch_game_export(request: HttpRequest, token: str, fmt: str) -> HttpResponse:
    games = games_read.game_with_table(watched_by_own_link(token))
    game = get_object_or_404(games)
    return _download(games, fmt, _game_filename(game))


@require_GET
def watch_table_game_export(request: HttpRequest, token: str, pk: int, fmt: str) -> HttpResponse:
    games = games_read.game_with_table(watched_by_table_link(token), pk)
    game = get_object_or_404(games)
    return _download(games, fmt, _game_filename(game))

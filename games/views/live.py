"""Scoreboards that follow the game: polls, and pages for watch-link holders."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.access import (
    game_version_for_user,
    games_for_user,
    version_by_own_link,
    version_by_table_link,
    watched_by_own_link,
    watched_by_table_link,
    watched_table,
)
from games.models import Game
from games.pages.ladder import ladder
from games.pages.previews import game_said, places_said, preview
from games.pages.scoreboard import scoreboard
from games.selectors.games import game_etag, load_game
from games.selectors.tables import recent_games
from games.views.responses import poll_answer


def _live_response(
    request: HttpRequest, game_id: int, version: str, load, **context
) -> HttpResponse:
    """The scoreboard's poll: 204 with no rendering while nothing changed.

    ``context`` values that are functions are called only for a new answer.
    """

    def answer() -> HttpResponse:
        board = scoreboard(load())
        shown = {k: v() if callable(v) else v for k, v in context.items()}
        return render(
            request, "games/scoreboard.html#poll", {"board": board, "game": board.game, **shown}
        )

    return poll_answer(request, game_etag(game_id, version), answer)


@login_required
@require_GET
def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    version = game_version_for_user(request, pk)
    return _live_response(
        request,
        pk,
        version,
        lambda: load_game(games_for_user(request.user), pk),
        live_url=lambda: reverse("game_live", args=[pk]),
    )


@require_GET
def watch_game(request: HttpRequest, token: str) -> HttpResponse:
    try:
        game = load_game(watched_by_own_link(token))
    except Game.DoesNotExist:
        raise Http404("No such game.") from None
    exports = [reverse("watch_game_export", args=[token, fmt]) for fmt in ("json", "csv")]
    return _render_watch(
        request,
        game,
        reverse("watch_game_live", args=[token]),
        exports,
        reverse("watch_game_picture", args=[token]),
    )


@require_GET
def watch_game_live(request: HttpRequest, token: str) -> HttpResponse:
    pk, version = version_by_own_link(token)
    return _live_response(
        request,
        pk,
        version,
        lambda: load_game(watched_by_own_link(token), pk),
        live_url=lambda: reverse("watch_game_live", args=[token]),
        readonly=True,
    )


@require_GET
def watch_table(request: HttpRequest, token: str) -> HttpResponse:
    table = watched_table(token)
    games = recent_games(table)
    rungs = ladder(table).ranked
    said = places_said([(r.place, r.name, str(r.rating)) for r in rungs[:7]], _("Ladder"))
    picture = reverse("watch_ladder_picture", args=[token])
    return render(
        request,
        "games/watch_table.html",
        {
            "table": table,
            "games": games,
            "token": token,
            # Its holders are the table's audience: they see the ladder the preview names.
            "ladder": rungs,
            "preview": preview(request, title=table.name, description=said, picture=picture)
            if rungs
            else None,
        },
    )


@require_GET
def watch_table_game(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    games = watched_by_table_link(token)
    get_object_or_404(games.values("pk"), pk=pk)
    live_url = reverse("watch_table_game_live", args=[token, pk])
    exports = [reverse("watch_table_game_export", args=[token, pk, fmt]) for fmt in ("json", "csv")]
    picture = reverse("watch_table_game_picture", args=[token, pk])
    return _render_watch(request, load_game(games, pk), live_url, exports, picture)


@require_GET
def watch_table_game_live(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    version = version_by_table_link(token, pk)
    return _live_response(
        request,
        pk,
        version,
        lambda: load_game(watched_by_table_link(token), pk),
        live_url=lambda: reverse("watch_table_game_live", args=[token, pk]),
        readonly=True,
    )


def _render_watch(
    request: HttpRequest, game: Game, live_url: str, exports: list[str], picture: str
) -> HttpResponse:
    board = scoreboard(game)
    # A game over is no longer live: its preview and page say its final scores.
    if game.is_finished:
        title = _("{name} — final scores").format(name=game.table.name)
    else:
        title = _("{name} — live scores").format(name=game.table.name)
    response = render(
        request,
        "games/watch.html",
        {
            "board": board,
            "game": game,
            "live_url": live_url,
            "readonly": True,
            "title": title,
            "export_json_url": exports[0],
            "export_csv_url": exports[1],
            "preview": preview(request, title=title, description=game_said(board), picture=picture),
        },
    )
    response["Referrer-Policy"] = "no-referrer"  # keep the token out of other sites' logs
    return response

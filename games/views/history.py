"""Looking back: a table's games, statistics, and importing history files."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from games.access import games_for_user, get_table_for_user
from games.engine.names import name_key
from games.formats.paper import read_upload
from games.formats.reading import WEB_MOST_GAMES, ImportRefused, parse_history
from games.formats.uploads import forget_upload, keep_upload, kept_upload
from games.forms.history import ImportForm, StatsFilterForm
from games.models import Seat, Table
from games.pages.stats import games_with_player, player_stats, ruleset_names
from games.services.imports import ImportedAlready, import_history
from games.services.once import sent_before
from scorekeeper import params

HISTORY_PAGE_SIZE = 20


@login_required
@require_GET
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    search = params.text(request.GET, "player", most=40).strip()
    games = games_with_player(table.games.all(), search).order_by("-started_at", "-id")
    page = Paginator(games, HISTORY_PAGE_SIZE).get_page(params.number(request.GET, "page", least=1))
    rows = page.object_list.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
    )
    return render(
        request,
        "games/table_history.html",
        {"table": table, "page": page, "games": rows, "search": search},
    )


@login_required
@require_GET
def table_stats(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    games = table.games.all()
    return _render_stats(request, games, {"table": table})


@login_required
@require_GET
def my_stats(request: HttpRequest) -> HttpResponse:
    """A person's statistics across every table where a player is linked to them."""
    games = games_for_user(request.user).filter(seats__player__user=request.user).distinct()
    return _render_stats(request, games, {"mine": True}, by_account=True)


def _render_stats(request: HttpRequest, games, context: dict, *, by_account: bool = False):
    form = StatsFilterForm(request.GET or None, rulesets=ruleset_names(games))
    if form.is_bound and not form.is_valid():
        return render(
            request, "games/stats.html", {**context, "form": form, "rows": []}, status=422
        )
    games = form.filters().apply(games)
    rows = player_stats(games, by_account=by_account)
    if by_account:
        rows = [row for row in rows if row.key == request.user.pk]
    return render(request, "games/stats.html", {**context, "form": form, "rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def table_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a history file, see what it holds, then import it all or nothing."""
    table = get_table_for_user(request, pk)
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = problem = upload = None
    if request.method == "POST" and form.is_valid():
        kept = {"user": request.user.pk, "table": table.pk}
        try:
            if form.cleaned_data["upload"]:
                token = form.cleaned_data["upload"]
                if sent_before(table.games, token) is not None:
                    return _imported_already(request, table)
                raw = kept_upload(**kept, token=token)
                if raw is None:
                    raise ImportRefused(_("The file shown is no longer kept: choose it again."))
                try:
                    games = import_history(
                        read_upload(raw, table=table.name),
                        owner=table.owner,
                        table=table,
                        most_games=WEB_MOST_GAMES,
                        key=token,
                    )
                except ImportedAlready:
                    return _imported_already(request, table)
                forget_upload(**kept, token=token)
                said = ngettext(
                    "Imported {count} game into {name}.",
                    "Imported {count} games into {name}.",
                    len(games),
                ).format(count=len(games), name=table.name)
                if games.skipped:
                    said += " " + already_here(games.skipped)
                messages.success(request, said)
                return redirect("table_history", table.pk)
            raw = form.cleaned_data["raw"]
            parsed = parse_history(read_upload(raw, table=table.name), most_games=WEB_MOST_GAMES)
            preview = _import_preview(table, parsed)
            upload = keep_upload(**kept, raw=raw)
        except ImportRefused as refusal:
            problem = _("Nothing was imported. {reason}").format(reason=refusal.message)
    status = 422 if (form.errors or problem) else 200
    return render(
        request,
        "games/table_import.html",
        {"table": table, "form": form, "preview": preview, "problem": problem, "upload": upload},
        status=status,
    )


def _imported_already(request: HttpRequest, table: Table) -> HttpResponse:
    """The confirmation sent again (Back, a double tap, two phones): it was imported once."""
    messages.info(request, _("This file is imported already: its games are here."))
    return redirect("table_history", table.pk)


def _import_preview(table: Table, parsed: list) -> dict:
    known = {name_key(name) for name in table.players.values_list("name", flat=True)}
    new = {name_key(n): n for game in parsed for n in game.names if name_key(n) not in known}
    new_players = sorted(new.values())
    keys = set(table.games.values_list("key", flat=True))
    already = 0
    for game in parsed:
        already += game.key in keys
        keys.add(game.key)
    return {
        "games": [
            {
                "players": ", ".join(game.names),
                "rules": game.rules.name,
                "deals": len(game.entries),
                "totals": ", ".join(
                    f"{n} {t}" for n, t in zip(game.names, game.state.totals, strict=True)
                ),
                "finished": game.state.finished,
                "result_only": game.result_only,
                "day": game.finished_at,
            }
            for game in parsed
        ],
        "deals": sum(len(game.entries) for game in parsed),
        "new_players": new_players,
        "already": already_here(already) if already else "",
    }


def already_here(count: int) -> str:
    return ngettext(
        "{count} game of the file is at this table already: it is not imported again.",
        "{count} games of the file are at this table already: they are not imported again.",
        count,
    ).format(count=count)

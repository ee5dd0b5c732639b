"""Looking back: a table's games and statistics."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.access import games_for_user, get_table_for_user
from games.forms.history import HistorySearchForm, StatsFilterForm
from games.pages.stats import player_stats
from games.pages.tables import chances_shown
from games.selectors import history as history_read

HISTORY_PAGE_SIZE = 20


@login_required
@require_GET
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    sent = HistorySearchForm(request.GET).read()
    search = sent["player"].strip()
    page = Paginator(history_read.history(table, search), HISTORY_PAGE_SIZE).get_page(sent["page"])
    rows = history_read.with_seats(page.object_list)
    return render(
        request,
        "games/table_history.html",
        {"table": table, "page": page, "games": rows, "search": search},
    )


@login_required
@require_GET
def table_stats(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    context = {"table": table, **chances_shown(table)}
    return _render_stats(request, history_read.history(table), context)


@login_required
@require_GET
def my_stats(request: HttpRequest) -> HttpResponse:
    """A person's statistics across every table where a player is linked to them."""
    games = history_read.games_of_account(games_for_user(request.user), request.user)
    return _render_stats(request, games, {"mine": True}, by_account=True)


def _render_stats(request: HttpRequest, games, context: dict, *, by_account: bool = False):
    form = StatsFilterForm(request.GET or None, rulesets=history_read.ruleset_names(games))
    if form.is_bound and not form.is_valid():
        return render(
            request, "games/stats.html", {**context, "form": form, "rows": []}, status=422
        )
    games = form.filters().apply(games)
    rows = player_stats(games, by_account=by_account)
    if by_account:
        rows = [row for row in rows if row.key == request.user.pk]
    # Before any deal is counted every figure is a dash: no ranking of those.
    rows = rows if any(row.played or row.deals for row in rows) else []
    return render(request, "games/stats.html", {**context, "form": form, "rows": rows})

"""Tables: the home page, making a table, its page, its settings, deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.guests import is_guest
from games import engine
from games.access import (
    get_ruleset_for_table,
    get_table_for_owner,
    get_table_for_user,
    tables_for_user,
)
from games.forms.tables import (
    ChancesShownForm,
    DefaultRulesetForm,
    SeasonForm,
    TableDeleteForm,
    TableForm,
    TableNameForm,
)
from games.models import Ruleset, Table, TableGone
from games.selectors.tables import games_under_way, newest_first
from games.services import tables as table_services
from games.services.errors import Refused
from games.views.responses import settings_page, table_page


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # The first page says what this is, and starts a game with no account.
        return render(request, "games/welcome.html")
    for gone in table_services.tables_gone(user=request.user):
        messages.info(request, gone_words(gone))
    tables = newest_first(tables_for_user(request.user))
    games = games_under_way(tables)
    return render(request, "games/home.html", {"tables": tables, "games": games})


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    guest = is_guest(request.user)
    initial = {"default_ruleset": Ruleset.black_maria()}
    if guest:
        initial["name"] = _("Our table")  # a guest types the players, and plays
    form = TableForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        table = table_services.table_create(
            owner=request.user,
            name=form.cleaned_data["name"],
            ruleset=form.cleaned_data["default_ruleset"],
            players=form.cleaned_data["players"],
        )
        if guest and len(form.cleaned_data["players"]) >= engine.MIN_PLAYERS:
            return redirect("game_new", pk=table.pk)  # straight to the game
        return redirect(table)
    return render(request, "games/table_new.html", {"form": form})


@login_required
@require_GET
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        table = get_table_for_user(request, pk)
    except Http404:
        # A member's old link to a table its owner deleted: said once, then a plain 404.
        gone = table_services.tables_gone(user=request.user, table_number=pk)
        if not gone:
            raise
        return render(request, "games/table_gone.html", {"said": gone_words(gone[0])}, status=410)
    return table_page(request, table)


def gone_words(gone: TableGone) -> str:
    return _(
        "{owner} deleted {name}, a table you kept scores at, on {date}: its games went with it."
    ).format(
        owner=gone.owner,
        name=gone.name,
        date=date_format(timezone.localtime(gone.at), "DATE_FORMAT"),
    )


@login_required
@require_POST
def table_default_ruleset(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    ruleset_id = DefaultRulesetForm(request.POST).read()["ruleset"]
    if ruleset_id is None:
        messages.error(request, _("Choose a ruleset."))
        return redirect("table_settings", table.pk)
    table_services.table_default_ruleset(
        table=table, ruleset=get_ruleset_for_table(table, ruleset_id)
    )
    messages.success(
        request, _("New games here play {rules}.").format(rules=table.default_ruleset.name)
    )
    return redirect("table_settings", table.pk)


@login_required
@require_http_methods(["GET", "POST"])
def table_settings(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    form = TableNameForm(request.POST or None, instance=Table(name=table.name))
    if request.method == "POST" and form.is_valid():
        table_services.table_rename(table=table, name=form.cleaned_data["name"])
        messages.success(request, _("The table is now called {name}.").format(name=table.name))
        return redirect("table_settings", table.pk)
    return settings_page(request, table, name_form=form, status=422 if form.errors else 200)


@login_required
@require_POST
def table_chances(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner shows or hides each player's chance before a game."""
    table = get_table_for_owner(request, pk)
    show = ChancesShownForm(request.POST).shown
    table_services.table_show_chances(table=table, show=show)
    if show:
        messages.success(request, _("Members and the big screen see the chances of winning."))
    else:
        messages.success(request, _("The chances of winning are hidden."))
    return redirect("table_settings", table.pk)


@login_required
@require_POST
def table_delete(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    if TableDeleteForm(request.POST).read()["confirm"].strip() != table.name:
        messages.error(request, _("Type the table's name exactly to delete it."))
        return redirect("table_settings", table.pk)
    name = table.name
    table_services.table_delete(table=table)
    messages.success(request, _("{name} and all its games are deleted.").format(name=name))
    return redirect("home")


@login_required
@require_POST
def season_new(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner names a season by its dates; its ladder shows while it runs."""
    table = get_table_for_owner(request, pk)
    form = SeasonForm(request.POST)
    if not form.is_valid():
        return settings_page(request, table, season_form=form, status=422)
    try:
        season = table_services.season_add(table=table, **form.cleaned_data)
    except Refused as refusal:
        form.add_error(None, refusal.problems[0])
        return settings_page(request, table, season_form=form, status=422)
    messages.success(request, _("{name} is a season of its own.").format(name=season.name))
    return redirect("table_settings", table.pk)


@login_required
@require_POST
def season_delete(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    season = get_object_or_404(table.seasons, pk=season_pk)
    table_services.season_delete(season=season)
    messages.success(
        request, _("{name} is no longer a season (its games stay).").format(name=season.name)
    )
    return redirect("table_settings", table.pk)

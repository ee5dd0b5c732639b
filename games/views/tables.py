"""Tables: the home page, making a table, its page, its settings, deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from accounts.guests import is_guest
from games import engine
from games.access import (
    get_ruleset_for_table,
    get_table_for_owner,
    get_table_for_user,
    rulesets_for_table,
    tables_for_user,
)
from games.forms import (
    MemberForm,
    PlayerForm,
    SeasonForm,
    TableForm,
    TableNameForm,
)
from games.models import (
    Game,
    Player,
    Ruleset,
    Table,
)
from games.pages.ladder import ladder, season_ladder
from games.pages.scoreboard import describe_rules
from scorekeeper import params


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # The first page says what this is, and starts a game with no account.
        return render(request, "games/welcome.html")
    tables = tables_for_user(request.user).order_by("-created_at", "-id")
    games = (
        Game.objects.filter(table__in=tables, status=Game.Status.IN_PROGRESS)
        .select_related("table")
        .prefetch_related("seats__player")
        .order_by("-updated_at", "-id")[:20]
    )
    return render(request, "games/home.html", {"tables": tables, "games": games})


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    guest = is_guest(request.user)
    initial = {"default_ruleset": black_maria()}
    if guest:
        initial["name"] = _("Our table")  # a guest types the players, and plays
    form = TableForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            table = form.save(commit=False)
            table.owner = request.user
            table.save()
            Player.objects.bulk_create(
                Player(table=table, name=name) for name in form.cleaned_data["players"]
            )
        if guest and len(form.cleaned_data["players"]) >= engine.MIN_PLAYERS:
            return redirect("game_new", pk=table.pk)  # straight to the game
        return redirect(table)
    return render(request, "games/table_new.html", {"form": form})


def black_maria() -> Ruleset | None:
    return Ruleset.objects.filter(table=None, name="Black Maria").first()


@login_required
@require_GET
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    return render_table(request, table)


def render_table(
    request: HttpRequest,
    table: Table,
    *,
    player_form: PlayerForm | None = None,
    season_form: SeasonForm | None = None,
    status=200,
) -> HttpResponse:
    players = list(table.players.order_by("name"))
    games = table.games.prefetch_related("seats__player").order_by("-started_at", "-id")[:30]
    return render(
        request,
        "games/table_detail.html",
        {
            "table": table,
            "players": players,
            "player_form": player_form or PlayerForm(table=table),
            "games": games,
            "ladder": ladder(table),
            "evenings": table.evenings.annotate(game_count=Count("games"))[:5],
            **season_context(table, season_form),
            # Each described from its settings; a table's own may add house rules.
            "rulesets": [
                (ruleset, describe_rules(ruleset.to_rules()))
                for ruleset in rulesets_for_table(table)
            ],
        },
        status=status,
    )


@login_required
@require_POST
def table_default_ruleset(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    ruleset_id = params.number(request.POST, "ruleset", most=params.LARGEST_ID)
    if ruleset_id is None:
        messages.error(request, _("Choose a ruleset."))
        return redirect(table)
    table.default_ruleset = get_ruleset_for_table(table, ruleset_id)
    table.save(update_fields=["default_ruleset"])
    messages.success(
        request, _("New games here play {rules}.").format(rules=table.default_ruleset.name)
    )
    return redirect(table)


@login_required
@require_http_methods(["GET", "POST"])
def table_settings(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    form = TableNameForm(request.POST or None, instance=table)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("The table is now called {name}.").format(name=table.name))
        return redirect("table_settings", table.pk)
    return render_settings(request, table, name_form=form, status=422 if form.errors else 200)


def render_settings(
    request: HttpRequest, table: Table, *, status: int = 200, **forms_
) -> HttpResponse:
    table.refresh_from_db()
    members = list(table.memberships.select_related("user"))
    accounts = [table.owner] + [m.user for m in members]
    context = {
        "table": table,
        "name_form": forms_.get("name_form") or TableNameForm(instance=table),
        "member_form": forms_.get("member_form") or MemberForm(),
        "members": members,
        "players": list(table.players.select_related("user").order_by("name")),
        "accounts": accounts,
        "invites": [
            (i, absolute_url(request, "invite_accept", i.token))
            for i in table.invites.all()[:10]
            if i.is_usable
        ],
        "watch_url": absolute_url(request, "watch_table", table.watch_token),
    }
    return render(request, "games/table_settings.html", context, status=status)


def absolute_url(request: HttpRequest, name: str, token: str | None) -> str | None:
    return request.build_absolute_uri(reverse(name, args=[token])) if token else None


@login_required
@require_POST
def table_delete(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    if params.text(request.POST, "confirm", most=200).strip() != table.name:
        messages.error(request, _("Type the table's name exactly to delete it."))
        return redirect("table_settings", table.pk)
    name = table.name
    table.delete()
    messages.success(request, _("{name} and all its games are deleted.").format(name=name))
    return redirect("home")


def season_context(table: Table, form: SeasonForm | None = None) -> dict:
    """The season running today (with its own ladder), the table's seasons, the form."""
    today = timezone.localdate()
    seasons = list(table.seasons.all())
    current = next((s for s in seasons if s.starts <= today <= s.ends), None)
    return {
        "season": current,
        "season_ladder": season_ladder(table, current) if current else [],
        "seasons": seasons,
        "season_form": form or SeasonForm(),
    }


@login_required
@require_POST
def season_new(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner names a season by its dates; its ladder shows while it runs."""
    table = get_table_for_owner(request, pk)
    form = SeasonForm(request.POST)
    if not form.is_valid():
        return render_table(request, table, season_form=form, status=422)
    season = form.save(commit=False)
    season.table = table
    season.save()
    messages.success(request, _("{name} is a season of its own.").format(name=season.name))
    return redirect(table)


@login_required
@require_POST
def season_delete(request: HttpRequest, pk: int, season_pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    season = get_object_or_404(table.seasons, pk=season_pk)
    season.delete()
    messages.success(
        request, _("{name} is no longer a season (its games stay).").format(name=season.name)
    )
    return redirect(table)

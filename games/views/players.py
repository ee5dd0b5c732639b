"""A table's players: adding, renaming, linking to an account, and a player's own page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.access import get_player_for_user, get_table_for_owner, get_table_for_user
from games.engine import ratings
from games.engine.chart import score_chart
from games.forms.tables import PlayerForm, PlayerLinkForm
from games.models import Player
from games.pages import ladder
from games.pages.stats import player_stats
from games.selectors.history import games_of_player
from games.selectors.ladder import standing_of
from games.selectors.tables import accounts_at
from games.services import players as player_services
from games.services.errors import Refused
from games.views.responses import players_page, players_url


@login_required
@require_POST
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    form = PlayerForm(request.POST, table=table)
    if not form.is_valid():
        return players_page(request, table, player_form=form, status=422)
    try:
        (player,) = player_services.players_join(table=table, names=[form.cleaned_data["name"]])
    except Refused as refusal:
        form.add_error("name", refusal.problems[0])
        return players_page(request, table, player_form=form, status=422)
    messages.success(request, _("{name} joins the table.").format(name=player.name))
    return redirect(players_url(request, table))


@login_required
@require_http_methods(["GET", "POST"])
def player_rename(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_player_for_user(request, pk)
    old = player.name
    form = PlayerForm(
        request.POST or None, instance=Player(pk=player.pk, name=old), table=player.table
    )
    if request.method == "POST" and form.is_valid():
        try:
            player_services.player_rename(player=player, name=form.cleaned_data["name"])
        except Refused as refusal:
            form.add_error("name", refusal.problems[0])
        else:
            messages.success(request, _("{old} is now {new}.").format(old=old, new=player.name))
            return redirect(players_url(request, player.table))
    return render(request, "games/player_rename.html", {"form": form, "player": player})


@login_required
@require_POST
def player_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Link a player to an account at the table (or unlink), so their games follow them."""
    player = get_player_for_user(request, pk)
    table = get_table_for_owner(request, player.table_id)
    user_id = PlayerLinkForm(request.POST).read()["user"]
    accounts = {user.pk: user for user in accounts_at(table)}
    if user_id is not None and user_id not in accounts:
        messages.error(request, _("Choose an account that keeps scores at this table."))
        return redirect("table_settings", table.pk)
    try:
        player_services.player_link(player=player, user=accounts.get(user_id))
    except Refused as refusal:
        messages.error(request, refusal.problems[0])
        return redirect("table_settings", table.pk)
    messages.success(
        request,
        (_("{name} is linked.") if player.user else _("{name} is not linked.")).format(
            name=player.name
        ),
    )
    return redirect("table_settings", table.pk)


@login_required
@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: rating over time, head to head against each other player, the spades and moons."""
    player = get_player_for_user(request, pk)
    kept = ladder.record(player)
    standing = standing_of(player)
    stats = next(
        (s for s in player_stats(games_of_player(player)) if s.key == player.pk),
        None,
    )
    chart = None
    if kept.ratings:
        chart = score_chart(
            [player.name], [[r] for r in kept.ratings], None, [None] * len(kept.ratings)
        )
    context = {
        "player": player,
        "record": kept,
        "stats": stats,
        "chart": chart,
        "standing": standing,
        "certainty": ratings.certainty(standing.games, standing.sigma) if standing else "",
        "games_to_rank": ratings.RANKED_AFTER,
        "start": ratings.START,
        "rows": list(zip(range(1, len(kept.ratings) + 1), kept.places, kept.ratings, strict=True)),
    }
    return render(request, "games/player_detail.html", context)

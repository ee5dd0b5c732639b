"""A table's players: adding, renaming, linking to an account."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_http_methods,
    require_POST,
)

from games import params
from games.access import get_player_for_user, get_table_for_owner, get_table_for_user
from games.forms import (
    PlayerForm,
)
from games.models import (
    Game,
)
from games.views.tables import render_table


@login_required
@require_POST
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    form = PlayerForm(request.POST, table=table)
    if not form.is_valid():
        return render_table(request, table, player_form=form, status=422)
    player = form.save(commit=False)
    player.table = table
    player.save()
    messages.success(request, _("{name} joins the table.").format(name=player.name))
    return redirect(table)


@login_required
@require_http_methods(["GET", "POST"])
def player_rename(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_player_for_user(request, pk)
    old = player.name
    form = PlayerForm(request.POST or None, instance=player, table=player.table)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            form.save()
            # Scoreboards cached or polled by version must show the new name.
            Game.objects.filter(seats__player=player).update(version=F("version") + 1)
        messages.success(request, _("{old} is now {new}.").format(old=old, new=player.name))
        return redirect(player.table)
    return render(request, "games/player_rename.html", {"form": form, "player": player})


@login_required
@require_POST
def player_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Link a player to an account at the table (or unlink), so their games follow them."""
    player = get_player_for_user(request, pk)
    table = get_table_for_owner(request, player.table_id)
    user_id = params.number(request.POST, "user", most=params.LARGEST_ID)
    accounts = {table.owner_id: table.owner}
    accounts.update({m.user_id: m.user for m in table.memberships.select_related("user")})
    if user_id is None:
        player.user = None
    elif user_id in accounts:
        player.user = accounts[user_id]
        if table.players.filter(user=player.user).exclude(pk=player.pk).exists():
            messages.error(
                request,
                _("{username} is already linked to another player here.").format(
                    username=player.user
                ),
            )
            return redirect("table_settings", table.pk)
    else:
        messages.error(request, _("Choose an account that keeps scores at this table."))
        return redirect("table_settings", table.pk)
    player.save(update_fields=["user"])
    messages.success(
        request,
        (_("{name} is linked.") if player.user else _("{name} is not linked.")).format(
            name=player.name
        ),
    )
    return redirect("table_settings", table.pk)

"""Sharing a table: members, invite links and watch links."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.access import get_game_for_user, get_table_for_owner, owns
from games.forms.tables import LinkActionForm, MemberForm
from games.models import Game, Table
from games.pages.links import absolute_url
from games.selectors.tables import invite_by_token, member
from games.services.errors import Refused
from games.services.sharing import (
    invite_accept,
    invite_create,
    member_add,
    membership_delete,
    watch_link_off,
    watch_link_replace,
)
from games.views.responses import settings_page


@login_required
@require_POST
def member_new(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            member_add(table=table, user=form.cleaned_data["user"])
        except Refused as refusal:
            form.add_error("username", refusal.problems[0])
        else:
            messages.success(
                request,
                _("{username} now keeps scores here too.").format(
                    username=form.cleaned_data["user"]
                ),
            )
            return redirect("table_settings", table.pk)
    return settings_page(request, table, member_form=form, status=422)


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    membership = member(table, member_pk)
    if membership is None:
        raise Http404("No such member.")
    membership_delete(membership=membership)
    messages.success(
        request, _("{username} no longer keeps scores here.").format(username=membership.user)
    )
    return redirect("table_settings", table.pk)


@login_required
@require_POST
def invite_new(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    invite_create(table=table, by=request.user)
    messages.success(request, _("A new invite link is ready: it works once, for 7 days."))
    return redirect("table_settings", table.pk)


@login_required
@require_http_methods(["GET", "POST"])
def invite_accept_view(request: HttpRequest, token: str) -> HttpResponse:
    invite = invite_by_token(token)
    if request.method == "POST":
        try:
            table = invite_accept(token=token, user=request.user)
        except Refused as refusal:
            messages.error(request, refusal.problems[0])
            return redirect("home")
        messages.success(request, _("You now keep scores at {name}.").format(name=table.name))
        return redirect(table)
    usable = invite is not None and invite.is_usable
    return render(
        request,
        "games/invite.html",
        {"invite": invite if usable else None},
        status=200 if usable else 404,
    )


@login_required
@require_POST
def table_watch_link(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_owner(request, pk)
    _change_watch_link(request, table)
    return redirect("table_settings", table.pk)


@login_required
@require_POST
def game_watch_link(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    get_table_for_owner(request, game.table_id)
    _change_watch_link(request, game)
    return redirect(reverse("game_share", args=[game.pk]))


def _change_watch_link(request: HttpRequest, obj: Game | Table) -> None:
    if LinkActionForm(request.POST).turns_off:
        watch_link_off(obj)
        messages.success(request, _("The watch link is off: it no longer shows anything."))
    else:
        had_one = bool(obj.watch_token)
        watch_link_replace(obj)
        if had_one:
            messages.success(request, _("A new watch link is ready; the old one stopped working."))
        else:
            messages.success(request, _("The watch link is ready: show it or send it."))


@login_required
@require_GET
def game_share(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    return render(
        request,
        "games/game_share.html",
        {
            "game": game,
            "is_owner": owns(request.user, game.table),
            "watch_url": absolute_url(request, "watch_game", game.watch_token),
        },
    )

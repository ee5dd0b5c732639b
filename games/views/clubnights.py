"""Club nights: starting one, its page (the draw, its rounds, the standings), its big screen."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.access import (
    get_evening_for_user,
    get_table_for_owner,
    get_table_for_user,
    rulesets_for_table,
    watched_evening,
)
from games.forms.clubnights import EveningForm, PresentForm, RoundForm, SplitForm
from games.forms.games import StartKeyForm
from games.forms.tables import LinkActionForm
from games.models import Evening
from games.pages import clubnight
from games.pages.links import absolute_url
from games.pages.previews import places_said, preview
from games.selectors import clubnights as clubnights_read
from games.selectors.games import evening_etag
from games.services import clubnights
from games.services.errors import Refused
from games.services.once import sent_before
from games.services.sharing import watch_link_off, watch_link_replace
from games.views.responses import poll_answer


@login_required
@require_http_methods(["GET", "POST"])
def evening_new(request: HttpRequest, pk: int) -> HttpResponse:
    table = get_table_for_user(request, pk)
    today = timezone.localdate()
    name = _("Club night, {date}").format(date=date_format(today, "MONTH_DAY_FORMAT"))
    form = EveningForm(
        request.POST or None,
        table=table,
        rulesets=rulesets_for_table(table),
        initial={"name": name},
    )
    key = StartKeyForm(request.POST).read()["key"]
    if (started := sent_before(table.evenings, key)) is not None:
        return redirect(started)  # this form started it already
    if request.method == "POST" and form.is_valid():
        try:
            evening = clubnights.evening_start(
                table=table, **form.arguments(), day=today, by=request.user, key=key
            )
        except Refused as refusal:
            form.refused(refusal)
        else:
            return redirect(evening)
    return render(
        request,
        "games/evening_new.html",
        {"table": table, "form": form},
        status=422 if form.errors else 200,
    )


def _live(request: HttpRequest, evening: Evening, *, readonly: bool, live_url: str):
    return poll_answer(
        request,
        evening_etag(clubnights_read.evening_version(evening), readonly=readonly),
        lambda: render(
            request,
            "games/evening_board.html#live",
            {**clubnight.board_context(evening, readonly=readonly), "live_url": live_url},
        ),
    )


@login_required
@require_GET
def evening_detail(request: HttpRequest, pk: int) -> HttpResponse:
    evening = get_evening_for_user(request, pk)
    present = clubnights_read.present(evening)
    return render(
        request,
        "games/evening_detail.html",
        {
            **clubnight.board_context(evening, readonly=False),
            "live_url": reverse("evening_live", args=[pk]),
            "present_count": len(present),
            "present_form": PresentForm(table=evening.table, initial={"players": list(present)}),
            "watch_url": absolute_url(request, "watch_evening", evening.watch_token),
        },
    )


@login_required
@require_GET
def evening_live(request: HttpRequest, pk: int) -> HttpResponse:
    evening = get_evening_for_user(request, pk)
    return _live(request, evening, readonly=False, live_url=reverse("evening_live", args=[pk]))


@login_required
@require_POST
def evening_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw the coming round again, in the split chosen."""
    evening = get_evening_for_user(request, pk)
    here = len(clubnights_read.present(evening))
    options = {clubnight.sizes_value(s): s for s in clubnights_read.splits_for(evening, here)}
    chosen = SplitForm(request.POST, options=options).read()["sizes"]
    clubnights.evening_draw(evening=evening, sizes=options.get(chosen))
    return redirect(evening)


@login_required
@require_POST
def evening_round(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the coming round as drawn: all its games at once."""
    evening = get_evening_for_user(request, pk)
    number = RoundForm(request.POST).read()["round"]
    try:
        started = clubnights.round_start(evening=evening, number=number, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.problems[0])
    else:
        if started:
            messages.success(request, _("Round {number} has started.").format(number=number))
    return redirect(evening)


@login_required
@require_POST
def evening_present(request: HttpRequest, pk: int) -> HttpResponse:
    """Who is here now; the coming round is drawn again with them."""
    evening = get_evening_for_user(request, pk)
    form = PresentForm(request.POST, table=evening.table)
    if form.is_valid():
        try:
            clubnights.evening_present(evening=evening, players=form.cleaned_data["players"])
        except Refused as refusal:
            messages.error(request, refusal.problems[0])
        else:
            messages.success(request, _("Who is here is saved; the coming round is drawn anew."))
    else:
        messages.error(request, _("Tick the players who are here."))
    return redirect(evening)


@login_required
@require_POST
def evening_watch_link(request: HttpRequest, pk: int) -> HttpResponse:
    """The big-screen link: made, replaced or turned off by whoever runs the evening."""
    evening = get_evening_for_user(request, pk)
    if LinkActionForm(request.POST).turns_off:
        watch_link_off(evening)
        messages.success(request, _("The big-screen link is off."))
    else:
        watch_link_replace(evening)
        messages.success(request, _("The big-screen link is ready: open it on the screen."))
    return redirect(reverse("evening_detail", args=[pk]) + "#big-screen")


@login_required
@require_POST
def evening_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's owner deletes an evening (one started by mistake); its games stay."""
    evening = get_evening_for_user(request, pk)
    table = get_table_for_owner(request, evening.table_id)
    clubnights.evening_delete(evening=evening)
    messages.success(request, _("The club night is deleted; its games are still here."))
    return redirect(table)


@require_GET
def watch_evening(request: HttpRequest, token: str) -> HttpResponse:
    evening = watched_evening(token)
    shown = clubnight.board_context(evening, readonly=True)
    said = places_said(
        [(line.place if line.score else None, line.name, line.score or "–")
         for line in shown["standings"][:7]],
        _("Standings"),
    )  # fmt: skip
    picture = reverse("watch_evening_picture", args=[token])
    response = render(
        request,
        "games/evening_watch.html",
        {
            **shown,
            "live_url": reverse("watch_evening_live", args=[token]),
            "preview": preview(
                request,
                title=f"{evening.name} · {evening.table.name}",
                description=said,
                picture=picture,
            ),
        },
    )
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
def watch_evening_live(request: HttpRequest, token: str) -> HttpResponse:
    evening = watched_evening(token)
    return _live(
        request, evening, readonly=True, live_url=reverse("watch_evening_live", args=[token])
    )

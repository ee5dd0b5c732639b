"""Whole answers several views give: the table page and its settings page, each
with a form's errors where a post was refused, and a poll's answer. What the pages
show is read in ``games/selectors/`` and shaped in ``games/pages/``. The one module
of ``games/views/`` that others import."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django_htmx.middleware import HtmxDetails

from games.access import owns
from games.forms.tables import MemberForm, PlayerForm, SeasonForm, TableNameForm
from games.models import Table
from games.pages.links import absolute_url
from games.pages.tables import settings_shown, table_shown


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx leaves it: ``request.htmx`` says what htmx sent."""

    htmx: HtmxDetails


def table_page(
    request: HttpRequest, table: Table, *, player_form: PlayerForm | None = None, status=200
) -> HttpResponse:
    """The table's page, with a refused form's errors where a post was refused."""
    context = {**table_shown(table), "player_form": player_form or PlayerForm(table=table)}
    return render(request, "games/table_detail.html", context, status=status)


def settings_page(
    request: HttpRequest, table: Table, *, status: int = 200, **forms_
) -> HttpResponse:
    """The table's settings page, with a refused form's errors where a post was refused."""
    table.refresh_from_db()
    context = {
        **settings_shown(table, link=lambda name, token: absolute_url(request, name, token)),
        "name_form": forms_.get("name_form") or TableNameForm(instance=table),
        "member_form": forms_.get("member_form") or MemberForm(),
        "player_form": forms_.get("player_form") or PlayerForm(table=table),
        "season_form": forms_.get("season_form") or SeasonForm(),
    }
    return render(request, "games/table_settings.html", context, status=status)


def players_page(
    request: HttpRequest, table: Table, *, player_form: PlayerForm, status: int
) -> HttpResponse:
    """Where the table's players are looked after, with the form's errors: the
    settings page for its owner, the table's page for a member."""
    if owns(request.user, table):
        return settings_page(request, table, player_form=player_form, status=status)
    return table_page(request, table, player_form=player_form, status=status)


def players_url(request: HttpRequest, table: Table) -> str:
    """The page a change to a player goes back to (as :func:`players_page`)."""
    if owns(request.user, table):
        return reverse("table_settings", args=[table.pk])
    return table.get_absolute_url()


# --- A poll's answer ------------------------------------------------------------------
# 204, which htmx leaves alone, while the page shows this version. The polled element
# sends the version it shows as ``If-None-Match`` (its ``hx-headers``). A 304 would not
# do: the browser hands a script the cached 200 instead, and htmx would redraw the same
# scoreboard every few seconds.


def _seen(request: HttpRequest, etag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return etag in [t.strip().removeprefix("W/") for t in sent.split(",")]


def poll_answer(
    request: HttpRequest, etag: str, answer: Callable[[], HttpResponse]
) -> HttpResponse:
    """204 while the page shows ``etag``, else ``answer()`` (made only then)."""
    response = HttpResponse(status=204) if _seen(request, etag) else answer()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response

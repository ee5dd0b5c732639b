"""Whole answers several views give: the table page and its settings page, each
with a form's errors where a post was refused. HTTP helpers live here, beside the
views that use them; what the pages show is read in ``games/selectors/`` and shaped
in ``games/pages/``. The one module of ``games/views/`` that others import."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django_htmx.middleware import HtmxDetails

from games.access import rulesets_for_table
from games.engine.chart import reliability_chart
from games.forms.tables import MemberForm, PlayerForm, SeasonForm, TableNameForm
from games.models import Table
from games.pages.chances import table_said
from games.pages.ladder import chances_said, ladder, season_ladder
from games.pages.links import absolute_url
from games.pages.rules import describe_rules
from games.selectors import tables as read


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx leaves it: ``request.htmx`` says what htmx sent."""

    htmx: HtmxDetails


def season_context(table: Table, form: SeasonForm | None = None) -> dict:
    """The season running today (with its own ladder), the table's seasons, the form."""
    today = timezone.localdate()
    seasons = list(read.seasons(table))
    current = next((s for s in seasons if s.starts <= today <= s.ends), None)
    return {
        "season": current,
        "season_ladder": season_ladder(table, current) if current else [],
        "seasons": seasons,
        "season_form": form or SeasonForm(),
    }


def table_page(
    request: HttpRequest,
    table: Table,
    *,
    player_form: PlayerForm | None = None,
    season_form: SeasonForm | None = None,
    status=200,
) -> HttpResponse:
    players = read.players_by_name(table)
    during = table_said(table).brier if table.show_chances else None
    games = read.recent_games(table)
    return render(
        request,
        "games/table_detail.html",
        {
            "table": table,
            "players": players,
            "player_form": player_form or PlayerForm(table=table),
            "games": games,
            "ladder": ladder(table),
            "chances_said": chances_said(table) if table.show_chances else None,
            "during_said": during,
            "reliability": reliability_chart(during.bands) if during and during.deals else None,
            "evenings": read.recent_evenings(table),
            **season_context(table, season_form),
            # Each described from its settings; a table's own may add house rules.
            "rulesets": [
                (ruleset, describe_rules(ruleset.to_rules()))
                for ruleset in rulesets_for_table(table)
            ],
        },
        status=status,
    )


def settings_page(
    request: HttpRequest, table: Table, *, status: int = 200, **forms_
) -> HttpResponse:
    table.refresh_from_db()
    members = read.members(table)
    context = {
        "table": table,
        "name_form": forms_.get("name_form") or TableNameForm(instance=table),
        "member_form": forms_.get("member_form") or MemberForm(),
        "members": members,
        "players": read.players_by_name(table),
        "accounts": [table.owner] + [m.user for m in members],
        "invites": [
            (i, absolute_url(request, "invite_accept", i.token)) for i in read.invites(table)
        ],
        "watch_url": absolute_url(request, "watch_table", table.watch_token),
    }
    return render(request, "games/table_settings.html", context, status=status)


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

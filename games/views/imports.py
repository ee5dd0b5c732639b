"""Bringing history into a table: a file of ours, results kept on paper, or the
plays logged in BG Stats or on BoardGameGeek; always seen before it is saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from games.access import get_table_for_user, rulesets_for_table
from games.engine.names import name_key
from games.formats.logged import Chosen, LoggedFile, chosen, logged_history, read_logged
from games.formats.paper import read_upload
from games.formats.reading import WEB_MOST_GAMES, ImportRefused, parse_history
from games.forms.history import ImportForm, ImportStepForm, LoggedForm
from games.models import Ruleset, Table
from games.selectors import tables as tables_read
from games.services.imports import ImportedAlready, import_history
from games.services.once import sent_before
from games.services.uploads import forget_upload, keep_upload, kept_upload

TEMPLATE = "games/table_import.html"


@login_required
@require_http_methods(["GET", "POST"])
def table_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a file, see what it holds, then import it all or nothing."""
    table = get_table_for_user(request, pk)
    if request.method == "POST" and ImportStepForm(request.POST).read()["step"]:
        return _logged_step(request, table)
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = problem = upload = None
    if request.method == "POST" and form.is_valid():
        kept = {"user": request.user.pk, "table": table.pk}
        try:
            if form.cleaned_data["upload"]:
                token = form.cleaned_data["upload"]
                raw = _kept(request, table, token)
                return _import(request, table, read_upload(raw, table=table.name), token)
            raw = form.cleaned_data["raw"]
            logged = read_logged(raw)
            if logged is not None:
                upload = keep_upload(**kept, raw=raw)
                ticks = logged.suggested()
                form = _ticked(table, logged, upload, ticks)
                return _render_logged(request, table, logged, form, ticks)
            parsed = parse_history(read_upload(raw, table=table.name), most_games=WEB_MOST_GAMES)
            preview = _import_preview(table, parsed)
            upload = keep_upload(**kept, raw=raw)
        except ImportRefused as refusal:
            problem = _("Nothing was imported. {reason}").format(reason=refusal.message)
        except _Done as done:
            return done.response
    status = 422 if (form.errors or problem) else 200
    return render(
        request,
        TEMPLATE,
        {"table": table, "form": form, "preview": preview, "problem": problem, "upload": upload},
        status=status,
    )


class _Done(Exception):
    """The answer is found before the page is: the import is made, or was before."""

    def __init__(self, response: HttpResponse):
        self.response = response


def _kept(request: HttpRequest, table: Table, token: str) -> bytes:
    """The file shown under ``token``; a confirmation sent again finds it imported."""
    if sent_before(table.games, token) is not None:
        raise _Done(_imported_already(request, table))
    raw = kept_upload(user=request.user.pk, table=table.pk, token=token)
    if raw is None:
        raise ImportRefused(_("The file shown is no longer kept: choose it again."))
    return raw


def _import(request: HttpRequest, table: Table, data, token: str) -> HttpResponse:
    try:
        games = import_history(
            data, owner=table.owner, table=table, most_games=WEB_MOST_GAMES, key=token
        )
    except ImportedAlready:
        return _imported_already(request, table)
    forget_upload(user=request.user.pk, table=table.pk, token=token)
    said = ngettext(
        "Imported {count} game into {name}.", "Imported {count} games into {name}.", len(games)
    ).format(count=len(games), name=table.name)
    if games.skipped:
        said += " " + already_here(games.skipped)
    messages.success(request, said)
    return redirect("table_history", table.pk)


def _logged_step(request: HttpRequest, table: Table) -> HttpResponse:
    """A BG Stats or BoardGameGeek file shown: its ticks changed, or the import confirmed."""
    token = ImportStepForm(request.POST).read()["upload"]
    try:
        logged = read_logged(_kept(request, table, token)) if token else None
    except ImportRefused as refusal:
        return _start_again(request, table, refusal.message)
    except _Done as done:
        return done.response
    if logged is None:
        return _start_again(request, table, _("The file shown is no longer kept: choose it again."))
    form = LoggedForm(request.POST, logged=logged, rulesets=_rulesets(table))
    if not form.is_valid():
        return _render_logged(request, table, logged, form, logged.suggested(), status=422)
    ticks = form.cleaned_data["games"]
    if not form.importing:
        note = _("These are the plays of the games now ticked: import when they are right.")
        shown = _ticked(table, logged, form.cleaned_data["upload"], ticks, form.data)
        return _render_logged(
            request, table, logged, shown, ticks, note=note if form.ticks_changed else ""
        )
    try:
        picked = _chosen(table, logged, form, ticks)
        if picked.disagreeing and form.cleaned_data["step"] == LoggedForm.IMPORT:
            raise ImportRefused(_("Choose what to do with the plays whose winners differ."))
        winners = form.cleaned_data["step"]
        data = logged_history(picked, table=table.name, disagreeing=winners, rules=form.rules())
        if not data["games"]:
            raise ImportRefused(_("Tick a game with plays to import."))
        return _import(request, table, data, token)
    except ImportRefused as refusal:
        problem = _("Nothing was imported. {reason}").format(reason=refusal.message)
        return _render_logged(request, table, logged, form, ticks, problem=problem, status=422)


def _ticked(
    table: Table, logged: LoggedFile, upload: str, ticks: list[str], sent=None
) -> LoggedForm:
    """The form for the file kept under ``upload``, these games ticked and their plays
    shown; the rules and the unnamed choice as ``sent``, if they were."""
    data = {"upload": upload, "games": ticks, "shown": ticks, "step": LoggedForm.SHOW}
    if sent is None:
        return LoggedForm(initial=data, logged=logged, rulesets=_rulesets(table))
    kept = {k: sent.get(k) for k in sent if k.startswith("rules_") or k == "unnamed"}
    form = LoggedForm({**kept, **data}, logged=logged, rulesets=_rulesets(table))
    form.is_valid()
    return form


def _rulesets(table: Table) -> list[Ruleset]:
    return list(rulesets_for_table(table))


def _chosen(table: Table, logged: LoggedFile, form: LoggedForm, ticks: list[str]) -> Chosen:
    """The ticked games' plays; those at the table already are never asked about again."""
    here = tables_read.game_keys(table)
    return chosen(logged, ticks, here=here, unnamed=form.bring_unnamed)


def _start_again(request: HttpRequest, table: Table, reason: str) -> HttpResponse:
    problem = _("Nothing was imported. {reason}").format(reason=reason)
    context = {"table": table, "form": ImportForm(), "problem": problem}
    return render(request, TEMPLATE, context, status=422)


def _render_logged(
    request: HttpRequest,
    table: Table,
    logged: LoggedFile,
    form: LoggedForm,
    ticks: list[str],
    *,
    problem: str = "",
    note: str = "",
    status: int = 200,
) -> HttpResponse:
    """The file's games with their ticks, and the plays of the ticked ones."""
    context = {"table": table, "logged": logged, "form": form, "problem": problem, "note": note}
    try:
        picked = _chosen(table, logged, form, ticks)
        data = logged_history(picked, table=table.name, rules=form.rules())
        parsed = parse_history(data, most_games=WEB_MOST_GAMES)
    except ImportRefused as refusal:
        context["problem"] = problem or _("Nothing can be imported yet. {reason}").format(
            reason=refusal.message
        )
        return render(request, TEMPLATE, context, status=422)
    names = {game.ref: game.name for game in logged.games}
    context.update(
        preview=_import_preview(table, parsed) if parsed else None,
        picked=picked,
        disagreeing=[
            {
                "day": play.day,
                "game": names[play.game],
                "flagged": ", ".join(play.flagged),
                "winners": ", ".join(play.winners),
                "totals": ", ".join(f"{seat.name} {seat.total}" for seat in play.seats),
            }
            for play in picked.disagreeing
        ],
        repeated=[
            {"day": play.day, "game": names[play.game], "quantity": play.quantity}
            for play in picked.repeated
        ],
        rules_fields=form.rules_fields(ticks),
    )
    return render(request, TEMPLATE, context, status=status)


def _imported_already(request: HttpRequest, table: Table) -> HttpResponse:
    """The confirmation sent again (Back, a double tap, two phones): it was imported once."""
    messages.info(request, _("This file is imported already: its games are here."))
    return redirect("table_history", table.pk)


def _import_preview(table: Table, parsed: list) -> dict:
    known = {name_key(name) for name in tables_read.player_names(table)}
    new = {name_key(n): n for game in parsed for n in game.names if name_key(n) not in known}
    new_players = sorted(new.values())
    keys = set(tables_read.game_keys(table))
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

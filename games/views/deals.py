"""Deals: entering, saving, sending kept deals, editing, deleting."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from games import engine
from games.access import get_deal_for_user, get_game_for_user
from games.forms.deals import DealDeleteForm, DealForm, ModeForm
from games.pages.entry import DealEntry, entry_context, scores_line
from games.pages.phone import page_config
from games.pages.scoreboard import Scoreboard, scoreboard
from games.selectors.games import game_with_seats, number_sent_with
from games.services.deals import Conflict, Recorded, deal_delete, deal_edit, deal_save, who_entered
from games.services.errors import DealConflict, Refused
from games.views.responses import HtmxHttpRequest


# A page or htmx's fragment, by the HX-Request header: a cache keeps them apart.
@vary_on_headers("HX-Request")
@login_required
@require_POST
def deal_new(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    names = [seat.player.name for seat in game.seats.all()]
    form = DealForm(request.POST, rules=game.get_rules(), names=names)
    sent = form.read()
    entry = form.entry
    number = sent["next_number"] or sent["number"]
    saved = conflict = None
    problems: list[str] = []
    engine_entry = entry.parsed
    if engine_entry is None:
        problems = entry.problems
    else:
        try:
            saved = deal_save(
                game=game,
                entry=engine_entry,
                by=request.user,
                number=number,
                key=sent["key"] or None,
            )
        except Refused as refusal:
            problems = [
                engine.without_deal_number(p, refusal.deal) if refusal.deal else p
                for p in refusal.problems
            ]
    if isinstance(saved, Conflict):
        conflict = saved
    elif saved is not None:
        if not request.htmx:
            return redirect(game)
        # A small answer: a fresh form and the new totals. The history refreshes
        # itself on the event (its poll runs at once), so the save never re-sends it.
        if isinstance(saved, Recorded):
            board = Scoreboard(game, deal_count=saved.deal.number, seats=saved.seats)
        else:
            board = scoreboard(game_with_seats(game.pk))
        fresh = DealEntry.blank(entry.mode, board.rules, board.names)
        context = entry_context(board, fresh, live_oob=True)
        response = render(request, "games/game_detail.html#entry", context)
        # The new totals are brought into view in the swap's own frame (a scroll after
        # settling is a second layout and frame); the poll starts after settling, so
        # that it is the new scoreboard's, not the old one's.
        trigger_client_event(response, "dealSaved", after="swap")
        return trigger_client_event(response, "dealRecorded", after="settle")
    board = scoreboard(game_with_seats(game.pk))
    context = entry_context(board, entry, problems=problems, conflict=conflict)
    if conflict is not None and number is not None:
        # The entry keeps the number it was made for: saved again as it is, it
        # conflicts again, never lands silently as the next deal.
        context["deal_number"] = number
    if request.htmx:
        response = render(request, "games/game_detail.html#entry", context)
        return (
            trigger_client_event(response, "dealRecorded", after="settle") if conflict else response
        )
    return render(request, "games/game_detail.html", context, status=409 if conflict else 422)


@login_required
@require_POST
def deal_queued(request: HttpRequest, pk: int) -> JsonResponse:
    """A deal a phone kept while it had no network, sent now, in order (JSON answer).

    The phone's ``key`` makes sending twice harmless. If another phone took
    the deal number meanwhile, the answer shows both and the person chooses:
    ``resolve=replace`` (with the version they saw) or ``resolve=next``.
    """
    game = get_game_for_user(request, pk)
    rules, names = game.get_rules(), [seat.player.name for seat in game.seats.all()]
    form = DealForm(request.POST, rules=rules, names=names)
    try:
        sent = form.read()
    except BadRequest:
        sent = {}
    key, number = sent.get("key"), sent.get("number")
    if not key or number is None:
        return JsonResponse(
            {"status": "refused", "problems": [_("This deal could not be read.")]}, status=422
        )
    resolve, version, kept_by = sent["resolve"], sent["version"], sent["kept_by"]
    if kept_by is not None and kept_by != request.user.pk:
        # A phone passed to another person: the deal is the one who kept it's to send.
        return JsonResponse({"status": "not_yours", "number": number}, status=409)
    recorded = number_sent_with(game, key)
    if recorded is not None:
        return _queued_recorded(recorded)
    entry = form.entry
    engine_entry = entry.parsed
    if engine_entry is None:
        return _queued_refusal(entry.problems, number)
    try:
        saved = deal_save(
            game=game,
            entry=engine_entry,
            by=request.user,
            number=None if resolve == "next" else number,
            key=key,
            replace=resolve == "replace",
            version=version,
        )
    except Refused as refusal:
        # As the next deal it may have been refused under a later number.
        return _queued_refusal(refusal.problems, refusal.deal or number)
    if isinstance(saved, Conflict):
        theirs = saved.deal
        yours = engine.check_deal(rules, names, engine_entry).result
        answer = {"status": "conflict", "message": saved.message, "number": number}
        if theirs is not None:
            answer.update(number=theirs.number, version=theirs.version, by=who_entered(theirs))
            answer["theirs"] = scores_line(names, theirs.scores)
        if yours is not None:
            answer["yours"] = scores_line(names, yours.scores)
        return JsonResponse(answer, status=409)
    return _queued_recorded(saved.deal.number)


def _queued_recorded(number: int) -> JsonResponse:
    """Recorded, under this number: the phone renumbers the deals kept after it."""
    return JsonResponse({"status": "recorded", "number": number})


def _queued_refusal(problems: list[str], number: int) -> JsonResponse:
    problems = [capfirst(engine.without_deal_number(p, number)) for p in problems]
    return JsonResponse({"status": "refused", "problems": problems}, status=422)


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET", "POST"])
def deal_edit_view(request: HttpRequest, pk: int) -> HttpResponse:
    deal = get_deal_for_user(request, pk)
    game = get_game_for_user(request, deal.game_id)
    rules, names = game.get_rules(), [seat.player.name for seat in game.seats.all()]
    problems: list[str] = []
    conflict = None
    seen_version = None
    if request.method == "POST":
        form = DealForm(request.POST, rules=rules, names=names)
        sent = form.read()
        entry = form.entry
        engine_entry = entry.parsed
        seen_version = sent["version"]
        version = sent["replace_version"] or seen_version
        if engine_entry is None:
            problems = entry.problems
        else:
            try:
                deal_edit(
                    deal=deal,
                    entry=engine_entry,
                    by=request.user,
                    version=version,
                )
            except Refused as refusal:
                problems = [engine.without_deal_number(p, deal.number) for p in refusal.problems]
            except DealConflict as clash:
                conflict = clash
                if clash.deal is not None:
                    deal = clash.deal  # theirs, to compare; the form keeps the version seen
            else:
                messages.success(
                    request,
                    _("Deal {number} changed; the totals after it too.").format(number=deal.number),
                )
                return _redirect(request, game.get_absolute_url())
    else:
        mode = ModeForm(request.GET).mode_for(rules, deal.mode)
        if mode == deal.mode:
            entry = DealEntry.from_entry(rules, names, deal.get_entry())
        else:
            entry = DealEntry.blank(mode, rules, names)
        entry.is_bound = True
    board = scoreboard(game)
    context = entry_context(
        board,
        entry,
        deal=deal,
        problems=problems,
        conflict=conflict,
        seen_version=seen_version if conflict else None,
        save_url=reverse("deal_edit", args=[deal.pk]),
        phone_json=page_config(board, offline=False),
    )
    status = 409 if conflict else 422 if problems else 200
    return render(request, "games/deal_edit.html", context, status=status)


@vary_on_headers("HX-Request")
@login_required
@require_http_methods(["GET", "POST"])
def deal_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    deal = get_deal_for_user(request, pk)
    game = deal.game
    problems: list[str] = []
    if request.method == "POST":
        version = DealDeleteForm(request.POST).read()["version"]
        try:
            deal_delete(deal=deal, by=request.user, version=version)
        except Refused as refusal:
            problems = refusal.problems
        except DealConflict as clash:
            problems = [clash.message]
        else:
            messages.success(
                request,
                _("Deal {number} deleted; the deals after it moved up.").format(number=deal.number),
            )
            return _redirect(request, game.get_absolute_url())
    return render(
        request,
        "games/deal_delete.html",
        {"deal": deal, "game": game, "problems": problems},
        status=422 if problems else 200,
    )


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)

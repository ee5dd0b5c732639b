"""Pages. Each view: parse, check access, call the domain, render.

Access goes through one helper per object kind (``_get_*_for_user``), so no
view can forget it: anything the user may not see is a 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails

from games import rules as r
from games.forms import (
    EntryForm,
    NewGameForm,
    PlayerForm,
    RulesetForm,
    SignUpForm,
    TableForm,
    default_mode,
    modes_for,
    ruleset_summary,
)
from games.models import Deal, Game, Player, Ruleset, Table
from games.scoreboard import load_game, scoreboard
from games.services import (
    DealConflict,
    Refused,
    deal_delete,
    deal_edit,
    deal_record,
    game_rematch,
    game_start,
)


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# --- Access ----------------------------------------------------------------------


def _tables_for_user(user) -> QuerySet[Table]:
    return Table.objects.filter(owner=user)


def _get_table_for_user(request: HttpRequest, pk: int) -> Table:
    return get_object_or_404(_tables_for_user(request.user), pk=pk)


def _get_game_for_user(request: HttpRequest, pk: int) -> Game:
    games = Game.objects.filter(table__in=_tables_for_user(request.user))
    get_object_or_404(games.values("pk"), pk=pk)
    return load_game(games, pk)


def _get_deal_for_user(request: HttpRequest, pk: int) -> Deal:
    deals = Deal.objects.filter(game__table__in=_tables_for_user(request.user))
    return get_object_or_404(deals.select_related("game"), pk=pk)


def _get_player_for_user(request: HttpRequest, pk: int) -> Player:
    players = Player.objects.filter(table__in=_tables_for_user(request.user))
    return get_object_or_404(players.select_related("table"), pk=pk)


def _rulesets_for_table(table: Table) -> QuerySet[Ruleset]:
    """What a table may play by: the built-in rulesets and its own."""
    return Ruleset.objects.filter(Q(table=None) | Q(table=table)).order_by("table_id", "name")


def _get_ruleset_for_table(table: Table, pk: int) -> Ruleset:
    return get_object_or_404(_rulesets_for_table(table), pk=pk)


# --- Accounts and home -------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        messages.success(request, f"Welcome, {user.get_username()}. Start by making a table.")
        return redirect("table_new")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    tables = _tables_for_user(request.user).order_by("-created_at", "-id")
    games = (
        Game.objects.filter(table__in=tables, status=Game.IN_PROGRESS)
        .select_related("table")
        .prefetch_related("seats__player")
        .order_by("-updated_at", "-id")[:20]
    )
    return render(request, "games/home.html", {"tables": tables, "games": games})


# --- Tables and players ---------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    form = TableForm(request.POST or None, initial={"default_ruleset": _black_maria()})
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            table = form.save(commit=False)
            table.owner = request.user
            table.save()
            Player.objects.bulk_create(
                Player(table=table, name=name) for name in form.cleaned_data["players"]
            )
        return redirect(table)
    return render(request, "games/table_new.html", {"form": form})


def _black_maria() -> Ruleset | None:
    return Ruleset.objects.filter(table=None, name="Black Maria").first()


@login_required
@require_GET
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    return _render_table(request, table)


def _render_table(
    request: HttpRequest, table: Table, *, player_form: PlayerForm | None = None, status=200
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
            "rulesets": _rulesets_for_table(table),
        },
        status=status,
    )


@login_required
@require_POST
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    form = PlayerForm(request.POST, table=table)
    if not form.is_valid():
        return _render_table(request, table, player_form=form, status=422)
    player = form.save(commit=False)
    player.table = table
    player.save()
    messages.success(request, f"{player.name} joins the table.")
    return redirect(table)


@login_required
@require_http_methods(["GET", "POST"])
def player_rename(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_user(request, pk)
    old = player.name
    form = PlayerForm(request.POST or None, instance=player, table=player.table)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, f"{old} is now {player.name}.")
        return redirect(player.table)
    return render(request, "games/player_rename.html", {"form": form, "player": player})


@login_required
@require_POST
def table_default_ruleset(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    ruleset_id = request.POST.get("ruleset", "")
    if not ruleset_id.isdigit():
        messages.error(request, "Choose a ruleset.")
        return redirect(table)
    table.default_ruleset = _get_ruleset_for_table(table, int(ruleset_id))
    table.save(update_fields=["default_ruleset"])
    messages.success(request, f"New games here play {table.default_ruleset.name}.")
    return redirect(table)


# --- Rulesets ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's own ruleset, starting from another one (``?from=``)."""
    table = _get_table_for_user(request, pk)
    base_id = request.GET.get("from", "")
    base = _get_ruleset_for_table(table, int(base_id)) if base_id.isdigit() else _black_maria()
    instance = Ruleset(table=table)
    if base is not None:
        for field in RulesetForm.Meta.fields:
            setattr(instance, field, getattr(base, field))
        instance.name = f"{base.name} (our rules)" if base.is_builtin else f"{base.name} (copy)"
        instance.pk = None
    form = RulesetForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        ruleset = form.save(commit=False)
        ruleset.table = table
        ruleset.save()
        messages.success(request, f"{ruleset.name} saved.")
        return redirect(table)
    return _render_ruleset_form(request, table, form, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: HttpRequest, pk: int, ruleset_pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    ruleset = get_object_or_404(Ruleset.objects.filter(table=table), pk=ruleset_pk)
    form = RulesetForm(request.POST or None, instance=ruleset)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, f"{ruleset.name} saved. Games already started keep their rules.")
        return redirect(table)
    return _render_ruleset_form(request, table, form, status=422 if form.errors else 200)


@login_required
@require_POST
def ruleset_preview(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The deal total, moon value and warnings for the settings as they stand."""
    table = _get_table_for_user(request, pk)
    form = RulesetForm(request.POST)
    summary = ruleset_summary(form.to_rules()) if form.is_valid() else []
    return render(
        request,
        "games/ruleset_form.html#summary",
        {"table": table, "form": form, "summary": summary, "preview": True},
    )


def _render_ruleset_form(
    request: HttpRequest, table: Table, form: RulesetForm, *, status: int = 200
) -> HttpResponse:
    summary = []
    if form.is_bound and form.is_valid():
        summary = ruleset_summary(form.to_rules())
    elif not form.is_bound:
        summary = ruleset_summary(form.instance.to_rules())
    return render(
        request,
        "games/ruleset_form.html",
        {"table": table, "form": form, "summary": summary},
        status=status,
    )


# --- Games ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    players = list(table.players.order_by("name"))
    initial = {f"seat_{i}": p.pk for i, p in enumerate(players[: r.MAX_PLAYERS])}
    form = NewGameForm(
        request.POST or None,
        table=table,
        players=players,
        rulesets=_rulesets_for_table(table),
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        try:
            game = game_start(
                table=table,
                players=form.cleaned_data["seated"],
                ruleset=form.cleaned_data["ruleset"],
                first_dealer=form.cleaned_data["first_dealer"],
                by=request.user,
            )
        except Refused as refusal:
            for problem in refusal.problems:
                form.add_error(None, problem)
        else:
            return redirect(game)
    return render(
        request,
        "games/game_new.html",
        {"table": table, "form": form, "players": players},
        status=422 if form.errors else 200,
    )


@login_required
@require_GET
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    board = scoreboard(game)
    mode = request.GET.get("mode", "")
    if mode not in modes_for(board.rules):
        mode = default_mode(board.rules, game.table.last_entry_mode)
    entry = EntryForm.blank(mode, board.rules, board.names)
    template = "games/game_detail.html"
    if request.htmx and request.GET.get("mode"):
        template += "#entry"
    return render(request, template, _game_context(board, entry))


def _game_context(board, entry: EntryForm | None, **extra) -> dict:
    game = board.game
    check = entry.check() if entry is not None and entry.is_bound else None
    context = {
        "game": game,
        "board": board,
        "entry": entry,
        "check": check,
        "moon_text": r.moon_summary(board.names, check.result, board.rules)
        if check and check.result
        else None,
        "raw_by_name": list(zip(board.names, check.result.raw, strict=True))
        if check and check.result
        else [],
        "modes": modes_for(board.rules),
        "check_url": reverse("deal_check", args=[game.pk]),
        "save_url": reverse("deal_new", args=[game.pk]),
        "deal_number": board.coming.number if board.coming else None,
    }
    conflict = extra.get("conflict")
    if conflict is not None and conflict.deal is not None:
        scores = ", ".join(
            f"{n} {p}" for n, p in zip(board.names, conflict.deal.scores, strict=True)
        )
        context["conflict_line"] = f"Deal {conflict.deal.number}: {scores}"
    context.update(extra)
    return context


def _entry_from_post(request: HttpRequest, board) -> EntryForm:
    mode = request.POST.get("mode", "")
    if mode not in modes_for(board.rules):
        mode = default_mode(board.rules, "")
    entry = EntryForm.from_post(mode, board.rules, board.names, request.POST)
    entry.fill_remainder()
    entry.is_bound = True
    return entry


@login_required
@require_POST
def deal_check(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The live check while entering: "37 of 43", the problems, any moon."""
    game = _get_game_for_user(request, pk)
    board = scoreboard(game)
    entry = _entry_from_post(request, board)
    extra = {}
    deal_id = request.GET.get("deal", "")
    if deal_id.isdigit():
        # Checking a change to a recorded deal, from its edit page.
        extra["deal"] = get_object_or_404(game.deals.all(), pk=int(deal_id))
    return render(request, "games/entry.html#check", _game_context(board, entry, oob=True, **extra))


@login_required
@require_POST
def deal_new(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    board = scoreboard(game)
    entry = _entry_from_post(request, board)
    number = request.POST.get("number", "")
    recorded = None
    problems: list[str] = []
    conflict = None
    engine_entry = entry.entry()
    if engine_entry is None:
        problems = entry.problems
    else:
        try:
            recorded = deal_record(
                game=game,
                entry=engine_entry,
                by=request.user,
                number=int(number) if number.isdigit() else None,
            )
        except Refused as refusal:
            problems = [
                p.removeprefix(f"deal {board.coming.number}: ") if board.coming else p
                for p in refusal.problems
            ]
        except DealConflict as clash:
            if clash.deal is not None and _same_deal(clash.deal, engine_entry, request.user):
                # A second tap on Save, or the form sent again: it is already in.
                recorded = clash.deal
            else:
                conflict = clash
    if recorded is not None:
        Table.objects.filter(pk=game.table_id).update(last_entry_mode=entry.mode)
        if request.htmx:
            board = scoreboard(load_game(Game.objects.all(), game.pk))
            fresh = EntryForm.blank(entry.mode, board.rules, board.names)
            return render(request, "games/game_detail.html#game-body", _game_context(board, fresh))
        return redirect(game)
    board = scoreboard(load_game(Game.objects.all(), game.pk))
    context = _game_context(board, entry, problems=problems, conflict=conflict)
    template = "games/game_detail.html"
    if request.htmx:
        return render(request, template + "#game-body", context)
    return render(request, template, context, status=409 if conflict else 422)


def _same_deal(deal: Deal, entry: r.Entry, user) -> bool:
    return deal.mode == entry.mode and deal.entry == entry.to_data() and deal.entered_by == user


@login_required
@require_http_methods(["GET", "POST"])
def deal_edit_view(request: HttpRequest, pk: int) -> HttpResponse:
    deal = _get_deal_for_user(request, pk)
    game = _get_game_for_user(request, deal.game_id)
    board = scoreboard(game)
    problems: list[str] = []
    conflict = None
    if request.method == "POST":
        entry = _entry_from_post(request, board)
        engine_entry = entry.entry()
        version = request.POST.get("version", "")
        if engine_entry is None:
            problems = entry.problems
        else:
            try:
                deal_edit(
                    deal=deal,
                    entry=engine_entry,
                    by=request.user,
                    version=int(version) if version.isdigit() else None,
                )
            except Refused as refusal:
                problems = [p.removeprefix(f"deal {deal.number}: ") for p in refusal.problems]
            except DealConflict as clash:
                conflict = clash
            else:
                messages.success(request, f"Deal {deal.number} changed; the totals after it too.")
                return _redirect(request, game.get_absolute_url())
    else:
        mode = request.GET.get("mode", deal.mode)
        if mode == deal.mode or mode not in modes_for(board.rules):
            entry = EntryForm.from_entry(board.rules, board.names, deal.get_entry())
        else:
            entry = EntryForm.blank(mode, board.rules, board.names)
        entry.is_bound = True
    context = _game_context(
        board,
        entry,
        deal=deal,
        problems=problems,
        conflict=conflict,
        save_url=reverse("deal_edit", args=[deal.pk]),
        check_url=reverse("deal_check", args=[game.pk]) + f"?deal={deal.pk}",
    )
    status = 409 if conflict else 422 if problems else 200
    return render(request, "games/deal_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def deal_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    deal = _get_deal_for_user(request, pk)
    game = deal.game
    problems: list[str] = []
    if request.method == "POST":
        version = request.POST.get("version", "")
        try:
            deal_delete(
                deal=deal, by=request.user, version=int(version) if version.isdigit() else None
            )
        except Refused as refusal:
            problems = refusal.problems
        except DealConflict as clash:
            problems = [clash.message]
        else:
            messages.success(request, f"Deal {deal.number} deleted; the deals after it moved up.")
            return _redirect(request, game.get_absolute_url())
    return render(
        request,
        "games/deal_delete.html",
        {"deal": deal, "game": game, "problems": problems},
        status=422 if problems else 200,
    )


@login_required
@require_POST
def game_rematch_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    if not game.is_finished:
        messages.error(request, "Finish this game first: a rematch starts when it ends.")
        return redirect(game)
    new = game_rematch(game=game, by=request.user)
    return redirect(new)


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)

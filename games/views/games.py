"""Games: starting one, its page, its note, print view, changes, rematch and deleting it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games import engine
from games.access import (
    get_game_for_user,
    get_table_for_owner,
    get_table_for_user,
    rulesets_for_table,
)
from games.forms.deals import ModeForm
from games.forms.games import GameNoteForm, NewGameForm, StartKeyForm
from games.models import Game, Ruleset, Table
from games.pages.entry import MODE_NAMES, DealEntry, default_mode, entry_context, modes_for
from games.pages.phone import page_config
from games.pages.rules import uneven_deals
from games.pages.scoreboard import scoreboard
from games.selectors import tables as tables_read
from games.selectors.games import deal_changes, deal_count, seat_count
from games.services.errors import Refused
from games.services.games import (
    game_annotate,
    game_delete,
    game_rematch,
    game_start,
    game_start_at_new_table,
)
from games.services.once import sent_before
from games.services.tables import table_default_ruleset
from games.views.responses import HtmxHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A new game in one screen; what was chosen is offered again next time."""
    table = get_table_for_user(request, pk)
    players = tables_read.players_as_joined(table)
    rulesets = rulesets_for_table(table)
    last, seated = tables_read.last_game(table)
    if last is None:
        seated = players if len(players) <= engine.MAX_PLAYERS else []
    same_rules = last is not None and last.ruleset_id == table.default_ruleset_id
    form = NewGameForm(
        request.POST or None,
        table=table,
        players=players,
        rulesets=rulesets,
        seated=seated,
        last_rules=last.get_rules() if same_rules else None,
    )
    key = StartKeyForm(request.POST).read()["key"]
    if (started := sent_before(table.games, key)) is not None:
        # This form started a game already (Back, then Start again): open that one.
        return redirect(started)
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data
        try:
            game = game_start(table=table, **form.arguments(), by=request.user, key=key)
        except Refused as refusal:
            form.refused(refusal)
        else:
            table_default_ruleset(table=table, ruleset=chosen["ruleset"])
            return _started(request, game)
    return _new_game_page(request, table, form)


@login_required
@require_http_methods(["GET", "POST"])
def game_new_first(request: HttpRequest) -> HttpResponse:
    """A first game, asked on one screen with no table yet: who plays and by which rules.

    The table is made with the game, named so the person can find and rename it.
    """
    table = Table(owner=request.user, name=_("Our table"), default_ruleset=Ruleset.black_maria())
    form = NewGameForm(
        request.POST or None, table=table, players=[], rulesets=tables_read.builtin_rulesets()
    )
    form.fields["new_players"].label = _("Players")
    form.fields["new_players"].help_text = _("Their names, separated by commas, in seat order.")
    if request.method == "POST" and form.is_valid():
        try:
            game = game_start_at_new_table(
                owner=request.user,
                table_name=table.name,
                **form.arguments(),
                by=request.user,
                key=StartKeyForm(request.POST).read()["key"],
            )
        except Refused as refusal:
            form.refused(refusal)
        else:
            # Beside the table's name on the game page: a line of its own pushed
            # the first deal's entry off the first screen.
            messages.info(request, _("Rename the table"), extra_tags="beside-title")
            return _started(request, game)
    return _new_game_page(request, table, form)


def _started(request: HttpRequest, game: Game) -> HttpResponse:
    rules, count = game.get_rules(), seat_count(game)
    if rules.deals and rules.deals % count:
        messages.warning(request, uneven_deals(rules.deals, count))
    return redirect(game)


def _new_game_page(request: HttpRequest, table: Table, form: NewGameForm) -> HttpResponse:
    return render(
        request,
        "games/game_new.html",
        {
            "table": table,
            "form": form,
            "players": list(form.by_pk.values()),
            "uneven": uneven_deals("{deals}", "{players}", count=2),
            "uneven_one": uneven_deals("{deals}", "{players}", count=1),
        },
        status=422 if form.errors else 200,
    )


# The whole page or, for htmx, the entry alone (a mode chosen): a cache keeps them apart.
@vary_on_headers("HX-Request")
@login_required
@require_GET
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    board = scoreboard(game)
    mode = ModeForm(request.GET).read()["mode"]
    if mode not in modes_for(board.rules):
        mode = default_mode(board.rules, game.table.last_entry_mode)
    entry = DealEntry.blank(mode, board.rules, board.names)
    template = "games/game_detail.html"
    if request.htmx:
        template += "#entry"
    context = entry_context(board, entry)
    if not request.htmx:
        context["phone_json"] = page_config(board, me=request.user)
    return render(request, template, context)


@login_required
@require_POST
def game_note(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    form = GameNoteForm(request.POST)
    if form.is_valid():
        game_annotate(game=game, note=form.cleaned_data["note"])
        messages.success(request, _("Note saved."))
    else:
        messages.error(request, _("The note is too long: at most 2,000 characters."))
    return redirect(game)


@login_required
@require_GET
def game_print(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    board = scoreboard(game)
    return render(request, "games/game_print.html", {"game": game, "board": board})


@login_required
@require_GET
def game_changes(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    names = [seat.player.name for seat in game.seats.all()]
    changes = [
        {
            "change": change,
            "before": _describe(change.before, names),
            "after": _describe(change.after, names),
        }
        for change in deal_changes(game)
    ]
    return render(request, "games/game_changes.html", {"game": game, "changes": changes})


def _describe(snapshot: dict | None, names: list[str]) -> str:
    """A recorded deal in words: "counts: Alice 17, Ben 20, Cara 6"."""
    if not snapshot:
        return "—"
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, snapshot["scores"], strict=True))
    return _("{mode}: {scores}").format(mode=MODE_NAMES[snapshot["mode"]], scores=scores)


@login_required
@require_POST
def game_rematch_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_game_for_user(request, pk)
    if not game.is_finished:
        messages.error(request, _("Finish this game first: a rematch starts when it ends."))
        return redirect(game)
    new = game_rematch(game=game, by=request.user)
    return redirect(new)


@login_required
@require_http_methods(["GET", "POST"])
def game_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner deletes a game (one started by mistake, say), after saying so."""
    game = get_game_for_user(request, pk)
    table = get_table_for_owner(request, game.table_id)
    if request.method == "POST":
        game_delete(game=game)
        messages.success(request, _("The game is deleted."))
        return redirect(table)
    return render(request, "games/game_delete.html", {"game": game, "deals": deal_count(game)})

"""Pages. Each view: parse, check access, call the domain, render.

Access goes through one helper per object kind (``_get_*_for_user``), so no
view can forget it: anything the user may not see is a 404.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
    JsonResponse,
    StreamingHttpResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst, slugify
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event
from django_htmx.middleware import HtmxDetails

from games import keptpage, throttle
from games import rules as r
from games.forms import (
    MODE_NAMES,
    EntryForm,
    GameNoteForm,
    ImportForm,
    MemberForm,
    NewGameForm,
    PlayerForm,
    RulesetForm,
    SignUpForm,
    StatsFilterForm,
    TableForm,
    TableNameForm,
    ThrottledSignInForm,
    default_mode,
    modes_for,
    ruleset_summary,
)
from games.history import ImportRefused, import_history, iter_csv, iter_json, parse_history
from games.models import (
    Deal,
    Game,
    Invite,
    Membership,
    Player,
    Preference,
    Ruleset,
    Seat,
    Table,
)
from games.offline import offline_config
from games.prepared import Prepared, field_names, instance
from games.scoreboard import Scoreboard, load_game, scoreboard
from games.services import (
    DealConflict,
    Refused,
    deal_delete,
    deal_edit,
    deal_record,
    game_rematch,
    game_start,
    invite_accept,
    invite_create,
    member_add,
    taken_message,
    watch_link_off,
    watch_link_replace,
    who_entered,
)
from games.stats import games_with_player, player_stats, ruleset_names


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


# --- Access ----------------------------------------------------------------------


def _tables_for_user(user) -> QuerySet[Table]:
    """Tables the user owns or keeps scores for as a member."""
    if not user.is_authenticated:
        return Table.objects.none()
    return _tables_for_user_id(user.pk)


def _tables_for_user_id(user: int) -> QuerySet[Table]:
    return Table.objects.filter(_user_may_see(user, owner="owner_id", table="pk"))


def _user_may_see(user: int, *, owner: str, table: str) -> Q:
    """Rows whose table (its owner and id at these paths) the user owns or is a member of.

    A plain condition with EXISTS: the database plans it in half the time of
    nested IN subqueries, and the busiest pages run it on every request.
    """
    member = Membership.objects.filter(table_id=OuterRef(table), user_id=user)
    return Q(**{owner: user}) | Q(Exists(member))


def _get_table_for_user(request: HttpRequest, pk: int) -> Table:
    return get_object_or_404(_tables_for_user(request.user), pk=pk)


def _get_table_for_owner(request: HttpRequest, pk: int) -> Table:
    """Owner-only actions: outsiders get 404, members 403."""
    table = _get_table_for_user(request, pk)
    if table.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the table's owner can do this."))
    return table


def _games_for_user(user) -> QuerySet[Game]:
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(_user_may_see(user.pk, owner="table__owner_id", table="table_id"))


def _get_game_for_user(request: HttpRequest, pk: int) -> Game:
    try:
        return load_game(_games_for_user(request.user), pk)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None


# The seats of a game the user may see, each with its player, game, table and
# rules, and the number of deals recorded, all as of one moment.
_GAME_AND_SEATS = Prepared(
    lambda game, user: (
        Seat.objects.filter(
            _user_may_see(user, owner="game__table__owner_id", table="game__table_id"),
            game_id=game,
        )
        .annotate(
            played=Coalesce(
                Subquery(
                    Deal.objects.filter(game_id=OuterRef("game_id"))
                    .order_by("-number")
                    .values("number")[:1]
                ),
                0,
            )
        )
        .order_by("number")
        .values_list(
            *field_names(Seat),
            *field_names(Player, "player__"),
            *field_names(Game, "game__"),
            *field_names(Table, "game__table__"),
            *field_names(Ruleset, "game__ruleset__"),
            "played",
        )
    )
)


def _get_game_and_seats_for_user(request: HttpRequest, pk: int) -> tuple[Game, list[Seat], int]:
    """A game, its table and rules, its seats with their players, and its deal count.

    One query, so the count and the seats' totals belong with the game's version.
    """
    if not request.user.is_authenticated:
        raise Http404("No such game.")
    rows = _GAME_AND_SEATS.rows(game=pk, user=request.user.pk)
    if not rows:
        raise Http404("No such game.")
    widths = [len(model._meta.concrete_fields) for model in (Seat, Player, Game, Table, Ruleset)]
    ends = [sum(widths[: i + 1]) for i in range(len(widths))]
    row = rows[0]
    game = instance(Game, row[ends[1] : ends[2]])
    game.table = instance(Table, row[ends[2] : ends[3]])
    ruleset = row[ends[3] : ends[4]]
    game.ruleset = None if ruleset[0] is None else instance(Ruleset, ruleset)
    seats = []
    for row in rows:
        seat = instance(Seat, row[: ends[0]])
        seat.player = instance(Player, row[ends[0] : ends[1]])
        seat.game = game  # one game object for all of them
        seats.append(seat)
    return game, seats, rows[0][-1]


def _get_deal_for_user(request: HttpRequest, pk: int) -> Deal:
    deals = Deal.objects.filter(game__in=_games_for_user(request.user))
    return get_object_or_404(deals.select_related("game"), pk=pk)


def _get_player_for_user(request: HttpRequest, pk: int) -> Player:
    players = Player.objects.filter(table__in=_tables_for_user(request.user))
    return get_object_or_404(players.select_related("table"), pk=pk)


def _rulesets_for_table(table: Table) -> QuerySet[Ruleset]:
    """What a table may play by: the built-in rulesets and its own."""
    return Ruleset.objects.filter(Q(table=None) | Q(table=table)).order_by("table_id", "name")


def _get_ruleset_for_table(table: Table, pk: int) -> Ruleset:
    return get_object_or_404(_rulesets_for_table(table), pk=pk)


def _watched_games(token: str) -> QuerySet[Game]:
    """Games a watch link shows: the game's own link, or its table's."""
    if not token:
        return Game.objects.none()
    return Game.objects.filter(Q(watch_token=token) | Q(table__watch_token=token))


def _watched_by_own_link(token: str) -> QuerySet[Game]:
    """The game whose own watch link this is (one indexed lookup, no join)."""
    return Game.objects.filter(watch_token=token) if token else Game.objects.none()


# --- Health ------------------------------------------------------------------------


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For load balancers (and the benchmark's baseline): the app answers."""
    return HttpResponse("ok", content_type="text/plain")


# --- Installable and offline ------------------------------------------------------

THEME_COLOUR = "#0b5d3b"  # the card-table green of the top bar and the icons
PAPER_COLOUR = "#fffdf8"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: "Add to home screen" gives a full-screen app."""
    icons = [
        ("icons/icon-192.png", "192x192", "any"),
        ("icons/icon-512.png", "512x512", "any"),
        ("icons/maskable-512.png", "512x512", "maskable"),
    ]
    data = {
        "id": reverse("home"),
        "name": _("Black Maria scorekeeper"),
        "short_name": _("Scorekeeper"),
        "description": _("Scores for Black Maria and Hearts at the card table."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "background_color": PAPER_COLOUR,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in icons
        ],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=86400"
    return response


@lru_cache(maxsize=1)
def _service_worker_source() -> bytes:
    return (settings.BASE_DIR / "static" / "js" / "sw.js").read_bytes()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that it may look after every page."""
    response = HttpResponse(_service_worker_source(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the service worker for a page never opened while online."""
    return render(request, "offline.html")


# --- Accounts and home -------------------------------------------------------------


# --- Language --------------------------------------------------------------------


@require_POST
def language(request: HttpRequest) -> HttpResponse:
    """Switch the language: kept in a cookie, and with the account when signed in."""
    code = request.POST.get("language", "")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("home")
    response = HttpResponseRedirect(target)
    if code not in dict(settings.LANGUAGES):
        return response
    if request.user.is_authenticated:
        Preference.objects.update_or_create(user=request.user, defaults={"language": code})
    _remember_language(response, code)
    return response


def _remember_language(response: HttpResponse, code: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class SignInView(LoginView):
    """Signing in brings back the language the person chose, on any device."""

    authentication_form = ThrottledSignInForm

    def form_valid(self, form):
        response = super().form_valid(form)
        chosen = Preference.objects.filter(user=form.get_user()).values_list("language", flat=True)
        code = chosen.first()
        if code in dict(settings.LANGUAGES):
            _remember_language(response, code)
        return response


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and throttle.sign_up_locked(request):
        form.is_valid()
        form.add_error(None, throttle.SIGN_UP_LOCKED)
        return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        throttle.signed_up(request)
        user = form.save()
        # The language the account was made in is the account's language.
        Preference.objects.create(user=user, language=get_language())
        login(request, user)
        messages.success(
            request,
            _("Welcome, {username}. Start by making a table.").format(username=user.get_username()),
        )
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
    messages.success(request, _("{name} joins the table.").format(name=player.name))
    return redirect(table)


@login_required
@require_http_methods(["GET", "POST"])
def player_rename(request: HttpRequest, pk: int) -> HttpResponse:
    player = _get_player_for_user(request, pk)
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
def table_default_ruleset(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    ruleset_id = request.POST.get("ruleset", "")
    if not ruleset_id.isdigit():
        messages.error(request, _("Choose a ruleset."))
        return redirect(table)
    table.default_ruleset = _get_ruleset_for_table(table, int(ruleset_id))
    table.save(update_fields=["default_ruleset"])
    messages.success(
        request, _("New games here play {rules}.").format(rules=table.default_ruleset.name)
    )
    return redirect(table)


# --- Rulesets ------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's own ruleset, starting from another one (``?from=``)."""
    table = _get_table_for_owner(request, pk)
    base_id = request.GET.get("from", "")
    base = _get_ruleset_for_table(table, int(base_id)) if base_id.isdigit() else _black_maria()
    instance = Ruleset(table=table)
    if base is not None:
        for field in RulesetForm.Meta.fields:
            setattr(instance, field, getattr(base, field))
        instance.name = (_("{name} (our rules)") if base.is_builtin else _("{name} (copy)")).format(
            name=base.name
        )
        instance.pk = None
    form = RulesetForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        ruleset = form.save(commit=False)
        ruleset.table = table
        ruleset.save()
        messages.success(request, _("{rules} saved.").format(rules=ruleset.name))
        return redirect(table)
    return _render_ruleset_form(request, table, form, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def ruleset_edit(request: HttpRequest, pk: int, ruleset_pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    ruleset = get_object_or_404(Ruleset.objects.filter(table=table), pk=ruleset_pk)
    form = RulesetForm(request.POST or None, instance=ruleset)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(
            request,
            _("{rules} saved. Games already started keep their rules.").format(rules=ruleset.name),
        )
        return redirect(table)
    return _render_ruleset_form(request, table, form, status=422 if form.errors else 200)


@login_required
@require_POST
def ruleset_preview(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The deal total, moon value and warnings for the settings as they stand."""
    table = _get_table_for_owner(request, pk)
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


# What a cached game page depends on besides its version; no row for outsiders.
_GAME_PAGE_KEY = Prepared(
    lambda game, user: (
        Game.objects.filter(_user_may_see(user, owner="table__owner_id", table="table_id"), pk=game)
        .order_by()
        .values_list("version", "table__last_entry_mode", "table__name", "note", "ruleset__notes")[
            :1
        ]
    )
)


@login_required
@require_GET
def game_detail(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    mode = request.GET.get("mode", "")
    if request.htmx or get_messages(request):
        return _game_page(request, _get_game_for_user(request, pk), mode)
    # The whole page is kept per game version and person, with a stand-in for
    # the CSRF token: opening a game at the table is one small query and a
    # cache read, however many deals it has. The key holds everything on the
    # page that can change without a new game version (names, notes).
    found = _GAME_PAGE_KEY.first(game=pk, user=request.user.pk)
    if found is None:
        raise Http404("No such game.")
    if mode not in r.ENTRY_MODES:
        mode = ""
    shown = "\x1f".join(str(part) for part in (*found, request.user.pk, get_language(), mode))
    key = f"game-page:{pk}:{hashlib.sha256(shown.encode()).hexdigest()[:32]}"
    # This process's memory first (compressed, ready to send), then the cache
    # all processes share.
    kept = caches["local"].get(key)
    if kept is None:
        page = cache.get(key)
        if page is None:
            response = _game_page(request, _get_game_for_user(request, pk), mode, CSRF_STAND_IN)
            page = response.content.decode()
            cache.set(key, page, 86400)
        kept = keptpage.keep(page, CSRF_STAND_IN)
        caches["local"].set(key, kept, 3600)
    return keptpage.answer(request, kept, get_token(request))


# Never a real token: a real one is 64 letters and digits.
CSRF_STAND_IN = "csrf-stand-in"


def _game_page(request, game: Game, mode: str, csrf_token: str | None = None) -> HttpResponse:
    board = scoreboard(game)
    if mode not in modes_for(board.rules):
        mode = default_mode(board.rules, game.table.last_entry_mode)
    entry = EntryForm.blank(mode, board.rules, board.names)
    template = "games/game_detail.html"
    if request.htmx and request.GET.get("mode"):
        template += "#entry"
    context = _game_context(board, entry)
    if not request.htmx:
        context["offline_json"] = offline_config(board)
    if csrf_token is not None:
        context["csrf_token"] = csrf_token
    return render(request, template, context)


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
        "live_url": reverse("game_live", args=[game.pk]),
        "save_url": reverse("deal_new", args=[game.pk]),
        "deal_number": board.coming.number if board.coming else None,
    }
    conflict = extra.get("conflict")
    if conflict is not None and conflict.deal is not None:
        scores = _scores_line(board.names, conflict.deal.scores)
        context["conflict_line"] = _("Deal {number}: {scores}").format(
            number=conflict.deal.number, scores=scores
        )
    context.update(extra)
    return context


def _entry_from_post(request: HttpRequest, board) -> EntryForm:
    return _entry_for(request, board.rules, board.names)


def _entry_for(request: HttpRequest, rules: r.Rules, names: list[str]) -> EntryForm:
    mode = request.POST.get("mode", "")
    if mode not in modes_for(rules):
        mode = default_mode(rules, "")
    entry = EntryForm.from_post(mode, rules, names, request.POST)
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
    number = request.POST.get("number", "")
    if deal_id.isdigit():
        # Checking a change to a recorded deal, from its edit page.
        extra["deal"] = get_object_or_404(game.deals.all(), pk=int(deal_id))
    elif number.isdigit() and board.coming and int(number) < board.coming.number:
        # Another phone recorded this deal meanwhile: say so before Save is tapped.
        existing = game.deals.select_related("entered_by").get(number=int(number))
        extra["deal_number"] = int(number)
        extra["conflict"] = DealConflict(taken_message(existing), existing)
    return render(request, "games/entry.html#check", _game_context(board, entry, oob=True, **extra))


@login_required
@require_POST
def deal_new(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    game, seats, played = _get_game_and_seats_for_user(request, pk)  # the save needs no more
    rules = game.get_rules()
    entry = _entry_for(request, rules, [seat.player.name for seat in seats])
    number = request.POST.get("number", "")
    recorded = saved_game = None
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
                key=request.POST.get("key", "")[:64] or None,
                seats=seats,
                played=played,
            )
            saved_game = recorded.game
        except Refused as refusal:
            problems = [
                r.without_deal_number(p, refusal.deal) if refusal.deal else p
                for p in refusal.problems
            ]
        except DealConflict as clash:
            if clash.deal is not None and _same_deal(clash.deal, engine_entry, request.user):
                # A second tap on Save, or the form sent again: it is already in.
                recorded = clash.deal
            else:
                conflict = clash
    if recorded is not None:
        if game.table.last_entry_mode != entry.mode:
            Table.objects.filter(pk=game.table_id).update(last_entry_mode=entry.mode)
        if not request.htmx:
            return redirect(game)
        # A small answer: a fresh form. The scoreboard refreshes itself on the
        # event (its poll runs at once), so the save never re-sends the history.
        if saved_game is not None:
            # The game as the service left it, with the seats read before: the
            # fresh form needs nothing more from the database.
            game.status, game.version = saved_game.status, saved_game.version
            board = Scoreboard(game, deal_count=recorded.number, seats=seats)
        else:
            board = scoreboard(load_game(Game.objects.all(), game.pk))
        fresh = EntryForm.blank(entry.mode, board.rules, board.names)
        response = render(request, "games/game_detail.html#entry", _game_context(board, fresh))
        return trigger_client_event(response, "dealRecorded")
    board = scoreboard(load_game(Game.objects.all(), game.pk))
    context = _game_context(board, entry, problems=problems, conflict=conflict)
    if request.htmx:
        response = render(request, "games/game_detail.html#entry", context)
        return trigger_client_event(response, "dealRecorded") if conflict else response
    return render(request, "games/game_detail.html", context, status=409 if conflict else 422)


@login_required
@require_POST
def deal_queued(request: HttpRequest, pk: int) -> JsonResponse:
    """A deal a phone kept while it had no network, sent now, in order (JSON answer).

    The phone's ``key`` makes sending twice harmless. If another phone took
    the deal number meanwhile, the answer shows both and the person chooses:
    ``resolve=replace`` (with the version they saw) or ``resolve=next``.
    """
    game = _get_game_for_user(request, pk)
    board = scoreboard(game)
    key = request.POST.get("key", "")[:64]
    number = request.POST.get("number", "")
    resolve = request.POST.get("resolve", "")
    if not key or not number.isdigit() or resolve not in ("", "replace", "next"):
        return JsonResponse(
            {"status": "refused", "problems": [_("This deal could not be read.")]}, status=422
        )
    if game.deals.filter(client_key=key).exists():
        return JsonResponse({"status": "recorded"})
    entry = _entry_from_post(request, board)
    engine_entry = entry.entry()
    if engine_entry is None:
        return _queued_refusal(entry.problems, int(number))
    try:
        if resolve == "replace":
            version = request.POST.get("version", "")
            target = game.deals.filter(number=int(number)).first()
            if target is None:
                raise DealConflict(
                    _("Deal {number} was deleted meanwhile.").format(number=number), None
                )
            deal_edit(
                deal=target,
                entry=engine_entry,
                by=request.user,
                version=int(version) if version.isdigit() else None,
                key=key,
            )
        else:
            deal_record(
                game=game,
                entry=engine_entry,
                by=request.user,
                number=None if resolve == "next" else int(number),
                key=key,
            )
    except Refused as refusal:
        # As the next deal it may have been refused under a later number.
        return _queued_refusal(refusal.problems, refusal.deal or int(number))
    except DealConflict as clash:
        theirs = clash.deal
        if theirs is not None and (
            theirs.client_key == key or _same_deal(theirs, engine_entry, request.user)
        ):
            return JsonResponse({"status": "recorded"})
        yours = r.check_deal(board.rules, board.names, engine_entry).result
        answer = {"status": "conflict", "message": clash.message, "number": int(number)}
        if theirs is not None:
            answer.update(number=theirs.number, version=theirs.version, by=who_entered(theirs))
            answer["theirs"] = _scores_line(board.names, theirs.scores)
        if yours is not None:
            answer["yours"] = _scores_line(board.names, yours.scores)
        return JsonResponse(answer, status=409)
    return JsonResponse({"status": "recorded"})


def _queued_refusal(problems: list[str], number: int) -> JsonResponse:
    problems = [capfirst(r.without_deal_number(p, number)) for p in problems]
    return JsonResponse({"status": "refused", "problems": problems}, status=422)


def _scores_line(names: list[str], scores: list[int]) -> str:
    return ", ".join(f"{n} {p}" for n, p in zip(names, scores, strict=True))


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
                problems = [r.without_deal_number(p, deal.number) for p in refusal.problems]
            except DealConflict as clash:
                conflict = clash
            else:
                messages.success(
                    request,
                    _("Deal {number} changed; the totals after it too.").format(number=deal.number),
                )
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


@login_required
@require_POST
def game_rematch_view(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    if not game.is_finished:
        messages.error(request, _("Finish this game first: a rematch starts when it ends."))
        return redirect(game)
    new = game_rematch(game=game, by=request.user)
    return redirect(new)


def _redirect(request: HtmxHttpRequest, url: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        return HttpResponseClientRedirect(url)
    return HttpResponseRedirect(url)


# --- Owner's table settings: name, members, invites, watch links -------------------


@login_required
@require_http_methods(["GET", "POST"])
def table_settings(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    form = TableNameForm(request.POST or None, instance=table)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("The table is now called {name}.").format(name=table.name))
        return redirect("table_settings", table.pk)
    return _render_settings(request, table, name_form=form, status=422 if form.errors else 200)


def _render_settings(
    request: HttpRequest, table: Table, *, status: int = 200, **forms_
) -> HttpResponse:
    table.refresh_from_db()
    members = list(table.memberships.select_related("user"))
    accounts = [table.owner] + [m.user for m in members]
    context = {
        "table": table,
        "name_form": forms_.get("name_form") or TableNameForm(instance=table),
        "member_form": forms_.get("member_form") or MemberForm(),
        "members": members,
        "players": list(table.players.select_related("user").order_by("name")),
        "accounts": accounts,
        "invites": [i for i in table.invites.all()[:10] if i.is_usable],
        "watch_url": _absolute(request, "watch_table", table.watch_token),
    }
    return render(request, "games/table_settings.html", context, status=status)


def _absolute(request: HttpRequest, name: str, token: str | None) -> str | None:
    return request.build_absolute_uri(reverse(name, args=[token])) if token else None


@login_required
@require_POST
def table_delete(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    if request.POST.get("confirm") != table.name:
        messages.error(request, _("Type the table's name exactly to delete it."))
        return redirect("table_settings", table.pk)
    name = table.name
    table.delete()
    messages.success(request, _("{name} and all its games are deleted.").format(name=name))
    return redirect("home")


@login_required
@require_POST
def member_new(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
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
    return _render_settings(request, table, member_form=form, status=422)


@login_required
@require_POST
def member_remove(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    membership = get_object_or_404(table.memberships.select_related("user"), pk=member_pk)
    membership.delete()
    messages.success(
        request, _("{username} no longer keeps scores here.").format(username=membership.user)
    )
    return redirect("table_settings", table.pk)


@login_required
@require_POST
def invite_new(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    invite_create(table=table, by=request.user)
    messages.success(request, _("A new invite link is ready: it works once, for 7 days."))
    return redirect("table_settings", table.pk)


@login_required
@require_http_methods(["GET", "POST"])
def invite_accept_view(request: HttpRequest, token: str) -> HttpResponse:
    invite = Invite.objects.select_related("table", "created_by").filter(token=token).first()
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
def player_link(request: HttpRequest, pk: int) -> HttpResponse:
    """Link a player to an account at the table (or unlink), so their games follow them."""
    player = _get_player_for_user(request, pk)
    table = _get_table_for_owner(request, player.table_id)
    user_id = request.POST.get("user", "")
    accounts = {table.owner_id: table.owner}
    accounts.update({m.user_id: m.user for m in table.memberships.select_related("user")})
    if user_id == "":
        player.user = None
    elif user_id.isdigit() and int(user_id) in accounts:
        player.user = accounts[int(user_id)]
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


@login_required
@require_POST
def table_watch_link(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_owner(request, pk)
    _change_watch_link(request, table)
    return redirect("table_settings", table.pk)


@login_required
@require_POST
def game_watch_link(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    _get_table_for_owner(request, game.table_id)
    _change_watch_link(request, game)
    return redirect(reverse("game_share", args=[game.pk]))


def _change_watch_link(request: HttpRequest, obj: Game | Table) -> None:
    if request.POST.get("action") == "off":
        watch_link_off(obj)
        messages.success(request, _("The watch link is off: it no longer shows anything."))
    else:
        watch_link_replace(obj)
        messages.success(request, _("A new watch link is ready; any old one stopped working."))


@login_required
@require_GET
def game_share(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    return render(
        request,
        "games/game_share.html",
        {
            "game": game,
            "is_owner": game.table.owner_id == request.user.pk,
            "watch_url": _absolute(request, "watch_game", game.watch_token),
        },
    )


# --- Live scoreboards and watch links ---------------------------------------------------


def _etag(game_id: int, version: int) -> str:
    # The language too: a browser that switched must not keep the old words.
    return f'"g{game_id}v{version}-{get_language()}"'


def _not_modified(request: HttpRequest, etag: str) -> bool:
    sent = request.headers.get("If-None-Match", "")
    return etag in [t.strip().removeprefix("W/") for t in sent.split(",")]


def _live_response(
    request: HttpRequest, game_id: int, version: int, load, **context
) -> HttpResponse:
    """The scoreboard's poll: 304 with no rendering while nothing changed.

    ``context`` values that are functions are called only for a new answer.
    """
    etag = _etag(game_id, version)
    if _not_modified(request, etag):
        response = HttpResponseNotModified()
    else:
        board = scoreboard(load())
        context = {k: v() if callable(v) else v for k, v in context.items()}
        response = render(
            request, "games/scoreboard.html#poll", {"board": board, "game": board.game, **context}
        )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache, private"
    return response


# The polls' one query each: a game's version, where the asker may see it.
_VERSION_FOR_USER = Prepared(
    lambda game, user: Game.objects.filter(
        _user_may_see(user, owner="table__owner_id", table="table_id"), pk=game
    ).values_list("version")
)
_VERSION_BY_OWN_LINK = Prepared(
    lambda token: Game.objects.filter(watch_token=token).values_list("pk", "version")
)
_VERSION_BY_TABLE_LINK = Prepared(
    lambda token, game: Game.objects.filter(table__watch_token=token, pk=game).values_list(
        "version"
    )
)


def _found(row: tuple | None) -> tuple:
    if row is None:
        raise Http404("No such game.")
    return row


@login_required
@require_GET
def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    (version,) = _found(_VERSION_FOR_USER.first(game=pk, user=request.user.pk))
    return _live_response(
        request,
        pk,
        version,
        lambda: load_game(_games_for_user(request.user), pk),
        live_url=lambda: reverse("game_live", args=[pk]),
    )


@require_GET
def watch_game(request: HttpRequest, token: str) -> HttpResponse:
    games = _watched_by_own_link(token)
    game = get_object_or_404(games.values_list("pk", flat=True))
    exports = [reverse("watch_game_export", args=[token, fmt]) for fmt in ("json", "csv")]
    return _render_watch(
        request, load_game(games, game), reverse("watch_game_live", args=[token]), exports
    )


@require_GET
def watch_game_live(request: HttpRequest, token: str) -> HttpResponse:
    pk, version = _found(_VERSION_BY_OWN_LINK.first(token=token) if token else None)
    return _live_response(
        request,
        pk,
        version,
        lambda: load_game(_watched_by_own_link(token), pk),
        live_url=lambda: reverse("watch_game_live", args=[token]),
        readonly=True,
    )


@require_GET
def watch_table(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(Table.objects.filter(watch_token=token))
    games = table.games.prefetch_related("seats__player").order_by("-started_at", "-id")[:30]
    return render(
        request, "games/watch_table.html", {"table": table, "games": games, "token": token}
    )


@require_GET
def watch_table_game(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    games = Game.objects.filter(table__watch_token=token)
    get_object_or_404(games.values("pk"), pk=pk)
    live_url = reverse("watch_table_game_live", args=[token, pk])
    exports = [reverse("watch_table_game_export", args=[token, pk, fmt]) for fmt in ("json", "csv")]
    return _render_watch(request, load_game(games, pk), live_url, exports)


@require_GET
def watch_table_game_live(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    (version,) = _found(_VERSION_BY_TABLE_LINK.first(token=token, game=pk) if token else None)
    return _live_response(
        request,
        pk,
        version,
        lambda: load_game(Game.objects.filter(table__watch_token=token), pk),
        live_url=lambda: reverse("watch_table_game_live", args=[token, pk]),
        readonly=True,
    )


def _render_watch(
    request: HttpRequest, game: Game, live_url: str, exports: list[str]
) -> HttpResponse:
    board = scoreboard(game)
    response = render(
        request,
        "games/watch.html",
        {
            "board": board,
            "game": game,
            "live_url": live_url,
            "readonly": True,
            "export_json_url": exports[0],
            "export_csv_url": exports[1],
        },
    )
    response["Referrer-Policy"] = "no-referrer"  # keep the token out of other sites' logs
    return response


# --- The audit trail -----------------------------------------------------------------


@login_required
@require_GET
def game_changes(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    names = [seat.player.name for seat in game.seats.all()]
    changes = [
        {
            "change": change,
            "before": _describe(change.before, names),
            "after": _describe(change.after, names),
        }
        for change in game.changes.select_related("by").order_by("number", "at", "id")
    ]
    return render(request, "games/game_changes.html", {"game": game, "changes": changes})


def _describe(snapshot: dict | None, names: list[str]) -> str:
    """A recorded deal in words: "counts: Alice 17, Ben 20, Cara 6"."""
    if not snapshot:
        return "—"
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, snapshot["scores"], strict=True))
    return _("{mode}: {scores}").format(mode=MODE_NAMES[snapshot["mode"]], scores=scores)


# --- Exports --------------------------------------------------------------------------


def _download(games: QuerySet[Game], fmt: str, filename: str) -> StreamingHttpResponse:
    """Stream the history (JSON format 1, or CSV) as a file to save."""
    if fmt == "csv":
        response = StreamingHttpResponse(iter_csv(games), content_type="text/csv; charset=utf-8")
    else:
        response = StreamingHttpResponse(
            iter_json(games), content_type="application/json; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _slug(text: str) -> str:
    return slugify(text) or "scores"


def _game_filename(game: Game) -> str:
    return f"{_slug(game.table.name)}-{timezone.localdate(game.started_at)}-game-{game.pk}"


@login_required
@require_GET
def game_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    games = _games_for_user(request.user).filter(pk=pk)
    game = get_object_or_404(games.select_related("table"))
    return _download(games, fmt, _game_filename(game))


@login_required
@require_GET
def table_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    games = table.games.order_by("started_at", "id")
    return _download(games, fmt, f"{_slug(table.name)}-{timezone.localdate()}")


@login_required
@require_GET
def account_export(request: HttpRequest) -> HttpResponse:
    games = _games_for_user(request.user).order_by("table_id", "started_at", "id")
    name = f"scores-{_slug(request.user.get_username())}-{timezone.localdate()}"
    return _download(games, "json", name)


@require_GET
def watch_game_export(request: HttpRequest, token: str, fmt: str) -> HttpResponse:
    games = Game.objects.filter(watch_token=token) if token else Game.objects.none()
    game = get_object_or_404(games.select_related("table"))
    return _download(games, fmt, _game_filename(game))


@require_GET
def watch_table_game_export(request: HttpRequest, token: str, pk: int, fmt: str) -> HttpResponse:
    games = Game.objects.filter(table__watch_token=token, pk=pk) if token else Game.objects.none()
    game = get_object_or_404(games.select_related("table"))
    return _download(games, fmt, _game_filename(game))


# --- History, statistics, import, print ------------------------------------------------


HISTORY_PAGE_SIZE = 20


@login_required
@require_GET
def table_history(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    search = request.GET.get("player", "").strip()[:40]
    games = games_with_player(table.games.all(), search).order_by("-started_at", "-id")
    page = Paginator(games, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = page.object_list.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("number"))
    )
    return render(
        request,
        "games/table_history.html",
        {"table": table, "page": page, "games": rows, "search": search},
    )


@login_required
@require_POST
def game_note(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    form = GameNoteForm(request.POST, instance=game)
    if form.is_valid():
        form.save()
        messages.success(request, _("Note saved."))
    else:
        messages.error(request, _("The note is too long: at most 2,000 characters."))
    return redirect(game)


@login_required
@require_GET
def table_stats(request: HttpRequest, pk: int) -> HttpResponse:
    table = _get_table_for_user(request, pk)
    games = table.games.all()
    return _render_stats(request, games, {"table": table})


@login_required
@require_GET
def my_stats(request: HttpRequest) -> HttpResponse:
    """A person's statistics across every table where a player is linked to them."""
    games = _games_for_user(request.user).filter(seats__player__user=request.user).distinct()
    return _render_stats(request, games, {"mine": True}, by_account=True)


def _render_stats(request: HttpRequest, games, context: dict, *, by_account: bool = False):
    form = StatsFilterForm(request.GET or None, rulesets=ruleset_names(games))
    if form.is_bound and not form.is_valid():
        return render(
            request, "games/stats.html", {**context, "form": form, "rows": []}, status=422
        )
    games = form.filters().apply(games)
    rows = player_stats(games, by_account=by_account)
    if by_account:
        rows = [row for row in rows if row.key == request.user.pk]
    return render(request, "games/stats.html", {**context, "form": form, "rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def table_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload a history file, see what it holds, then import it all or nothing."""
    table = _get_table_for_user(request, pk)
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = problem = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["parsed"]
        try:
            if request.POST.get("confirm"):
                games = import_history(data, owner=table.owner, table=table)
                messages.success(
                    request,
                    ngettext(
                        "Imported {count} game into {name}.",
                        "Imported {count} games into {name}.",
                        len(games),
                    ).format(count=len(games), name=table.name),
                )
                return redirect("table_history", table.pk)
            preview = _import_preview(table, parse_history(data))
        except ImportRefused as refusal:
            problem = _("Nothing was imported. {reason}").format(reason=refusal.message)
    status = 422 if (form.errors or problem) else 200
    return render(
        request,
        "games/table_import.html",
        {
            "table": table,
            "form": form,
            "preview": preview,
            "problem": problem,
            "text": form.cleaned_data.get("text", "") if form.is_bound and form.is_valid() else "",
        },
        status=status,
    )


def _import_preview(table: Table, parsed: list) -> dict:
    known = set(table.players.values_list("name", flat=True))
    new_players = sorted({n for game in parsed for n in game.names if n not in known})
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
            }
            for game in parsed
        ],
        "deals": sum(len(game.entries) for game in parsed),
        "new_players": new_players,
    }


@login_required
@require_GET
def game_print(request: HttpRequest, pk: int) -> HttpResponse:
    game = _get_game_for_user(request, pk)
    board = scoreboard(game)
    return render(request, "games/game_print.html", {"game": game, "board": board})

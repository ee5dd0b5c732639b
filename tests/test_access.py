"""Every URL, for every one of the cast: owner, member, outsider, anonymous, watcher.

A URL added without a line here fails ``test_every_url_is_in_the_matrix``.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import URLPattern, get_resolver, reverse

from games.models import (
    Deal,
    DealChange,
    Evening,
    Game,
    Invite,
    Membership,
    Player,
    Ruleset,
    Season,
    Seat,
    Table,
)
from games.services.clubnights import evening_start
from games.services.deals import deal_record
from games.services.sharing import watch_link_replace
from tests.test_services import DEAL_1

MODELS = (
    Table,
    Player,
    Ruleset,
    Game,
    Seat,
    Deal,
    DealChange,
    Membership,
    Invite,
    Season,
    Evening,
)


def snapshot() -> list:
    """Every row the app writes, as it stands."""
    return [list(model.objects.order_by("pk").values()) for model in MODELS]


OK = "ok"  # the answer POSTED names (GET: 200)
LOGIN = "login"  # redirect to sign in
DENIED = 403
HIDDEN = 404

PUBLIC = {
    "home",  # the first page for someone not signed in (tests/test_guests.py)
    "start",
    "keep",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "login",
    "logout",
    "signup",
    "health",
    "manifest",
    "service_worker",
    "offline",
    "language",
}
OWNER_ONLY = {
    OK: ("owner",),
    DENIED: ("member",),
    HIDDEN: ("outsider",),
    LOGIN: ("anon", "watcher"),
}
MEMBERS = {OK: ("owner", "member"), HIDDEN: ("outsider",), LOGIN: ("anon", "watcher")}
SIGNED_IN = {OK: ("owner", "member", "outsider"), LOGIN: ("anon", "watcher")}
WATCHERS = {OK: ("owner", "member", "outsider", "anon", "watcher")}

# name: (methods, URL arguments, who may)
MATRIX = {
    "table_new": (["get", "post"], lambda w: [], SIGNED_IN),
    "table_detail": (["get"], lambda w: [w.table.pk], MEMBERS),
    "player_add": (["post"], lambda w: [w.table.pk], MEMBERS),
    "player_rename": (["get", "post"], lambda w: [w.player.pk], MEMBERS),
    "player_link": (["post"], lambda w: [w.player.pk], OWNER_ONLY),
    "player_detail": (["get"], lambda w: [w.player.pk], MEMBERS),
    "season_new": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "season_delete": (["post"], lambda w: [w.table.pk, w.season.pk], OWNER_ONLY),
    "table_default_ruleset": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "ruleset_new": (["get", "post"], lambda w: [w.table.pk], OWNER_ONLY),
    "ruleset_preview": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "ruleset_edit": (["get", "post"], lambda w: [w.table.pk, w.ruleset.pk], OWNER_ONLY),
    "table_settings": (["get", "post"], lambda w: [w.table.pk], OWNER_ONLY),
    "table_delete": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "member_new": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "member_remove": (["post"], lambda w: [w.table.pk, w.membership.pk], OWNER_ONLY),
    "invite_new": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "table_watch_link": (["post"], lambda w: [w.table.pk], OWNER_ONLY),
    "invite_accept": (["get"], lambda w: [w.invite.token], SIGNED_IN),
    "game_new": (["get", "post"], lambda w: [w.table.pk], MEMBERS),
    "game_detail": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_live": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_share": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_watch_link": (["post"], lambda w: [w.game.pk], OWNER_ONLY),
    "game_changes": (["get"], lambda w: [w.game.pk], MEMBERS),
    "game_delete": (["get", "post"], lambda w: [w.game.pk], OWNER_ONLY),
    "game_rematch": (["post"], lambda w: [w.game.pk], MEMBERS),
    "deal_new": (["post"], lambda w: [w.game.pk], MEMBERS),
    "deal_queued": (["post"], lambda w: [w.game.pk], MEMBERS),
    "deal_edit": (["get", "post"], lambda w: [w.deal.pk], MEMBERS),
    "deal_delete": (["get", "post"], lambda w: [w.deal.pk], MEMBERS),
    "watch_game": (["get"], lambda w: [w.game.watch_token], WATCHERS),
    "watch_game_live": (["get"], lambda w: [w.game.watch_token], WATCHERS),
    "watch_table": (["get"], lambda w: [w.table.watch_token], WATCHERS),
    "watch_table_game": (["get"], lambda w: [w.table.watch_token, w.game.pk], WATCHERS),
    "watch_table_game_live": (["get"], lambda w: [w.table.watch_token, w.game.pk], WATCHERS),
    "evening_new": (["get", "post"], lambda w: [w.table.pk], MEMBERS),
    "evening_detail": (["get"], lambda w: [w.evening.pk], MEMBERS),
    "evening_live": (["get"], lambda w: [w.evening.pk], MEMBERS),
    "evening_draw": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_round": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_present": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_watch_link": (["post"], lambda w: [w.evening.pk], MEMBERS),
    "evening_delete": (["post"], lambda w: [w.evening.pk], OWNER_ONLY),
    "watch_evening": (["get"], lambda w: [w.evening.watch_token], WATCHERS),
    "watch_evening_live": (["get"], lambda w: [w.evening.watch_token], WATCHERS),
    "account_export": (["get"], lambda w: [], SIGNED_IN),
    "account": (["get", "post"], lambda w: [], SIGNED_IN),
    "account_delete": (["get", "post"], lambda w: [], SIGNED_IN),
    "password_change": (["get", "post"], lambda w: [], SIGNED_IN),
    "my_stats": (["get"], lambda w: [], SIGNED_IN),
    "table_history": (["get"], lambda w: [w.table.pk], MEMBERS),
    "table_stats": (["get"], lambda w: [w.table.pk], MEMBERS),
    "table_import": (["get", "post"], lambda w: [w.table.pk], MEMBERS),
    "game_note": (["post"], lambda w: [w.game.pk], MEMBERS),
    "game_print": (["get"], lambda w: [w.game.pk], MEMBERS),
    "table_export": (["get"], lambda w: [w.table.pk, "json"], MEMBERS),
    "game_export": (["get"], lambda w: [w.game.pk, "csv"], MEMBERS),
    "watch_game_export": (["get"], lambda w: [w.game.watch_token, "csv"], WATCHERS),
    "watch_table_game_export": (
        ["get"],
        lambda w: [w.table.watch_token, w.game.pk, "json"],
        WATCHERS,
    ),
}


# What an allowed POST of the matrix's form ({"name": "Zed", "mode": "points"})
# answers: a status, or a redirect and the page it goes to.
POSTED = {
    "season_new": 422,  # no name or dates
    "season_delete": (302, lambda w: w.table.get_absolute_url()),
    "account": (302, lambda w: reverse("account")),  # no email: none kept
    "account_delete": 422,  # the username not typed
    "password_change": 200,  # the form again, saying what is missing
    "deal_delete": (302, lambda w: w.game.get_absolute_url()),
    "deal_edit": 422,  # the points are missing
    "deal_new": 422,
    "deal_queued": 422,
    "evening_new": 422,  # nobody is here
    "evening_delete": (302, lambda w: w.table.get_absolute_url()),
    "evening_draw": (302, lambda w: w.evening.get_absolute_url()),
    "evening_round": 400,  # which round was not sent
    "evening_present": (302, lambda w: w.evening.get_absolute_url()),  # too few: said so
    "evening_watch_link": (302, lambda w: w.evening.get_absolute_url() + "#big-screen"),
    "game_new": 422,  # nobody is seated
    "game_delete": (302, lambda w: w.table.get_absolute_url()),
    "game_note": (302, lambda w: w.game.get_absolute_url()),
    "game_rematch": (302, lambda w: w.game.get_absolute_url()),  # not finished yet
    "game_watch_link": (302, lambda w: reverse("game_share", args=[w.game.pk])),
    "invite_new": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
    "member_new": 422,  # no username
    "member_remove": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
    "player_add": (302, lambda w: w.table.get_absolute_url()),
    "player_link": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
    "player_rename": (302, lambda w: w.table.get_absolute_url()),
    "ruleset_edit": 422,
    "ruleset_new": 422,
    "ruleset_preview": 200,
    "table_default_ruleset": (302, lambda w: w.table.get_absolute_url()),
    "table_delete": (302, lambda w: reverse("table_settings", args=[w.table.pk])),  # no name
    "table_import": 422,  # no file
    "table_new": 200,  # no name: the form again
    "table_settings": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
    "table_watch_link": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
}


def url_names(patterns) -> set[str]:
    """Every URL's name, groups (``include``) looked into."""
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLPattern):
            names.add(pattern.name)
        elif pattern.namespace != "admin":  # the admin's are its own (and signed in as staff)
            names |= url_names(pattern.url_patterns)
    return names


def test_every_post_has_its_allowed_answer():
    posts = {name for name, (methods, _, _) in MATRIX.items() if "post" in methods}
    assert posts == set(POSTED)


def test_every_url_is_in_the_matrix():
    names = url_names(get_resolver().url_patterns) - {None}
    # The same names Django finds (the admin's are in their own namespace).
    assert names == {name for name in get_resolver().reverse_dict if isinstance(name, str)}
    assert names - PUBLIC == set(MATRIX)


class World:
    def __init__(self, owner, member, table, players, game):
        self.owner, self.member, self.table, self.player, self.game = (
            owner,
            member,
            table,
            players[0],
            game,
        )
        self.ruleset = Ruleset.objects.create(table=table, name="House", moon="others")
        self.membership = table.memberships.get()
        self.deal = deal_record(game=game, entry=DEAL_1, by=owner)
        self.invite = Invite.objects.create(table=table, created_by=owner)
        self.season = Season.objects.create(
            table=table, name="Autumn", starts=date(2026, 9, 1), ends=date(2026, 11, 30)
        )
        watch_link_replace(game)
        watch_link_replace(table)
        self.evening = evening_start(
            table=table,
            name="Friday",
            day=date(2026, 12, 4),
            scoring="places",
            ruleset=Ruleset.objects.get(table=None, name="Black Maria"),
            players=players,
        )
        watch_link_replace(self.evening)


@pytest.fixture
def world(owner, member, table, players, moon_game):
    return World(owner, member, table, players, moon_game)


def outcome(response, name: str, method: str, world) -> str | int:
    """What the cast member got: 403, 404, sent to sign in, or exactly the allowed answer."""
    if response.status_code in (403, 404):
        return response.status_code
    if response.status_code == 302 and response.url.startswith(reverse("login")):
        return LOGIN
    wanted = POSTED[name] if method == "post" else 200
    if isinstance(wanted, tuple):
        assert (response.status_code, response.url) == (wanted[0], wanted[1](world)), name
    else:
        assert response.status_code == wanted, (name, response.status_code)
    return OK


CASES = [
    (name, method, role, expected)
    for name, (methods, _, rule) in MATRIX.items()
    for method in methods
    for expected, roles in rule.items()
    for role in roles
]


@pytest.mark.parametrize(
    ("name", "method", "role", "expected"),
    CASES,
    ids=[f"{n}-{m}-{r}" for n, m, r, _ in CASES],
)
def test_access(client, outsider, world, name, method, role, expected):
    users = {"owner": world.owner, "member": world.member, "outsider": outsider}
    if role in users:
        client.force_login(users[role])
    url = reverse(name, args=MATRIX[name][1](world))
    before = snapshot()
    response = getattr(client, method)(
        url, {"name": "Zed", "mode": "points"} if method == "post" else {}
    )
    assert outcome(response, name, method, world) == expected
    if expected != OK or method == "get":
        # Refused, or only looked at: nothing was written.
        assert snapshot() == before, (name, method, role)


@pytest.mark.parametrize("name", ["watch_game", "watch_game_live", "watch_table"])
def test_a_wrong_or_old_watch_token_shows_nothing(client, world, name):
    assert client.get(reverse(name, args=["not-a-token"])).status_code == 404
    token = world.game.watch_token if "game" in name else world.table.watch_token
    watch_link_replace(world.game if "game" in name else world.table)
    assert client.get(reverse(name, args=[token])).status_code == 404


def test_a_game_watch_token_does_not_open_its_table(client, world):
    assert client.get(reverse("watch_table", args=[world.game.watch_token])).status_code == 404
    url = reverse("watch_table_game", args=[world.game.watch_token, world.game.pk])
    assert client.get(url).status_code == 404

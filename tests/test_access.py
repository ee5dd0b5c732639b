"""Every URL, for every one of the cast: owner, member, outsider, anonymous, watcher.

A URL added without a line here fails ``test_every_url_is_in_the_matrix``.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import URLPattern, get_resolver, reverse

from games.access import owns
from games.services.sharing import watch_link_replace
from tests.factories import LOGIN, MATRIX, OK, PUBLIC, World, database_snapshot

# What an allowed POST of the matrix's form ({"name": "Zed", "mode": "points"})
# answers: a status, or a redirect and the page it goes to.
SETTINGS = (302, lambda w: reverse("table_settings", args=[w.table.pk]))
POSTED = {
    "season_new": 422,  # no name or dates
    "season_delete": SETTINGS,
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
    # A table's players are looked after on its settings page by its owner, on its page by a member.
    "player_add": {"owner": SETTINGS, "member": (302, lambda w: w.table.get_absolute_url())},
    "player_link": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
    "player_rename": {"owner": SETTINGS, "member": (302, lambda w: w.table.get_absolute_url())},
    "ruleset_edit": 422,
    "ruleset_new": 422,
    "ruleset_preview": 200,
    "table_default_ruleset": SETTINGS,
    "table_chances": (302, lambda w: reverse("table_settings", args=[w.table.pk])),
    "table_delete": (302, lambda w: reverse("table_settings", args=[w.table.pk])),  # no name
    "table_import": 422,  # no file
    "table_new": 200,  # no name: the form again
    "game_new_first": 422,  # no players: the form again
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


@pytest.fixture
def world(owner, member, table, players, moon_game):
    return World(owner, member, table, players, moon_game)


def outcome(response, name: str, method: str, world, role: str) -> str | int:
    """What the cast member got: 403, 404, sent to sign in, or exactly the allowed answer."""
    if response.status_code in (403, 404):
        return response.status_code
    if response.status_code == 302 and response.url.startswith(reverse("login")):
        return LOGIN
    wanted = POSTED[name] if method == "post" else 200
    if isinstance(wanted, dict):
        wanted = wanted[role]
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
    before = database_snapshot()
    response = getattr(client, method)(
        url, {"name": "Zed", "mode": "points"} if method == "post" else {}
    )
    assert outcome(response, name, method, world, role) == expected
    if expected != OK or method == "get":
        # Refused, or only looked at: nothing was written.
        assert database_snapshot() == before, (name, method, role)


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


def test_what_only_the_owner_may_do_shows_only_to_the_owner(client, world, outsider):
    """The owner's links and buttons follow games.access.owns, as the views do: a member
    keeps scores but sees no settings, no deleting; the views refuse them anyway (403)."""
    pages = {
        world.table.get_absolute_url(): [reverse("table_settings", args=[world.table.pk])],
        world.game.get_absolute_url(): [reverse("game_delete", args=[world.game.pk])],
        world.evening.get_absolute_url(): [reverse("evening_delete", args=[world.evening.pk])],
    }
    for person, owner in ((world.owner, True), (world.member, False)):
        assert owns(person, world.table) is owner
        client.force_login(person)
        for url, links in pages.items():
            page = client.get(url).content.decode()
            for link in links:
                assert (f'"{link}"' in page) is owner, (person, url, link)
    assert not owns(outsider, world.table)
    assert not owns(AnonymousUser(), world.table)

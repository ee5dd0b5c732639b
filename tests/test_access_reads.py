"""The reads behind the busiest requests (a member's poll, a deal
save, a watch link's poll) go by the one access rule (games.access.user_may_see):
the owner and members see a table's games, nobody else does, and a game that is
not there is 404 like one that is not theirs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.http import Http404

from games.access import game_version_for_user, get_game_for_user, version_by_own_link
from games.models import Membership, Table
from games.services.deals import deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from tests.factories import DEAL_1, builtin


@pytest.fixture
def cast(owner, member, outsider, moon_game, players):
    """The owner's game with a deal; another table's game the member plays at too."""
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    elsewhere = Table.objects.create(name="Elsewhere", owner=outsider, last_entry_mode="cards")
    Membership.objects.create(table=elsewhere, user=member)
    others = [elsewhere.players.create(name=n) for n in ("Dan", "Eve", "Finn")]
    other_game = game_start(table=elsewhere, players=others, ruleset=builtin("Hearts only"))
    loner = get_user_model().objects.create_user("lone", password="a-long-pass-phrase")
    people = {"owner": owner, "member": member, "outsider": outsider, "loner": loner}
    return people, {"mine": moon_game.pk, "elsewhere": other_game.pk, "gone": other_game.pk + 99}


SEES = {
    ("owner", "mine"),
    ("member", "mine"),
    ("member", "elsewhere"),
    ("outsider", "elsewhere"),
}


def asked_by(user):
    return SimpleNamespace(user=user)


@pytest.mark.parametrize(
    "read",
    [game_version_for_user, get_game_for_user],
    ids=["poll", "game page and save"],
)
def test_each_busy_read_sees_exactly_what_the_access_rule_lets_through(cast, read):
    people, games = cast
    seen = set()
    for who, user in people.items():
        for which, pk in games.items():
            try:
                read(asked_by(user), pk)
            except Http404:
                continue
            seen.add((who, which))
    assert seen == SEES
    with pytest.raises(Http404):
        read(asked_by(people["owner"]), 2**63)  # past any row id: not a database error


def test_the_poll_says_the_versions_it_goes_by(cast, moon_game):
    people, _ = cast
    moon_game.refresh_from_db()
    table = moon_game.table
    assert game_version_for_user(asked_by(people["member"]), moon_game.pk) == (
        f"{moon_game.version}.{table.chances_version}"
    )


def test_a_watch_link_s_poll_finds_its_game_and_nothing_else(moon_game, table):
    token = watch_link_replace(moon_game)
    watch_link_replace(table)  # a table's link is not a game's
    moon_game.refresh_from_db()
    assert version_by_own_link(token) == (moon_game.pk, str(moon_game.version))
    for asked in (table.watch_token, "not-a-link", token.upper(), ""):
        with pytest.raises(Http404):
            version_by_own_link(asked)

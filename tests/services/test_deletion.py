"""Deleting a table, or an account, with real games in it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db.models import RestrictedError
from django.test import Client
from django.urls import reverse

from games.models import Deal, DealChange, Game, Invite, Membership, Player, Ruleset, Seat, Table
from games.services.deals import deal_edit, deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from tests.factories import DEAL_1, DEAL_2, builtin


@pytest.fixture
def full_table(table, players, owner, member, moon_game):
    """Two games with deals, an edit (audit rows), a member, an invite, watch links, a ruleset."""
    first = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    deal_record(game=moon_game, entry=DEAL_2, by=member)
    deal_edit(deal=first, entry=DEAL_1, by=member)
    second = game_start(table=table, players=players[::-1], ruleset=builtin("Hearts only"))
    deal_record(game=second, entry=DEAL_1, by=member)
    Invite.objects.create(table=table, created_by=owner)
    Ruleset.objects.create(table=table, name="House", moon="others")
    watch_link_replace(table)
    watch_link_replace(moon_game)
    return table


@pytest.fixture
def other_table(outsider, member):
    """Somebody else's table, where the member also plays: it must survive."""
    table = Table.objects.create(name="Elsewhere", owner=outsider)
    Membership.objects.create(table=table, user=member)
    players = [Player.objects.create(table=table, name=n) for n in ("Dan", "Eve", "Finn")]
    game = game_start(table=table, players=players, ruleset=builtin("Black Maria"))
    deal_record(game=game, entry=DEAL_1, by=member)
    return table


def counts() -> dict[str, int]:
    models = (Table, Player, Game, Seat, Deal, DealChange, Membership, Invite, Ruleset)
    return {m.__name__: m.objects.count() for m in models}


def test_the_owner_deletes_a_table_with_all_its_games_after_typing_its_name(
    client, owner, full_table, other_table
):
    client.force_login(owner)
    url = reverse("table_delete", args=[full_table.pk])
    before = counts()
    response = client.post(url, {"confirm": "Friday"})  # not its name
    assert response.status_code == 302 and counts() == before
    response = client.post(url, {"confirm": " Friday club "})
    assert response.status_code == 302 and response.url == reverse("home")
    assert not Table.objects.filter(pk=full_table.pk).exists()
    assert not Game.objects.filter(table_id=full_table.pk).exists()
    assert not Player.objects.filter(table_id=full_table.pk).exists()
    assert not Deal.objects.filter(game__table_id=full_table.pk).exists()
    assert not DealChange.objects.filter(game__table_id=full_table.pk).exists()
    assert not Ruleset.objects.filter(table_id=full_table.pk).exists()
    # The other table, its game and deal are untouched; the built-in rulesets too.
    assert Game.objects.get().table == other_table
    assert Deal.objects.count() == 1 and Ruleset.objects.filter(table=None).count() == 6


def test_a_member_is_told_once_that_the_owner_deleted_the_table(client, owner, member, full_table):
    """It was a bare 404: the table's link, and the home page, now say what happened."""
    from django.test import Client

    url = full_table.get_absolute_url()
    client.force_login(owner)
    client.post(reverse("table_delete", args=[full_table.pk]), {"confirm": "Friday club"})
    phone = Client()
    phone.force_login(member)
    said = "ann deleted Friday club, a table you kept scores at, on "
    gone = phone.get(url)
    assert gone.status_code == 410 and said in gone.content.decode()
    assert phone.get(url).status_code == 404  # once
    assert said not in phone.get(reverse("home")).content.decode()
    assert client.get(url).status_code == 404  # the owner knows


def test_a_member_hears_of_a_table_gone_with_its_owner_s_account_on_the_home_page(
    owner, member, full_table, other_table
):
    from django.test import Client

    owner.delete()
    phone = Client()
    phone.force_login(member)
    home = phone.get(reverse("home")).content.decode()
    assert "ann deleted Friday club, a table you kept scores at, on " in home
    assert "Friday club" not in phone.get(reverse("home")).content.decode()  # once
    assert phone.get(reverse("table_detail", args=[full_table.pk])).status_code == 404


def test_a_member_cannot_delete_the_table(client, member, full_table):
    client.force_login(member)
    before = counts()
    url = reverse("table_delete", args=[full_table.pk])
    assert client.post(url, {"confirm": "Friday club"}).status_code == 403
    assert counts() == before


def test_a_player_still_seated_cannot_be_deleted_alone(full_table):
    with pytest.raises(RestrictedError):
        full_table.players.first().delete()


def test_deleting_an_account_deletes_its_tables_and_keeps_the_rest(
    owner, member, full_table, other_table
):
    owner.delete()
    assert list(Table.objects.all()) == [other_table]
    assert Game.objects.count() == 1 and Deal.objects.count() == 1


def test_deleting_a_member_keeps_the_tables_and_the_deals_they_entered(
    member, full_table, other_table
):
    before = counts()
    member.delete()
    after = counts()
    assert after["Membership"] == before["Membership"] - 2
    assert {k: v for k, v in after.items() if k != "Membership"} == {
        k: v for k, v in before.items() if k != "Membership"
    }
    # Their deals stand, no longer credited to anyone.
    assert (
        not Deal.objects.filter(entered_by__isnull=False).exclude(game__table=full_table).exists()
    )


def test_a_signed_in_phone_of_a_deleted_account_is_signed_out(owner, full_table):
    phone = Client()
    phone.force_login(owner)
    get_user_model().objects.filter(pk=owner.pk).delete()
    assert not phone.get(reverse("home")).context["user"].is_authenticated
    assert phone.get(reverse("table_new")).status_code == 302

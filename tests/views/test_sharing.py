"""Members, invites, watch links, the live scoreboard and the audit trail."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.models import DealChange, Invite, Membership
from games.services.deals import deal_delete, deal_edit, deal_record
from games.services.sharing import watch_link_replace
from tests.factories import DEAL_1, DEAL_2


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def login(client, user):
    client.force_login(user)
    return client


# --- Members -------------------------------------------------------------------------


def test_the_owner_adds_a_member_by_username(client, owner, outsider, table):
    login(client, owner)
    response = client.post(reverse("member_new", args=[table.pk]), {"username": "OLAF"})
    assert response.status_code == 302
    assert Membership.objects.filter(table=table, user=outsider).exists()
    response = client.post(reverse("member_new", args=[table.pk]), {"username": "nobody"})
    assert "Nobody here has the username nobody." in text(response)


def test_a_member_enters_deals_and_starts_games(client, member, moon_game):
    login(client, member)
    fields = {"mode": "points", "number": "1", "points-0": "17", "points-1": "13", "points-2": "13"}
    assert client.post(reverse("deal_new", args=[moon_game.pk]), fields).status_code == 302
    deal = moon_game.deals.get()
    assert deal.entered_by == member
    assert client.get(reverse("game_new", args=[moon_game.table_id])).status_code == 200
    assert client.get(reverse("deal_edit", args=[deal.pk])).status_code == 200


def test_a_member_may_not_manage_the_table(client, member, table, players):
    login(client, member)
    for url in (
        reverse("table_settings", args=[table.pk]),
        reverse("ruleset_new", args=[table.pk]),
    ):
        assert client.get(url).status_code == 403, url
    assert (
        client.post(reverse("table_delete", args=[table.pk]), {"confirm": table.name}).status_code
        == 403
    )
    assert (
        client.post(reverse("member_new", args=[table.pk]), {"username": "mo"}).status_code == 403
    )
    table.refresh_from_db()


def test_an_invite_link_works_once(client, owner, outsider, member, table):
    invite = Invite.objects.create(table=table, created_by=owner)
    url = reverse("invite_accept", args=[invite.token])
    login(client, outsider)
    assert f"Join {table.name}?" in text(client.get(url))
    assert client.post(url).status_code == 302
    assert Membership.objects.filter(table=table, user=outsider).exists()
    Membership.objects.filter(user=outsider).delete()
    assert client.get(url).status_code == 404
    client.post(url)
    assert not Membership.objects.filter(table=table, user=outsider).exists()


def test_an_expired_invite_is_refused(client, owner, outsider, table):
    invite = Invite.objects.create(
        table=table, created_by=owner, expires_at=timezone.now() - timedelta(minutes=1)
    )
    login(client, outsider)
    client.post(reverse("invite_accept", args=[invite.token]))
    assert not Membership.objects.filter(user=outsider).exists()


def test_invite_tokens_are_long_and_random(owner, table):
    tokens = {Invite.objects.create(table=table, created_by=owner).token for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(t) >= 32 for t in tokens)  # 24 random bytes: 192 bits


def test_a_player_is_linked_to_a_members_account(client, owner, member, players):
    login(client, owner)
    client.post(reverse("player_link", args=[players[1].pk]), {"user": member.pk})
    players[1].refresh_from_db()
    assert players[1].user == member
    response = client.post(reverse("player_link", args=[players[2].pk]), {"user": member.pk})
    assert response.status_code == 302
    players[2].refresh_from_db()
    assert players[2].user is None  # one player per account at a table


# --- Watch links --------------------------------------------------------------------


def test_a_watch_link_shows_the_game_and_nothing_to_change(client, moon_game, owner):
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    token = watch_link_replace(moon_game)
    page = text(client.get(reverse("watch_game", args=[token])))
    assert '<span class="points">17</span>' in page
    # The only form is the language switch, which every page has.
    page, footer = page.split('<footer class="footer">')
    assert 'action="/language/"' in footer
    for forbidden in ("Edit", "csrfmiddlewaretoken", "Rematch", "Save deal", "by ann", "Sign out"):
        assert forbidden not in page, forbidden


def test_the_owner_turns_a_watch_link_off_or_replaces_it(client, owner, moon_game):
    login(client, owner)
    client.post(reverse("game_watch_link", args=[moon_game.pk]), {"action": "new"})
    moon_game.refresh_from_db()
    first = moon_game.watch_token
    assert client.get(reverse("watch_game", args=[first])).status_code == 200
    client.post(reverse("game_watch_link", args=[moon_game.pk]), {"action": "new"})
    moon_game.refresh_from_db()
    assert client.get(reverse("watch_game", args=[first])).status_code == 404
    second = moon_game.watch_token
    client.post(reverse("game_watch_link", args=[moon_game.pk]), {"action": "off"})
    assert client.get(reverse("watch_game", args=[second])).status_code == 404


def test_the_first_watch_link_says_it_is_ready_and_a_new_one_that_the_old_one_stopped(
    client, owner, moon_game
):
    login(client, owner)
    url = reverse("game_watch_link", args=[moon_game.pk])
    first = text(client.post(url, {"action": "new"}, follow=True))
    assert "The watch link is ready" in first and "stopped working" not in first
    again = text(client.post(url, {"action": "new"}, follow=True))
    assert "the old one stopped working" in again
    # Shown as a QR code drawn on the server, with the link to copy or send.
    assert '<svg role="img" aria-label="QR code of the watch link"' in again
    assert 'data-copy="watch-url"' in again and 'data-share="watch-url"' in again


def test_an_invite_link_is_shown_as_a_qr_code_too(client, owner, table):
    login(client, owner)
    client.post(reverse("invite_new", args=[table.pk]))
    page = text(client.get(reverse("table_settings", args=[table.pk])))
    assert '<svg role="img" aria-label="QR code of the invite link"' in page
    assert 'id="invite-1"' in page and 'data-copy="invite-1"' in page


def test_a_table_watch_link_shows_its_games_only(client, owner, moon_game, table):
    from games.models import Player, Table
    from games.services.games import game_start
    from tests.factories import builtin

    other = Table.objects.create(name="Other", owner=owner)
    strangers = [Player.objects.create(table=other, name=n) for n in ("X", "Y", "Z")]
    other_game = game_start(table=other, players=strangers, ruleset=builtin("Black Maria"))
    token = watch_link_replace(table)
    page = text(client.get(reverse("watch_table", args=[token])))
    assert reverse("watch_table_game", args=[token, moon_game.pk]) in page
    assert "Other" not in page
    assert client.get(reverse("watch_table_game", args=[token, moon_game.pk])).status_code == 200
    assert client.get(reverse("watch_table_game", args=[token, other_game.pk])).status_code == 404
    assert client.get(reverse("watch_game", args=[token])).status_code == 404


# --- The live scoreboard ----------------------------------------------------------------


def test_an_unchanged_poll_is_a_204_with_one_query_and_no_template(client, moon_game, owner):
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    token = watch_link_replace(moon_game)
    url = reverse("watch_game_live", args=[token])
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 204
    assert again.content == b""
    assert not hasattr(again, "templates") or not again.templates
    assert len(queries.captured_queries) <= 1


def test_a_poll_after_a_change_sends_the_new_scores(client, moon_game, owner):
    token = watch_link_replace(moon_game)
    url = reverse("watch_game_live", args=[token])
    etag = client.get(url)["ETag"]
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    page = text(response)
    assert '<span class="points">17</span>' in page
    assert 'id="history" aria-labelledby="history-h" data-plain hx-swap-oob="true"' in page


def test_a_members_poll_also_answers_204(client, member, moon_game):
    login(client, member)
    url = reverse("game_live", args=[moon_game.pk])
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 204


def test_a_finished_game_poll_removes_the_entry_form(client, member, moon_game, owner):
    login(client, member)
    url = reverse("game_live", args=[moon_game.pk])
    for _ in range(3):
        deal_record(game=moon_game, entry=engine.PointsEntry((0, 0, 43)), by=owner)
    moon_game.refresh_from_db()
    assert moon_game.is_finished
    assert '<section id="entry" hx-swap-oob="true"></section>' in text(client.get(url))


# --- The audit trail -------------------------------------------------------------------------


def test_every_record_edit_and_delete_is_kept(client, owner, member, moon_game):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    deal_record(game=moon_game, entry=DEAL_2, by=member)
    deal_edit(deal=deal, entry=engine.PointsEntry((13, 17, 13)), by=member)
    deal_delete(deal=moon_game.deals.get(number=2), by=owner)
    changes = list(
        DealChange.objects.order_by("id").values_list("number", "action", "by__username")
    )
    assert changes == [
        (1, "recorded", "ann"),
        (2, "recorded", "mo"),
        (1, "edited", "mo"),
        (2, "deleted", "ann"),
    ]
    edit = DealChange.objects.get(action="edited")
    assert edit.before["scores"] == [17, 20, 6]
    assert edit.after["scores"] == [13, 17, 13]
    page = text(login(client, member).get(reverse("game_changes", args=[moon_game.pk])))
    assert "Deal 1 edited" in page
    assert "Before: counts: Alice 17, Ben 20, Cara 6" in page
    assert "After: points: Alice 13, Ben 17, Cara 13" in page
    assert "Deal 2 deleted" in page


def test_a_refused_change_leaves_no_trace(moon_game, owner):
    from games.services.errors import Refused

    with pytest.raises(Refused):
        deal_record(game=moon_game, entry=engine.PointsEntry((1, 1, 1)), by=owner)
    assert not DealChange.objects.exists()

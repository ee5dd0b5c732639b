"""Entering, editing and deleting deals on the pages."""

from __future__ import annotations

import json
import re

from django.urls import reverse

from games import engine
from games.models import Player, Ruleset
from games.services.deals import deal_edit, deal_record
from games.services.games import game_start
from tests.factories import DEAL_1, DEAL_2, DEAL_3, HX, game_snapshot, text


def test_saving_with_htmx_returns_a_fresh_form_and_tells_the_scoreboard(client_owner, moon_game):
    fields = {"mode": "points", "number": "1", "points-0": "17", "points-1": "13", "points-2": "13"}
    response = client_owner.post(reverse("deal_new", args=[moon_game.pk]), fields, **HX)
    assert response.status_code == 200
    assert json.loads(response["HX-Trigger-After-Settle"]) == {"dealRecorded": {}}
    # The totals are scrolled to in the swap's own frame, not a frame later.
    assert json.loads(response["HX-Trigger-After-Swap"]) == {"dealSaved": {}}
    assert 'id="live"' in text(response) and 'hx-swap-oob="true"' in text(response)
    page = text(response)
    assert '<section id="entry"' in page
    assert "Enter deal 2" in page
    assert "HX-Request" in response["Vary"]  # without htmx, the whole page
    assert 'name="points-0" value=""' in page
    assert "history" not in page
    # The new totals carry no version: the poll the event starts brings the history too.
    live = re.search(r'<div id="live"[^>]*>', page)[0]
    assert "hx-headers" not in live
    poll = client_owner.get(reverse("game_live", args=[moon_game.pk]), **HX)
    assert poll.status_code == 200 and 'id="history"' in text(poll)


def test_editing_a_deal_rescores_the_rest(client_owner, moon_game, owner):
    first = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    deal_record(game=moon_game, entry=DEAL_2, by=owner)
    deal_record(game=moon_game, entry=DEAL_3, by=owner)
    url = reverse("deal_edit", args=[first.pk])
    page = text(client_owner.get(url))
    assert 'name="hearts-0" value="4" checked' in page
    response = client_owner.post(url, {
        "mode": "points", "version": "1", "points-0": "13", "points-1": "17", "points-2": "13",
    })  # fmt: skip
    assert response.status_code == 302
    assert list(moon_game.seats.values_list("total", flat=True)) == [84, 62, 26]


def test_an_edit_that_would_end_the_game_early_shows_why(client_owner, table, players, owner):

    ruleset = Ruleset.objects.create(table=table, name="To 70", moon="others", target=70)
    game = game_start(table=table, players=players, ruleset=ruleset, first_dealer=0)
    first = deal_record(game=game, entry=DEAL_1, by=owner)
    deal_record(game=game, entry=DEAL_2, by=owner)
    deal_record(game=game, entry=DEAL_3, by=owner)
    response = client_owner.post(reverse("deal_edit", args=[first.pk]), {
        "mode": "points", "version": "1", "points-0": "43", "points-1": "0", "points-2": "0",
    })  # fmt: skip
    assert response.status_code == 422
    assert "The game would end after deal 2 (Ben has 86, reaching the target of 70)" in text(
        response
    )


def test_deleting_a_deal(client_owner, moon_game, owner):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    url = reverse("deal_delete", args=[deal.pk])
    assert "Delete deal 1" in text(client_owner.get(url))
    assert client_owner.post(url, {"version": "1"}).status_code == 302
    assert not moon_game.deals.exists()


def test_an_outsider_gets_404_everywhere(client_outsider, moon_game, owner, players):
    deal = deal_record(game=moon_game, entry=DEAL_1, by=owner)
    table = moon_game.table
    before = game_snapshot(moon_game)
    gets = [
        reverse("table_detail", args=[table.pk]),
        reverse("ruleset_new", args=[table.pk]),
        reverse("game_new", args=[table.pk]),
        reverse("player_rename", args=[players[0].pk]),
        reverse("game_detail", args=[moon_game.pk]),
        reverse("deal_edit", args=[deal.pk]),
        reverse("deal_delete", args=[deal.pk]),
    ]
    for url in gets:
        assert client_outsider.get(url).status_code == 404, url
    posts = [
        reverse("player_add", args=[table.pk]),
        reverse("table_default_ruleset", args=[table.pk]),
        reverse("ruleset_preview", args=[table.pk]),
        reverse("game_new", args=[table.pk]),
        reverse("deal_new", args=[moon_game.pk]),
        reverse("deal_edit", args=[deal.pk]),
        reverse("deal_delete", args=[deal.pk]),
        reverse("game_rematch", args=[moon_game.pk]),
        reverse("player_rename", args=[players[0].pk]),
    ]
    for url in posts:
        assert client_outsider.post(url, {"name": "x", "mode": "points"}).status_code == 404, url
    assert game_snapshot(moon_game) == before
    assert Player.objects.filter(table=table).count() == 3


def test_a_stale_edit_keeps_the_version_seen_until_the_person_saves_over_theirs(
    client_owner, moon_game, outsider
):
    deal = deal_record(game=moon_game, entry=engine.PointsEntry((17, 13, 13)), by=outsider)
    url = reverse("deal_edit", args=[deal.pk])
    mine = {"mode": "points", "version": "1", "points-0": "13", "points-1": "13", "points-2": "17"}
    deal_edit(deal=deal, entry=engine.PointsEntry((13, 17, 13)), by=outsider)  # another phone
    response = client_owner.post(url, mine)
    assert response.status_code == 409
    page = text(response)
    assert "Deal 1 was changed by someone else" in page
    assert "Theirs: Alice 13, Ben 17, Cara 13." in page
    assert 'name="version" value="1"' in page  # the version seen, not theirs
    assert 'name="replace_version" value="2"' in page
    # Saved again as it is: a conflict again, theirs stands.
    assert client_owner.post(url, mine).status_code == 409
    deal.refresh_from_db()
    assert deal.scores == [13, 17, 13]
    # Saved over theirs, by choice.
    assert client_owner.post(url, {**mine, "replace_version": "2"}).status_code == 302
    deal.refresh_from_db()
    assert (deal.scores, deal.version) == ([13, 13, 17], 3)


def test_a_moon_says_what_the_shooter_scores_after_the_cards_taken(client_owner, moon_game):
    """As the edit page opens on a moon (the phone's check says the same as it is tapped)."""
    deal = deal_record(game=moon_game, entry=engine.PointsEntry((0, 0, 43)), by=None)
    page = text(client_owner.get(reverse("deal_edit", args=[deal.pk])))
    taken = page.index("Adds up, cards taken: Alice 0, Ben 0, Cara 43.")
    assert page.index("☾ Cara shoots the moon: Cara scores 0, Alice and Ben +43 each") > taken
    # Said in the bar beside Save too, where the person looks as they tap it.
    bar = page.index('class="check"')
    assert "☾ Cara shoots the moon" in page[bar:]

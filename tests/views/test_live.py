"""Polls and watch pages."""

from __future__ import annotations

from django.urls import reverse

from games.services.deals import deal_record
from tests.factories import DEAL_1, text


def test_a_renamed_player_shows_in_cached_history_and_polls(client_owner, moon_game, owner):
    """The history, entry form and poll are cached by game version: a rename moves it on."""
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    page = moon_game.get_absolute_url()
    live = reverse("game_live", args=[moon_game.pk])
    assert "Alice" in text(client_owner.get(page))
    etag = client_owner.get(live).headers["ETag"]
    alice = moon_game.seats.get(number=0).player
    client_owner.post(reverse("player_rename", args=[alice.pk]), {"name": "Alicia"})
    assert client_owner.get(live, HTTP_IF_NONE_MATCH=etag).status_code == 200
    shown = text(client_owner.get(page))
    shown = shown[shown.index('id="game-body"') :]  # past "Alice is now Alicia."
    assert "Alice " not in shown and "Alicia" in shown
    history = shown[shown.index('id="history"') :]
    assert "Alicia" in history  # the dealer of deal 1, from the cached rows


def seen_version(page: str, element: str) -> str:
    """The version a polled element sends, from its hx-headers (JSON in an attribute)."""
    import html
    import json
    import re

    tag = re.search(rf'<div id="{element}"[^>]*>', page)[0]
    return json.loads(html.unescape(re.search(r"hx-headers='([^']*)'", tag)[1]))["If-None-Match"]


def test_a_page_s_poll_sends_the_version_it_shows_and_is_left_alone_until_it_changes(
    client_owner, moon_game, owner
):
    """A 304 reached htmx as the browser's cached 200 and redrew the board every 3 s;
    the page now sends its version and an unchanged poll is a 204, which htmx doesn't swap."""
    live = reverse("game_live", args=[moon_game.pk])
    page = client_owner.get(moon_game.get_absolute_url()).content.decode()
    seen = seen_version(page, "live")
    assert seen == client_owner.get(live)["ETag"]
    unchanged = client_owner.get(live, headers={"If-None-Match": seen})
    assert unchanged.status_code == 204 and unchanged.content == b""
    deal_record(game=moon_game, entry=DEAL_1, by=owner)
    changed = client_owner.get(live, headers={"If-None-Match": seen})
    assert changed.status_code == 200
    # And the new board carries the new version: its next poll is a 204 again.
    again = seen_version(changed.content.decode(), "live")
    assert again != seen
    assert client_owner.get(live, headers={"If-None-Match": again}).status_code == 204


def test_a_club_night_s_board_sends_the_version_it_shows(client_owner, table, players):
    from django.utils import timezone

    from games.services.clubnights import evening_start

    evening = evening_start(
        table=table, name="Friday", day=timezone.localdate(), scoring="places", ruleset=None,
        players=players,
    )  # fmt: skip
    page = client_owner.get(reverse("evening_detail", args=[evening.pk])).content.decode()
    seen = seen_version(page, "evening-live")
    live = reverse("evening_live", args=[evening.pk])
    assert client_owner.get(live, headers={"If-None-Match": seen}).status_code == 204

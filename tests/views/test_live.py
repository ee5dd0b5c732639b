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

"""A finished game handed to BG Stats in one tap, from its page (the table's history
lists games, not a button under each): BG Stats' createPlay link, its play id the
game's key."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from urllib.parse import unquote

import pytest
from django.urls import reverse

from games.formats.bg_stats_link import CREATE_PLAY, PlayedSeat, play_data
from tests.factories import play_hearts


def sent(page) -> list[dict]:
    """The plays the page's BG Stats links carry."""
    links = re.findall(r'href="([^"]+)"', page.content.decode())
    return [
        json.loads(unquote(html.unescape(link).split("?data=", 1)[1]))
        for link in links
        if link.startswith(CREATE_PLAY)
    ]


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


def test_a_finished_game_goes_to_bg_stats_from_its_page(signed_in, table, players):
    game = play_hearts(table, players, winner=1, days=1)
    game.refresh_from_db()
    [from_page] = sent(signed_in.get(game.get_absolute_url()))
    assert sent(signed_in.get(reverse("table_history", args=[table.pk]))) == []
    # The same game sent twice is one play there: its id is the game's own key.
    assert from_page["sourcePlayId"] == game.key
    assert from_page["game"] == {
        "name": "Hearts",
        "sourceGameId": "hearts-only",
        "highestWins": False,
        "noPoints": False,
        "bggId": 6887,
    }
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in from_page["players"]] == [
        ("Alice", 52, False, 2),
        ("Ben", 0, True, 1),
        ("Cara", 52, False, 2),
    ]
    assert [p["startPlayer"] for p in from_page["players"]] == [False, True, False]
    assert from_page["playDate"] == game.finished_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def test_a_game_still_played_is_not_sent(signed_in, moon_game):
    assert sent(signed_in.get(moon_game.get_absolute_url())) == []
    history = signed_in.get(reverse("table_history", args=[moon_game.table_id]))
    assert sent(history) == []


def test_an_outsider_sees_no_game_to_send(client, outsider, table, players):
    game = play_hearts(table, players, winner=0, days=1)
    client.force_login(outsider)
    assert client.get(game.get_absolute_url()).status_code == 404
    assert client.get(reverse("table_history", args=[table.pk])).status_code == 404


def test_a_table_s_own_rules_a_result_only_game_and_shared_wins():
    start = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
    seats = [
        PlayedSeat(7, "Åse & «Kåre»", 12, True),
        PlayedSeat(8, "Bjørn", 12, True),
        PlayedSeat(9, "Dagny", 40, False),
    ]
    data = play_data(
        key="k1",
        rules="Svarte Maria på hytta",
        seats=seats,
        first_dealer=2,
        started_at=start,
        finished_at=None,
        result_only=True,
    )
    assert data["game"] == {
        "name": "Svarte Maria på hytta",
        "sourceGameId": "svarte-maria-pa-hytta",
        "highestWins": False,
        "noPoints": False,
    }
    assert [p["rank"] for p in data["players"]] == [1, 1, 2]
    assert not any(p["startPlayer"] for p in data["players"])
    assert data["playDate"] == "2025-03-01 19:00:00" and "durationMin" not in data
    assert [p["sourcePlayerId"] for p in data["players"]] == ["player-7", "player-8", "player-9"]

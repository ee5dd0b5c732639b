"""A table's players: added, renamed, linked, and each one's page."""

from __future__ import annotations

from django.urls import reverse

from tests.factories import text


def test_adding_a_player_trims_and_refuses_a_name_taken(client_owner, table, players):
    url = reverse("player_add", args=[table.pk])
    assert client_owner.post(url, {"name": "  Dan  "}).status_code == 302
    assert table.players.filter(name="Dan").exists()
    response = client_owner.post(url, {"name": "alice"})
    assert response.status_code == 422
    assert "Alice already plays at this table" in text(response)
    response = client_owner.post(url, {"name": "x" * 41})
    assert response.status_code == 422
    assert table.players.count() == 4


def test_renaming_a_player(client_owner, players):
    url = reverse("player_rename", args=[players[0].pk])
    assert client_owner.get(url).status_code == 200
    assert client_owner.post(url, {"name": "Alicia"}).status_code == 302
    players[0].refresh_from_db()
    assert players[0].name == "Alicia"
    response = client_owner.post(url, {"name": "Ben"})
    assert "Ben already plays at this table" in text(response)

"""Downloads from the app: JSON and CSV for a game, a table, an account."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from games.formats.writing import FORMAT
from games.models import Table
from games.services.deals import deal_record
from games.services.imports import import_history
from games.services.sharing import watch_link_replace
from tests.factories import DEAL_1, DEAL_2, DEAL_3, make_games


def body(response) -> str:
    return b"".join(response.streaming_content).decode()


@pytest.fixture
def played(moon_game, owner):
    for entry in (DEAL_1, DEAL_2, DEAL_3):
        deal_record(game=moon_game, entry=entry, by=owner)
    return moon_game


def test_a_game_downloads_as_json_with_a_telling_name(client, owner, played):
    client.force_login(owner)
    response = client.get(reverse("game_export", args=[played.pk, "json"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    day = timezone.localdate(played.started_at)
    assert response["Content-Disposition"] == (
        f'attachment; filename="friday-club-{day}-game-{played.pk}.json"'
    )
    data = json.loads(body(response))
    assert data["format"] == FORMAT
    assert data["games"][0]["totals"] == {"Alice": 88, "Ben": 65, "Cara": 19}


def test_a_game_downloads_as_csv_with_the_players_named(client, owner, played):
    client.force_login(owner)
    response = client.get(reverse("game_export", args=[played.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(body(response))))
    assert rows[0][6:9] == ["Alice points", "Ben points", "Cara points"]
    assert rows[-1][-3:] == ["88", "65", "19"]
    assert rows[2][9] == "Cara"  # the moon


def test_a_table_downloads_all_its_games(client, owner, played, table):
    import_history(
        {
            "format": FORMAT,
            "games": [
                {
                    "table": "x",
                    "players": ["Alice", "Ben", "Cara", "Dan"],
                    "first_dealer": "Dan",
                    "deals": [{"points": {"Alice": 13, "Ben": 10, "Cara": 7, "Dan": 13}}],
                }
            ],
        },
        owner=owner,
        table=table,
    )
    client.force_login(owner)
    response = client.get(reverse("table_export", args=[table.pk, "json"]))
    assert response["Content-Disposition"] == (
        f'attachment; filename="friday-club-{timezone.localdate()}.json"'
    )
    assert len(json.loads(body(response))["games"]) == 2
    rows = list(
        csv.reader(io.StringIO(body(client.get(reverse("table_export", args=[table.pk, "csv"])))))
    )
    assert rows[0][6:10] == ["seat 1", "seat 2", "seat 3", "seat 4"]
    assert len(rows) == 1 + 3 + 1


def test_the_account_export_holds_every_table_the_user_sees(
    client, owner, member, played, outsider
):
    other = Table.objects.create(name="Not theirs", owner=outsider)
    client.force_login(member)
    response = client.get(reverse("account_export"))
    assert response["Content-Disposition"] == (
        f'attachment; filename="scores-mo-{timezone.localdate()}.json"'
    )
    tables = {g["table"] for g in json.loads(body(response))["games"]}
    assert tables == {"Friday club"}
    assert other.name not in tables


def test_a_watch_link_holder_downloads_that_game(client, played):
    token = watch_link_replace(played)
    response = client.get(reverse("watch_game_export", args=[token, "json"]))
    assert json.loads(body(response))["games"][0]["totals"]["Cara"] == 19
    assert client.get(reverse("watch_game_export", args=["nope", "json"])).status_code == 404


def test_an_export_is_streamed(client, owner, played):
    client.force_login(owner)
    response = client.get(reverse("table_export", args=[played.table_id, "json"]))
    assert response.streaming


def test_a_web_export_imports_back_into_another_table(client, owner, outsider, played):
    client.force_login(owner)
    data = json.loads(body(client.get(reverse("game_export", args=[played.pk, "json"]))))
    other = Table.objects.create(name="Elsewhere", owner=outsider)
    import_history(data, owner=outsider, table=other)
    client.force_login(outsider)
    again = json.loads(body(client.get(reverse("table_export", args=[other.pk, "json"]))))
    for game in (data["games"][0], again["games"][0]):
        game.pop("started_at")
        game.pop("finished_at")
        game.pop("table")
    assert again["games"] == data["games"]


def test_a_thousand_games_export_in_a_bounded_number_of_queries(
    client, owner, table, players, django_assert_max_num_queries
):
    """Read in chunks, never a query a game or a deal. Counted in queries, not
    seconds: the machine's speed is no test of the code (make bench times it)."""
    make_games(table, players, 1000, 10)
    client.force_login(owner)
    with django_assert_max_num_queries(40):
        response = client.get(reverse("table_export", args=[table.pk, "json"]))
        size = sum(len(chunk) for chunk in response.streaming_content)
    assert size > 1_000_000

"""History files a person or a script can send: refused with the reason, never a 500 or a hang."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.formats.reading import WEB_MOST_GAMES, ImportRefused, read_history_file
from games.models import Game, Seat
from games.services.imports import import_history
from tests.factories import MOON_EXAMPLE


def upload(raw: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("history.json", raw, content_type="application/json")


@pytest.fixture
def phone(client, owner):
    client.force_login(owner)
    return client


def preview(phone, table, raw: bytes):
    return phone.post(reverse("table_import", args=[table.pk]), {"file": upload(raw)})


def empty_games(count: int) -> bytes:
    game = {"table": "T", "players": ["A", "B", "C"], "first_dealer": "A", "deals": []}
    return json.dumps({"format": "blackmaria-scores/1", "games": [game] * count}).encode()


def test_a_file_of_twelve_thousand_games_is_refused_at_once_on_the_web(phone, table):
    with CaptureQueriesContext(connection) as queries:
        response = preview(phone, table, empty_games(12_000))
    assert response.status_code == 422
    # Refused on its count, before a game is read: no query a game.
    assert len(queries) < 20, len(queries)
    page = response.content.decode()
    assert f"The file holds 12000 games; at most {WEB_MOST_GAMES} can be imported" in page
    assert not Game.objects.exists()


def test_the_command_line_imports_a_backup_bigger_than_the_web_takes(
    phone, owner, table, tmp_path, monkeypatch
):
    monkeypatch.setattr("games.views.imports.WEB_MOST_GAMES", 5)
    assert preview(phone, table, empty_games(8)).status_code == 422
    path = tmp_path / "backup.json"
    path.write_bytes(empty_games(8))
    call_command("import_games", str(path), "--owner", "ann", stdout=io.StringIO())
    assert Game.objects.count() == 8


def test_a_game_of_too_many_deals_is_refused_naming_the_limit(owner):
    data = copy.deepcopy(MOON_EXAMPLE)
    game = data["games"][0]
    game["rules"] = {"target": 10_000}
    game["deals"] = [{"points": {"Alice": 17, "Ben": 13, "Cara": 13}}] * 45_000
    with pytest.raises(ImportRefused, match="the game has 45000 deals; a game holds at most 500"):
        import_history(data, owner=owner)


@pytest.mark.parametrize("depth", [21, 30_000, 50_000])
def test_json_nested_deep_is_refused_without_running_out_of_stack(phone, table, depth):
    raw = b"[" * depth + b"]" * depth
    with pytest.raises(ImportRefused, match="nested"):
        read_history_file(raw)
    response = preview(phone, table, raw)
    assert response.status_code == 422 and "nested" in response.content.decode()


@pytest.mark.parametrize("depth", [30_000, 50_000])
def test_objects_nested_deep_on_one_long_line_are_refused_in_words(phone, table, depth):
    """One line past the csv module's 128 KB cell, read first as a header of results."""
    raw = b'{"games":' * depth + b"[]" + b"}" * depth
    response = preview(phone, table, raw)
    assert response.status_code == 422
    assert f"nested {depth + 1} levels deep" in response.content.decode()
    assert not Game.objects.exists()


def test_results_with_a_cell_past_the_csv_limit_are_refused_naming_the_line(phone, table):
    raw = b"date,game,player,total\n2024-01-01,1,Ann,12\n2024-01-01,1,Ben," + b"1" * 200_000
    response = preview(phone, table, raw)
    assert response.status_code == 422
    assert "Line 3: a cell is too long to be a result." in response.content.decode()
    assert not Game.objects.exists()


def test_brackets_inside_text_do_not_count_as_nesting():
    data = copy.deepcopy(MOON_EXAMPLE)
    data["games"][0]["note"] = "[" * 500 + '\\"{' * 100
    assert read_history_file(json.dumps(data).encode())["games"][0]["table"]


@pytest.mark.parametrize(
    "raw",
    [
        b'{"format": "blackmaria-scores/1", "games": [' + b"1" * 5000 + b"]}",
        b'{"format": "blackmaria-scores/1", "games": [{"table": "\\ud800"}]}',
        b"\xff\xfe not utf-8",
        b"{not json",
    ],
    ids=["5000 digits", "lone surrogate", "not UTF-8", "not JSON"],
)
def test_text_that_is_not_a_history_file_is_refused_in_words(phone, table, raw):
    response = preview(phone, table, raw)
    assert response.status_code == 422
    assert "This file is not a history file" in response.content.decode()


def test_huge_points_in_a_file_are_refused_and_nothing_is_stored_wrapped(owner):
    data = copy.deepcopy(MOON_EXAMPLE)
    game = data["games"][0]
    game["rules"] = {"queen_of_spades": 1_000_000_000_000_000}
    game["deals"] = [{"points": {"Alice": 1_000_000_000_000_000, "Ben": 10, "Cara": 20}}]
    with pytest.raises(ImportRefused, match="Q♠ can be worth at most 1000"):
        import_history(data, owner=owner)
    assert not Seat.objects.exists()


def test_the_command_line_refuses_a_deep_file_with_a_message(owner, tmp_path):
    path = tmp_path / "deep.json"
    path.write_bytes(b"[" * 40_000 + b"]" * 40_000)
    with pytest.raises(CommandError, match="nested 40000 levels deep"):
        call_command("import_games", str(path), "--owner", "ann")

"""A backup restores the same club: backed up with the database's own tools,
the database dropped, restored, and every page's figures the same."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Game, Table
from tests.factories import club_figures, make_club


def drop_everything() -> None:
    """The disk died: every table gone, as on a new server's empty database."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP SCHEMA public CASCADE")
            cursor.execute("CREATE SCHEMA public")
        else:
            cursor.execute("PRAGMA foreign_keys = OFF")
            names = connection.introspection.table_names(cursor)
            for name in names:
                cursor.execute(f'DROP TABLE "{name}"')
            cursor.execute("PRAGMA foreign_keys = ON")
    assert connection.introspection.table_names() == []


@pytest.mark.django_db(transaction=True)
def test_a_backup_is_readable_by_the_apps_user_alone(owner, tmp_path):
    """It holds password hashes and email addresses: 0644 in a 0755 folder let
    every user of the server read them."""
    folder = tmp_path / "backups"
    call_command("backup", "--to", str(folder), stdout=io.StringIO())
    [made] = list(folder.iterdir())
    assert folder.stat().st_mode & 0o777 == 0o700
    assert made.stat().st_mode & 0o777 == 0o600


@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_the_same_club_after_the_database_is_gone(owner, tmp_path):
    club = make_club(owner)
    before = club_figures(club)
    out = io.StringIO()
    call_command("backup", "--to", str(tmp_path), stdout=out)
    [made] = [p for p in tmp_path.iterdir()]
    assert f"Backed up to {made}." in out.getvalue()
    assert made.suffix == (".dump" if connection.vendor == "postgresql" else ".sqlite3")
    drop_everything()
    call_command("restore", str(made), "--noinput", stdout=io.StringIO())
    restored = Table.objects.get(pk=club.pk)
    assert club_figures(restored) == before
    assert before["ladder"] and before["seasons"]["Autumn"] and before["club night"]
    assert Game.objects.count() == 4
    # The account is back too: its owner signs in as before.
    assert restored.owner.check_password("a-long-pass-phrase")


@pytest.mark.django_db(transaction=True)
def test_the_backup_command_keeps_the_rotation(owner, tmp_path):
    from datetime import datetime, timedelta

    from backups.rotation import backup_name

    for days in range(1, 40):
        (tmp_path / backup_name(datetime.now() - timedelta(days=days), "dump")).write_bytes(b"")
    (tmp_path / "notes.txt").write_text("kept")
    out = io.StringIO()
    call_command("backup", "--to", str(tmp_path), stdout=out)
    assert "Removed 29 older backup(s) no longer kept." in out.getvalue()  # 40 made
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("scorekeeper-")]) == 11
    assert (tmp_path / "notes.txt").exists()


@pytest.mark.django_db(transaction=True)
def test_a_restore_of_a_file_that_is_no_backup_changes_nothing(owner, tmp_path):
    club = make_club(owner)
    wrong = tmp_path / "scorekeeper-2026-12-01T041500.txt"
    wrong.write_text("not a backup")
    with pytest.raises(CommandError, match="Nothing was restored"):
        call_command("restore", str(wrong), "--noinput")
    with pytest.raises(CommandError, match="Nothing was restored: there is no backup"):
        call_command("restore", str(tmp_path / "missing.dump"), "--noinput")
    assert Table.objects.get(pk=club.pk).games.count() == 4


def test_restore_asks_first(monkeypatch, tmp_path, db):
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    with pytest.raises(CommandError, match="Nothing was restored"):
        call_command("restore", str(Path(tmp_path) / "any.dump"))


@pytest.mark.django_db(transaction=True)
def test_a_restore_the_database_refuses_says_why_and_changes_nothing(owner, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("pg_restore's refusal")
    club = make_club(owner)
    broken = tmp_path / "scorekeeper-2026-12-01T041500.dump"
    broken.write_bytes(b"PGDMP not really")
    with pytest.raises(CommandError, match="Nothing was restored: pg_restore"):
        call_command("restore", str(broken), "--noinput")
    assert Table.objects.get(pk=club.pk).games.count() == 4

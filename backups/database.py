"""Backing the database up and restoring it, with the database's own tools:
``pg_dump``/``pg_restore`` for PostgreSQL, SQLite's online backup API for the
default database. Nothing of the app's own format: what comes back is the
database as it was, every table (accounts, ratings, club nights, seasons)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from datetime import datetime
from pathlib import Path

from django.db import connections

from backups.rotation import backup_name, to_remove


class BackupFailed(Exception):
    """The database's tool said no; the message is what it said."""


def _database(alias: str):
    connection = connections[alias]
    vendor = connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        raise BackupFailed(f"backups are made of PostgreSQL and SQLite only, not {vendor}")
    return connection


def _pg_env(settings: dict) -> dict[str, str]:
    """libpq's own variables, so no password is ever on a command line."""
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"),
                      ("PASSWORD", "PGPASSWORD"), ("NAME", "PGDATABASE")):  # fmt: skip
        if settings.get(key):
            env[name] = str(settings[key])
    return env


def _run(command: list[str], env: dict[str, str]) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True)
    except FileNotFoundError:
        raise BackupFailed(f"{command[0]} is not installed (Debian: postgresql-client)") from None
    if done.returncode != 0:
        raise BackupFailed(done.stderr.strip() or f"{command[0]} exited {done.returncode}")


def backup(folder: Path, *, alias: str = "default", now: datetime | None = None) -> Path:
    """A backup of the whole database in ``folder``; written under a temporary
    name and renamed when whole, so a failed one never passes for a backup. It
    holds password hashes and email addresses: readable by this user alone, in
    a folder of its own (made so if it is new), whatever the umask."""
    connection = _database(alias)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    suffix = "dump" if connection.vendor == "postgresql" else "sqlite3"
    path = folder / backup_name(now or datetime.now(), suffix)
    partial = path.with_name(path.name + ".partial")
    if connection.vendor == "postgresql":
        env = _pg_env(connection.settings_dict)
        _run(["pg_dump", "--format=custom", "--no-owner", f"--file={partial}"], env)
    else:
        connection.ensure_connection()
        with sqlite3.connect(partial) as copy:
            connection.connection.backup(copy)
        copy.close()
    partial.chmod(0o600)
    partial.rename(path)
    return path


def rotate(folder: Path) -> list[Path]:
    """Remove the backups the rotation no longer keeps (7 daily, 4 weekly)."""
    removed = to_remove(folder.iterdir()) if folder.is_dir() else []
    for path in removed:
        path.unlink()
    return removed


def restore(path: Path, *, alias: str = "default") -> None:
    """The database as the backup holds it, in one transaction (PostgreSQL) or
    one step (SQLite): what was there is replaced, every table."""
    connection = _database(alias)
    if not path.is_file():
        raise BackupFailed(f"there is no backup at {path}")
    if connection.vendor == "postgresql":
        if path.suffix != ".dump":
            raise BackupFailed(f"{path.name} is not a PostgreSQL backup (a .dump file)")
        connection.close()  # our own connection holds no lock the restore waits for
        env = _pg_env(connection.settings_dict)
        command = ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction"]
        _run([*command, f"--dbname={env.get('PGDATABASE', '')}", str(path)], env)
    else:
        if path.suffix != ".sqlite3":
            raise BackupFailed(f"{path.name} is not an SQLite backup (a .sqlite3 file)")
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as source:
            connection.ensure_connection()
            source.backup(connection.connection)
        source.close()

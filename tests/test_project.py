"""The project as a whole: migrations, settings, built-ins, admin."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from games import engine
from games.models import Ruleset
from scorekeeper import settings as project_settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_no_model_change_is_missing_a_migration():
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db
def test_the_builtin_rulesets_score_as_named():
    expected = {
        "Black Maria": (43, "none", 100),
        "Black Maria, moon to the others": (43, "others", 100),
        "Black Maria, moon off the shooter": (43, "self", 100),
        "Hearts only": (26, "others", 50),
        "Spot hearts": (146, "none", 500),
        "Omnibus": (33, "none", 100),
    }
    got = {
        rs.name: (engine.deal_total(rs.to_rules(), 3), rs.moon, rs.target)
        for rs in Ruleset.objects.filter(table=None)
    }
    assert got == expected


@pytest.mark.parametrize(
    ("raw", "value"), [("1", True), ("yes", True), ("off", False), ("", False)]
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, value):
    monkeypatch.setenv("SOME_FLAG", raw)
    assert project_settings.env_bool("SOME_FLAG") is value


def test_env_bool_fails_loudly_on_a_typo(monkeypatch):
    monkeypatch.setenv("SOME_FLAG", "ture")
    with pytest.raises(ImproperlyConfigured, match="SOME_FLAG must be one of"):
        project_settings.env_bool("SOME_FLAG")


def test_env_int_fails_loudly_on_a_typo(monkeypatch):
    monkeypatch.setenv("SOME_NUMBER", "ten")
    with pytest.raises(ImproperlyConfigured, match="SOME_NUMBER must be a whole number"):
        project_settings.env_int("SOME_NUMBER", 1)


def run_settings(**env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "DATABASE_URL")
    }
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import scorekeeper.settings as s; d = s.DATABASES['default']; "
            "print(s.DEBUG, d['ENGINE'], sorted(d.get('OPTIONS', {}).items()))",
        ],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = run_settings()
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_debug_is_off_unless_asked_and_sqlite_is_the_default():
    result = run_settings(SECRET_KEY="x" * 50)
    assert result.stdout.split()[:2] == ["False", "django.db.backends.sqlite3"]


def test_database_url_selects_djangos_own_postgresql_backend_with_health_checks():
    url = "postgres://u@127.0.0.1:5432/db"
    result = run_settings(SECRET_KEY="x" * 50, DATABASE_URL=url)
    # Parameters bound by the client (psycopg's default): no server-side binding.
    assert result.stdout.split("[")[0].split() == ["False", "django.db.backends.postgresql"]
    assert result.stdout.split("[")[1] == "]\n"


def test_djangos_own_sessions_sign_in_and_middleware_are_used():
    from django.conf import settings

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cached_db"
    assert "DatabaseCache" in settings.CACHES[settings.SESSION_CACHE_ALIAS]["BACKEND"]
    assert "django.contrib.auth.middleware.AuthenticationMiddleware" in settings.MIDDLEWARE
    assert "django.contrib.auth.backends.ModelBackend" in settings.AUTHENTICATION_BACKENDS


def test_the_admin_lists_every_model(admin_client):
    for model in ("table", "player", "ruleset", "game", "deal"):
        response = admin_client.get(f"/admin/games/{model}/")
        assert response.status_code == 200, model


def test_the_admin_shows_a_game(admin_client, moon_game):
    response = admin_client.get(f"/admin/games/game/{moon_game.pk}/change/")
    assert response.status_code == 200


def test_the_health_check_answers_ok_and_the_release_to_anyone(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok 1.0.0"


def test_the_admin_names_the_release(admin_client):
    assert "Black Maria scorekeeper 1.0.0" in admin_client.get("/admin/").content.decode()


def test_the_entry_modes_are_the_engines():
    from games import engine
    from games.models import Deal

    assert tuple(Deal.Mode.values) == tuple(engine.ENTRY_MODES)


def test_email_is_sent_by_smtp_from_the_environment_in_production_and_printed_otherwise():
    show = "import scorekeeper.settings as s; print(s.MAILERS['default'])"
    base = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEBUG"))}
    production = {**base, "SECRET_KEY": "x" * 50, "EMAIL_HOST": "smtp.example.org"}
    production["EMAIL_USE_TLS"] = "1"
    printed = subprocess.run(
        [sys.executable, "-c", show],
        cwd=ROOT,
        env={**production, "EMAIL_PORT": "2525"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "smtp.EmailBackend" in printed and "'host': 'smtp.example.org'" in printed
    assert "'port': 2525" in printed and "'use_tls': True" in printed
    development = {**base, "DEBUG": "1"}
    printed = subprocess.run(
        [sys.executable, "-c", show],
        cwd=ROOT,
        env=development,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "console.EmailBackend" in printed


def test_a_deployment_still_setting_the_old_proxy_switches_is_stopped_saying_what_replaces_them():
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings", "DEBUG": "1"}
    env["TRUST_X_FORWARDED_FOR"] = "1"
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=root, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "TRUST_X_FORWARDED_FOR is replaced by TRUSTED_PROXIES" in done.stderr


def test_migrate_makes_the_cache_tables_so_an_upgrade_needs_no_step_of_its_own(tmp_path):
    """A new server and an upgrade run migrate; createcachetable was a step of its own."""
    import sqlite3
    from contextlib import closing

    from django.conf import settings

    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env |= {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True, capture_output=True,
    )  # fmt: skip
    with closing(sqlite3.connect(tmp_path / "new.sqlite3")) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    wanted = {c["LOCATION"] for c in settings.CACHES.values() if "DatabaseCache" in c["BACKEND"]}
    assert wanted and wanted <= tables, wanted - tables

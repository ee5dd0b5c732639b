"""Security by default: deploy checks, CSRF, throttled sign-in, escaping."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from django.test import Client
from django.urls import reverse

from games.formats.writing import FORMAT
from games.models import Game, Player, Ruleset, Table
from games.services.imports import import_history

ROOT = Path(__file__).resolve().parent.parent


def check_deploy(**settings: str) -> subprocess.CompletedProcess:
    # A clean production environment (the browser tests' conftest sets an
    # async-safety override that a deployment must not have).
    unwanted = ("DEBUG", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY")
    env = {k: v for k, v in os.environ.items() if k not in unwanted}
    env.update(settings)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    result = check_deploy(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="scores.example.org",
        TRUSTED_PROXIES="127.0.0.1,::1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_https_with_no_front_trusted_stops_the_app_rather_than_loop(tmp_path):
    """The first night's trap: behind the front with TRUSTED_PROXIES empty, every
    request would be sent to HTTPS again, for ever. The app refuses to start."""
    result = check_deploy(HTTPS="1", DATA_DIR=str(tmp_path), ALLOWED_HOSTS="scores.example.org")
    assert result.returncode == 1
    assert "HTTPS is on but TRUSTED_PROXIES is empty" in result.stderr
    assert "send every phone round the same redirect" in result.stderr


def test_with_no_front_the_app_serves_plain_http_and_check_deploy_says_so(tmp_path):
    """The container on its own port: nothing set but its folder. It starts, keeps a
    key of its own, redirects nobody, and check --deploy says what a front would add."""
    result = check_deploy(DATA_DIR=str(tmp_path))
    assert result.returncode == 1, result.stdout + result.stderr  # warnings only
    assert "ERRORS" not in result.stderr
    for unsafe_over_plain_http in ("security.W008", "security.W012", "security.W016"):
        assert unsafe_over_plain_http in result.stderr
    key = tmp_path / "secret_key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_text()) >= 50
    again = check_deploy(DATA_DIR=str(tmp_path))
    assert key.read_text() == (tmp_path / "secret_key").read_text()
    assert "ERRORS" not in again.stderr


def test_a_write_without_the_csrf_token_is_refused(db, owner, moon_game):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    fields = {"mode": "points", "number": "1", "points-0": "17", "points-1": "13", "points-2": "13"}
    assert client.post(reverse("deal_new", args=[moon_game.pk]), fields).status_code == 403
    assert not moon_game.deals.exists()
    page = client.get(moon_game.get_absolute_url()).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(
        reverse("deal_new", args=[moon_game.pk]),
        fields,
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert moon_game.deals.count() == 1


def test_pages_carry_a_strict_content_security_policy(client, owner, moon_game):
    client.force_login(owner)
    policy = client.get(moon_game.get_absolute_url())["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


SCRIPT = "<script>alert(1)</script>"


def test_what_users_type_is_escaped_everywhere(client, owner, admin_client):
    data = {
        "format": FORMAT,
        "games": [
            {
                "table": SCRIPT,
                "players": [SCRIPT, "<img src=x onerror=alert(2)>", "Cara"],
                "first_dealer": "Cara",
                "rules": {"name": SCRIPT},
                "deals": [{"points": {SCRIPT: 17, "<img src=x onerror=alert(2)>": 13, "Cara": 13}}],
            }
        ],
    }
    import_history(data, owner=owner)
    game = Game.objects.get()
    Ruleset.objects.create(table=game.table, name=SCRIPT, notes=SCRIPT)
    client.force_login(owner)
    pages = [
        reverse("home"),
        reverse("table_detail", args=[game.table_id]),
        reverse("table_settings", args=[game.table_id]),
        reverse("game_new", args=[game.table_id]),
        game.get_absolute_url(),
        reverse("game_changes", args=[game.pk]),
        reverse("deal_edit", args=[game.deals.get().pk]),
    ]
    for url in pages:
        page = client.get(url).content.decode()
        assert SCRIPT not in page, url
        assert "<img src=x" not in page, url
        assert "&lt;script&gt;" in page, url
    for model in ("table", "player", "ruleset", "game"):
        page = admin_client.get(f"/admin/games/{model}/").content.decode()
        assert SCRIPT not in page, model
    assert Player.objects.filter(name=SCRIPT).exists()
    assert Table.objects.filter(name=SCRIPT).exists()

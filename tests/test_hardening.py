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


def test_check_deploy_is_clean_with_production_settings(tmp_path):
    # A clean production environment (the browser tests' conftest sets an
    # async-safety override that a deployment must not have).
    unwanted = ("DEBUG", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in unwanted}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="scores.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


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

"""Kept game pages: what people typed comes out as typed, and the token is each reader's own."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from django.test import Client
from django.urls import reverse

from games.models import Player
from games.views import responses as pagecache

ROOT = Path(__file__).resolve().parents[2]
LOOKALIKES = ["csrf-stand-in", "csrf" + "0" * 48, "csrf" + pagecache.CSRF_STAND_IN[4:10]]


def test_text_that_looks_like_the_stand_in_survives_on_a_kept_page(owner, member, moon_game):
    note = " ".join(LOOKALIKES)
    owner_phone, member_phone = Client(), Client()
    owner_phone.force_login(owner)
    member_phone.force_login(member)
    response = owner_phone.post(reverse("game_note", args=[moon_game.pk]), {"note": note})
    assert response.status_code == 302
    Player.objects.filter(pk=moon_game.seats.get(number=0).player_id).update(name="csrf-stand-in")
    moon_game.version += 1
    moon_game.save(update_fields=["version"])
    for phone in (owner_phone, member_phone):
        phone.get(moon_game.get_absolute_url())  # made and kept
        page = phone.get(moon_game.get_absolute_url()).content.decode()
        assert note in page
        assert "csrf-stand-in" in page
        assert pagecache.CSRF_STAND_IN not in page
    owner_token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    assert owner_token not in note


def test_every_process_has_a_stand_in_of_its_own():
    code = (
        "import django; django.setup(); import games.views.responses as p; print(p.CSRF_STAND_IN)"
    )
    env = {"DJANGO_SETTINGS_MODULE": "tests.settings", "PATH": "/usr/bin:/bin"}
    made = {
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=env
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(made) == 2 and all(re.fullmatch(r"csrf[0-9a-f]{48}", s) for s in made)

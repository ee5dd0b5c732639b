"""Installable: the checks a browser makes before offering "Add to home screen"."""

from __future__ import annotations

import re
import struct

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


def png_size(path: str) -> tuple[int, int]:
    with open(finders.find(path), "rb") as file:
        data = file.read(24)
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_the_manifest_has_what_installing_needs(client, db):
    response = client.get(reverse("manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] and manifest["short_name"]
    assert len(manifest["short_name"]) <= 12  # fits under a home-screen icon
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = {}
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        path = icon["src"].removeprefix("/static/")
        width, height = png_size(path)
        assert icon["sizes"] == f"{width}x{height}"
        sizes.setdefault(icon["purpose"], set()).add(width)
    # Chrome wants 192 and 512 px; Android's adaptive icons a maskable one.
    assert {192, 512} <= sizes["any"]
    assert 512 in sizes["maskable"]


def test_every_page_links_the_manifest_icons_and_theme(client, db):
    page = client.get(reverse("login")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}">' in page
    assert '<meta name="theme-color" content="#0b5d3b"' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="/static/([^"]+)">', page).group(1)
    assert png_size(touch) == (180, 180)
    assert 'name="viewport" content="width=device-width, initial-scale=1"' in page


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client, db):
    response = client.get(reverse("service_worker"))
    assert response.status_code == 200
    assert reverse("service_worker") == "/sw.js"
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    source = response.content.decode()
    for event in ("install", "activate", "fetch"):
        assert f'addEventListener("{event}"' in source
    page = client.get(reverse("login")).content.decode()
    assert 'data-service-worker="/sw.js"' in page


def test_the_offline_page_needs_no_sign_in(client, db):
    response = client.get(reverse("offline"))
    assert response.status_code == 200
    assert "No network" in response.content.decode()


def test_the_offline_copy_sets_no_cookie(client, owner):
    """The service worker fetches it on its own, maybe after a sign-in gave the phone a
    new CSRF token: had it set the cookie it was sent with, the next form was refused."""
    client.force_login(owner)
    client.get(reverse("login"))  # the phone has its CSRF cookie
    response = client.get(reverse("offline"), headers={"X-Kept-Copy": "1"})
    assert response.status_code == 200
    assert list(response.cookies) == []
    assert "<form" not in response.content.decode()


def test_a_game_page_kept_for_offline_sets_no_cookie(client, owner, moon_game):
    game = moon_game
    client.force_login(owner)
    seen = client.get(game.get_absolute_url())
    assert "csrftoken" in seen.cookies  # an ordinary visit
    kept = client.get(game.get_absolute_url(), headers={"X-Kept-Copy": "1"})
    assert kept.status_code == 200 and list(kept.cookies) == []


@pytest.mark.parametrize(
    ("language", "said"),
    [("en-gb", "That was not sent"), ("nb", "Det ble ikke sendt")],
)
def test_a_form_refused_by_the_csrf_check_says_what_to_do_in_the_persons_words(
    owner, moon_game, language, said
):
    from django.test import Client

    game = moon_game
    phone = Client(enforce_csrf_checks=True, headers={"Accept-Language": language})
    phone.force_login(owner)
    response = phone.post(
        reverse("game_new", args=[game.table_id]),
        {"csrfmiddlewaretoken": "x" * 32},
        headers={"Referer": "http://testserver" + game.get_absolute_url()},
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert said in page and "verification failed" not in page
    assert f'href="{game.get_absolute_url()}"' in page
    assert game.table.games.count() == 1


def test_the_service_worker_knows_hashed_static_names_from_unhashed_ones(client, db):
    """Hashed files are kept for good; unhashed ones (development) are fetched first."""
    from django.contrib.staticfiles.storage import ManifestStaticFilesStorage
    from django.core.files.base import ContentFile

    source = client.get(reverse("service_worker")).content.decode()
    pattern = re.search(r"const HASHED = /(.+)/;", source).group(1).replace("\\/", "/")
    storage = ManifestStaticFilesStorage(location="unused")  # what production names files by
    digest = storage.file_hash("app.css", ContentFile(b"body {}"))
    assert re.search(pattern, f"/static/css/app.{digest}.css")
    assert not re.search(pattern, "/static/css/app.css")


def test_the_page_and_the_service_worker_name_the_caches_alike(client, owner, settings):
    from games.views import install

    settings.OFFLINE_CACHE_VERSION = "v9"
    install._service_worker_source.cache_clear()
    try:
        worker = client.get(reverse("service_worker")).content.decode()
        assert 'const VERSION = "v9";' in worker
        client.force_login(owner)
        page = client.get(reverse("home")).content.decode()
        # The page's script purges these on sign-out and keeps the page in them.
        assert 'data-cache-version="v9"' in page
        script = (settings.BASE_DIR / "static" / "js" / "app.js").read_text()
        for kind in ("pages", "static"):
            assert f'"sk-{kind}-" + VERSION' in worker
            assert f'"sk-{kind}-" + page.dataset.cacheVersion' in script
    finally:
        install._service_worker_source.cache_clear()

"""A finished game shared as a picture from a 360 px phone, and a watch link as
a chat app previews it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, expect

from games import engine
from games.models import Player, Ruleset, Table
from games.services.deals import deal_record
from games.services.games import game_start
from games.services.sharing import watch_link_replace
from tests.e2e.conftest import check_page, sign_in
from tests.e2e.helpers import phone

# Headless Chromium has no share sheet: one that notes what it was handed.
SHARE_SHEET = """
navigator.canShare = (data) => !!(data && data.files && data.files.length);
navigator.share = (data) => {
  const file = data.files[0];
  window.__shared = { name: file.name, type: file.type, size: file.size, title: data.title };
  return Promise.resolve();
};
"""


@pytest.fixture
def finished(transactional_db):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben", owner=user)
    players = [Player.objects.create(table=table, name=n) for n in ("Åse", "Bjørn", "Cecilie")]
    rules = Ruleset.objects.get(table=None, name="Hearts only")
    game = game_start(table=table, players=players, ruleset=rules, first_dealer=0, by=user)
    for _ in range(4):
        deal_record(game=game, entry=engine.PointsEntry((13, 13, 0)), by=user)
    return game


@pytest.mark.parametrize(
    ("locale", "scheme", "share"),
    [("en-GB", "light", "Share the picture"), ("nb-NO", "dark", "Del bildet")],
)
def test_a_finished_game_is_shared_as_a_picture(
    browser: Browser, live_server, finished, locale, scheme, share
):
    page = phone(browser, locale=locale, color_scheme=scheme)
    page.add_init_script(SHARE_SHEET)
    sign_in(page, live_server)
    page.goto(live_server.url + finished.get_absolute_url())
    button = page.get_by_role("button", name=share)
    expect(button).to_be_visible()
    check_page(page, f"40-share-{locale}-{scheme}")
    button.tap()
    page.wait_for_function("() => window.__shared")
    shared = page.evaluate("window.__shared")
    assert shared["name"] == "fredagsklubben.png" and shared["type"] == "image/png"
    assert 5_000 < shared["size"] < 150_000 and shared["title"] == "Fredagsklubben"
    page.context.close()


def test_where_the_phone_cannot_share_files_the_picture_downloads(
    browser: Browser, live_server, finished
):
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, accept_downloads=True
    )
    context.add_init_script(
        "delete Navigator.prototype.canShare; delete Navigator.prototype.share;"
    )
    page = context.new_page()
    sign_in(page, live_server)
    page.goto(live_server.url + finished.get_absolute_url())
    with page.expect_download() as download:
        page.get_by_role("button", name="Share the picture").tap()
    assert download.value.suggested_filename == "fredagsklubben.png"
    context.close()


def test_a_watch_link_as_a_chat_app_previews_it(browser: Browser, live_server, finished):
    """No cookies: the page's tags, then the picture they name."""
    token = watch_link_replace(finished)
    chat = browser.new_context()
    page = chat.request.get(f"{live_server.url}/watch/{token}/").text()
    tags = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', page))
    assert tags["og:title"] == "Fredagsklubben — final scores"
    assert tags["og:description"] == "Cecilie won: Åse 52 · Bjørn 52 · Cecilie 0"
    picture = chat.request.get(tags["og:image"])
    assert picture.ok and picture.headers["content-type"] == "image/png"
    assert len(picture.body()) < 150_000
    chat.close()

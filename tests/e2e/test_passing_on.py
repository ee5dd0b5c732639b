"""Passing the game round the table: the QR codes another phone's camera opens."""

from __future__ import annotations

import io

import zxingcpp
from django.contrib.auth import get_user_model
from PIL import Image
from playwright.sync_api import Browser, expect

from games.models import Player, Ruleset, Table
from games.services.games import game_start
from tests.e2e.conftest import check_page, sign_in


def decoded(locator) -> str:
    """What a camera reads in the code on the screen (a library reads it, not a text compare)."""
    image = Image.open(io.BytesIO(locator.screenshot()))
    (code,) = zxingcpp.read_barcodes(image)
    return code.text


def test_the_watch_and_invite_links_are_qr_codes_that_read_as_the_links(
    browser: Browser, live_server
):
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Friday club", owner=user)
    players = [Player.objects.create(table=table, name=n) for n in ("Alice", "Ben", "Cara")]
    rules = Ruleset.objects.get(table=None, name="Black Maria")
    game = game_start(table=table, players=players, ruleset=rules, first_dealer=0, by=user)
    context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    sign_in(page, live_server)

    page.goto(live_server.url + f"/games/{game.pk}/share/")
    page.get_by_role("button", name="Make a watch link").tap()
    expect(page.locator(".messages")).to_contain_text("The watch link is ready")
    link = page.locator("#watch-url").input_value()
    assert link.startswith(live_server.url + "/watch/")
    assert decoded(page.locator(".qr svg")) == link
    check_page(page, "42-share-qr")
    page.get_by_role("button", name="Copy").tap()
    expect(page.get_by_role("button", name="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == link

    page.goto(live_server.url + f"/tables/{table.pk}/settings/")
    page.get_by_role("button", name="Make an invite link").tap()
    invite = page.locator("#invite-1").input_value()
    assert "/invites/" in invite
    assert decoded(page.locator(".qr svg").first) == invite
    context.close()

"""A new game in one screen, on a phone."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from games.models import Game, Player, Table
from tests.e2e.conftest import check_page, screenshot, sign_in
from tests.e2e.helpers import first_dealer, open_choices, phone


def player_chip(page: Page, name: str):
    return page.locator("fieldset.seating label.chip", has_text=name)


def seated(page: Page) -> list[str]:
    # The new page's list, not the old page's nothing: a busy run read it mid-navigation.
    page.wait_for_load_state()
    page.locator("[data-seated]").wait_for(state="attached")
    return page.locator("[data-seated] label.chip span").all_inner_texts()


def test_a_new_game_in_one_screen_and_the_next_one_offered_the_same(page: Page, live_server):
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(live_server.url + "/accounts/signup/")
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name="Make my account").click()
    page.fill("#id_name", "Friday club")
    page.fill("#id_players", "Zoe\nAnna\nMia\nPer")
    page.get_by_role("button", name="Make the table").click()
    page.get_by_role("link", name="New game").click()

    # Everyone sits in the order they were typed; no seat dropdowns.
    assert seated(page) == ["Zoe", "Anna", "Mia", "Per"]
    expect(page.locator("select[name^=seat]")).to_have_count(0)
    # Per is not playing tonight; Zoe moves round to sit after Mia; Ola is new.
    player_chip(page, "Per").tap()
    player_chip(page, "Zoe").tap()
    player_chip(page, "Zoe").tap()
    assert seated(page) == ["Anna", "Mia", "Zoe"]
    page.fill("#id_new_players", "Ola")
    expect(first_dealer(page, "Per")).to_be_hidden()
    expect(first_dealer(page, "Ola")).to_be_visible()  # a new player can deal first too
    first_dealer(page, "Mia").tap()
    page.get_by_text("after a number of deals").tap()
    expect(page.locator("#id_target")).to_be_hidden()
    page.fill("#id_deals", "6")
    expect(page.locator("[data-uneven-note]")).to_have_text(
        "6 deals for 4 players: not everyone deals the same number of times."
    )
    page.fill("#id_deals", "8")
    expect(page.locator("[data-uneven-note]")).to_be_hidden()
    page.get_by_text("moon: the others add the moon value").tap()
    check_page(page, "06-new-game-one-screen")
    page.get_by_role("button", name="Start the game").tap()

    expect(page.locator("#coming-h")).to_have_text("Deal 1 of 8 — Mia deals, Zoe leads")
    game = Game.objects.get()
    assert [s.player.name for s in game.seats.order_by("number")] == ["Anna", "Mia", "Zoe", "Ola"]
    rules = game.get_rules()
    assert (rules.deals, rules.target, rules.moon) == (8, None, "others")

    # The next game starts from what was chosen.
    page.goto(live_server.url + game.table.get_absolute_url())
    page.get_by_role("link", name="New game").click()
    assert seated(page) == ["Anna", "Mia", "Zoe", "Ola"]
    expect(page.locator('input[name="end"][value="deals"]')).to_be_checked()
    expect(page.locator("#id_deals")).to_have_value("8")
    expect(page.locator('input[name="moon"][value="others"]')).to_be_checked()
    # Folded, the choices are said in a line; it follows what is changed.
    said = page.locator("[data-choices-said]")
    expect(said).to_have_text(
        "Black Maria · 8 deals · moon: the others add · the first dealer drawn"
    )
    # Other rules bring their own end and moon.
    open_choices(page)
    page.select_option("#id_ruleset", label="Hearts only")
    expect(page.locator('input[name="end"][value="target"]')).to_be_checked()
    expect(page.locator("#id_target")).to_have_value("50")
    first_dealer(page, "Mia").tap()
    expect(said).to_have_text(re.compile(r"^Hearts only · to 50 · .+ · Mia deals first$"))


NAMES = ["Kristoffer", "Marianne", "Ingeborg", "Sebastian", "Alexandra", "Thorbjørn", "Anne-Marie"]


@pytest.mark.parametrize(
    ("locale", "scheme", "script"),
    [("en-GB", "light", True), ("nb-NO", "dark", True), ("en-GB", "light", False)],
)
def test_start_the_game_is_on_the_first_screen(
    browser: Browser, live_server, locale, scheme, script
):
    """Seven at a table, or a first visit with nobody yet: Start is in the first
    viewport, the choices with good defaults folded; without a script too."""
    user = get_user_model().objects.create_user("ann", password="a-long-pass-phrase")
    table = Table.objects.create(name="Fredagsklubben på Grünerløkka", owner=user)
    for name in NAMES:
        Player.objects.create(table=table, name=name)
    options = {"locale": locale, "color_scheme": scheme, "java_script_enabled": script}
    first = phone(browser, **options)
    first.goto(live_server.url + "/")  # a first visit: nobody typed yet
    first.get_by_role("button", name=re.compile("Start a game|Start et spill")).click()
    start = first.locator("form[data-new-game] button[type=submit]")
    expect(start).to_be_visible()
    screenshot(first, f"06-new-game-first-visit-{locale}-{scheme}-{script}", full_page=False)
    assert _bottom(start) <= 640
    first.context.close()

    page = phone(browser, **options)
    start = page.locator("form[data-new-game] button[type=submit]")
    sign_in(page, live_server)
    page.goto(live_server.url + reverse("game_new", args=[table.pk]))
    expect(page.locator("[data-seated] input:checked")).to_have_count(7)
    screenshot(page, f"06-new-game-seven-{locale}-{scheme}-{script}", full_page=False)
    assert _bottom(start) <= 640
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    start.tap()
    expect(page.locator("#coming-h")).to_be_visible()
    game = Game.objects.get()
    assert game.seats.count() == 7
    assert game.get_rules().name == "Black Maria"
    page.context.close()


def _bottom(locator) -> float:
    box = locator.bounding_box()
    return box["y"] + box["height"]

"""A new game in one screen, on a phone."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from games.models import Game
from tests.e2e.conftest import check_page
from tests.e2e.helpers import first_dealer


def player_chip(page: Page, name: str):
    return page.locator("fieldset.seating label.chip", has_text=name)


def seated(page: Page) -> list[str]:
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
    # Other rules bring their own end and moon.
    page.select_option("#id_ruleset", label="Hearts only")
    expect(page.locator('input[name="end"][value="target"]')).to_be_checked()
    expect(page.locator("#id_target")).to_have_value("50")

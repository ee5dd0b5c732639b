"""Entering a deal forgives: the first tap on Save counts, too many hearts is said at once."""

from __future__ import annotations

from django.core.signals import request_started
from playwright.sync_api import Page, expect

from games.models import Deal
from tests.e2e.conftest import check_page, until_polled
from tests.e2e.helpers import chip, choose_mode, sign_up_and_start


def test_save_takes_the_first_tap_after_typing_points_and_nothing_errs(page: Page, live_server):
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    # A fresh deal: nothing is wrong yet, so nothing is red.
    expect(page.locator("#entry-said .problems")).to_have_count(0)
    expect(page.locator("#entry-said .to-enter")).to_have_text(
        "Still to enter: hearts for Alice, Ben and Cara; who took Q♠, K♠ and A♠."
    )
    # Counts first: two players at 10 hearts each is too many, said at once.
    chip(page, "hearts-0", 10).tap()
    chip(page, "hearts-1", 10).tap()
    expect(page.locator("#entry-said .problems")).to_contain_text(
        "Hearts add up to 20, the pack has 13"
    )
    expect(page.locator("#entry-said .to-enter")).to_have_text(
        "Still to enter: hearts for Cara; who took Q♠, K♠ and A♠."
    )

    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("17")
    page.locator("#points-input-1").fill("13")
    # Straight from typing to Save: the tap that takes the focus away saves.
    page.locator("#points-input-2").fill("13")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    assert Deal.objects.count() == 1
    until_polled(page)  # the poll the save sets off, answered and drawn
    assert errors == [], errors


def test_every_tap_is_checked_on_the_phone_with_no_request_until_save(page: Page, live_server):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    choose_mode(page, "Cards")
    expect(page.locator("#entry-check .tally")).to_have_text("0 of 43")
    asked: list[tuple[str, str]] = []

    def note(environ, **kwargs):
        asked.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))

    request_started.connect(note)
    try:
        chip(page, "taker-QS", "1").tap()
        chip(page, "taker-2H", "1").tap()
        chip(page, "taker-AS", "0").tap()
        check = page.locator("#entry")
        expect(check.locator(".tally")).to_have_text("21 of 43")
        expect(check.locator(".taken li")).to_have_text(
            [
                "Alice 7: A♠ace of spades",
                "Ben 14: Q♠queen of spades 2♥2 of hearts",
                "Cara 0: nothing yet",
            ]
        )
        # Half entered is not wrong: said in a neutral line, nothing in red.
        expect(check.locator(".problems")).to_have_count(0)
        expect(check.locator(".to-enter")).to_have_text("Still to enter: who took 13 cards.")
        expect(page.get_by_role("button", name="Save deal 1")).to_be_disabled()
        page.locator("[data-rest]").get_by_role("button", name="Cara").tap()
        expect(check.locator(".ok")).to_have_text("Adds up: Alice 7, Ben 14, Cara 22.")
        assert [a for a in asked if not a[1].endswith("/live/")] == []
        page.get_by_role("button", name="Save deal 1").tap()
        expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
        game = Deal.objects.get().game_id
        assert [a for a in asked if a[0] == "POST"] == [("POST", f"/games/{game}/deals/")]
    finally:
        request_started.disconnect(note)


def test_a_moon_in_cards_mode_is_three_taps_from_the_game_page(page: Page, live_server):
    sign_up_and_start(page, live_server, "Black Maria, moon to the others", checks=False)
    taps = 0
    choose_mode(page, "Cards")
    taps += 1
    page.locator("[data-rest]").get_by_role("button", name="Cara").tap()
    taps += 1
    expect(page.locator(".moon-note")).to_have_text(
        "☾ Cara shoots the moon: Cara scores 0, Alice and Ben +43 each"
    )
    # The moon is said in the bar beside Save, in sight as it is tapped (it was
    # 1,523 px down the form, with the bar saying only "43 of 43").
    note = page.locator("#entry-check .bar-note")
    expect(note).to_have_text("☾ Cara shoots the moon: Cara scores 0, Alice and Ben +43 each")
    expect(note).to_be_in_viewport()
    check_page(page, "35-cards-moon-by-the-rest")
    page.get_by_role("button", name="Save deal 1").tap()
    taps += 1
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    expect(page.locator(".totals .points")).to_have_text(["43", "43", "0"])
    assert taps <= 3


def test_a_rest_filled_in_is_said_beside_save(page: Page, live_server):
    """The count or score nobody entered, worked out by the phone, is in sight in
    the bar before Save records it."""
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    note = page.locator("#entry-check .bar-note")
    chip(page, "hearts-0", 4).tap()
    chip(page, "hearts-1", 3).tap()
    expect(note).to_have_count(0)  # the cards are still to enter: nothing to save yet
    for card, seat in {"QS": 0, "KS": 1, "AS": 2}.items():
        chip(page, f"taker-{card}", seat).tap()
    expect(note).to_have_text("The rest to Cara: 6 hearts")
    expect(note).to_be_in_viewport()
    chip(page, "hearts-1", 6).tap()  # Cara's share moves with the others'
    expect(note).to_have_text("The rest to Cara: 3 hearts")
    chip(page, "hearts-2", 2).tap()  # Cara's tapped by the person now
    chip(page, "hearts-1", 7).tap()
    expect(page.locator("#entry-check .tally")).to_have_text("43 of 43")
    expect(note).to_have_count(0)  # every count typed: nothing filled in
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("30")
    page.locator("#points-input-2").fill("0")
    expect(note).to_have_text("The rest to Ben: 13")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".totals .points")).to_have_text(["30", "13", "0"])


def test_a_mistyped_number_is_said_in_words_and_cannot_be_saved(page: Page, live_server):
    """The entry leaves the browser's own check (a bubble in the browser's words,
    and every field asked again on each save) to the page's."""
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("17x")
    page.locator("#points-input-1").fill("13")
    page.locator("#points-input-2").fill("13")
    page.locator("#points-input-2").press("Tab")
    expect(page.locator("#entry-said .problems")).to_have_text(
        "Alice's points must be a whole number (not “17x”)"
    )
    expect(page.get_by_role("button", name="Save deal 1")).to_be_disabled()
    assert page.evaluate("document.querySelector('#entry form').noValidate")
    assert Deal.objects.count() == 0


def test_negative_points_go_in_without_a_minus_key(page: Page, live_server):
    sign_up_and_start(page, live_server, "Omnibus", checks=False)
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("10")
    page.get_by_role("button", name="Minus for Alice").tap()
    expect(page.locator("#points-input-0")).to_have_value("-10")
    check_page(page, "36-points-minus")
    page.locator("#points-input-1").fill("30")
    page.locator("#points-input-2").fill("13")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    expect(page.locator(".totals .points")).to_have_text(["-10", "30", "13"])


def test_a_half_entered_deal_and_its_mode_survive_a_reload_until_saved_or_cleared(
    page: Page, live_server
):
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    game_url = page.url
    chip(page, "hearts-0", 4).tap()
    chip(page, "taker-QS", 0).tap()
    page.reload()
    expect(page.locator('input[name="hearts-0"][value="4"]')).to_be_checked()
    expect(page.locator('input[name="taker-QS"][value="0"]')).to_be_checked()
    expect(page.locator("#entry-check .tally")).to_have_text("17 of 43")

    # Points, half typed: the mode comes back with the numbers.
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("17")
    page.locator("#points-input-1").fill("13")
    page.goto(game_url)
    expect(page.locator("#points-input-0")).to_have_value("17")
    expect(page.locator("#points-input-1")).to_have_value("13")
    page.get_by_role("button", name="Clear").tap()
    expect(page.locator("#points-input-0")).to_have_value("")
    page.reload()  # nothing kept: the table's usual mode, blank
    expect(page.get_by_role("link", name="Counts")).to_have_attribute("aria-current", "true")
    expect(page.locator('input[name="hearts-0"]:checked')).to_have_count(0)

    # Saved: the next deal starts blank.
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("17")
    page.locator("#points-input-1").fill("13")
    page.locator("#points-input-2").fill("13")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    page.reload()
    expect(page.locator("#entry-h")).to_have_text("Enter deal 2")
    expect(page.locator("#points-input-0")).to_have_value("")

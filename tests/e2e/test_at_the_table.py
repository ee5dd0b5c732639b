"""A whole evening at the table, on a phone, by taps (SPEC section 6)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import check_page, follow, screenshot
from tests.e2e.helpers import Taps, chip, choose_mode, sign_up_and_start, totals

HEARTS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def test_the_worked_example_by_taps_then_an_edit_and_the_end(
    page: Page, live_server, outside_requests
):
    sign_up_and_start(page, live_server, "Black Maria, moon to the others")
    check_page(page, "05-game-counts")

    # Deal 1 in counts: Alice Q♠ + 4 hearts, Ben K♠ A♠ + 3 hearts, Cara 6 hearts.
    taps = Taps(page)
    taps.tap(chip(page, "hearts-0", 4))
    taps.tap(chip(page, "hearts-1", 3))
    expect(page.locator('input[name="hearts-2"][value="6"]')).to_be_checked()  # the rest
    taps.tap(chip(page, "taker-QS", 0))
    taps.tap(chip(page, "taker-KS", 1))
    taps.tap(chip(page, "taker-AS", 1))
    expect(page.locator(".tally")).to_have_text("43 of 43")
    screenshot(page, "06-counts-ready")
    taps.tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    assert taps.count <= 8, f"a counts deal took {taps.count} taps"
    assert totals(page) == ["17", "20", "6"]

    # Deal 2 in points: Cara shoots the moon.
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("0")
    page.locator("#points-input-1").fill("0")
    page.locator("#points-input-1").press("Tab")
    expect(page.locator("#rest-2")).to_have_text("the rest: 43")
    expect(page.locator(".moon-note")).to_have_text(
        "☾ Cara shoots the moon: Cara scores 0, Alice and Ben +43 each"
    )
    check_page(page, "07-game-points-moon")
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 3 — Cara deals")
    assert totals(page) == ["60", "63", "6"]

    # Deal 3 in cards: Alice Q♠ K♠ + 5 hearts, Ben 2 hearts, Cara A♠ + 6 hearts.
    choose_mode(page, "Cards")
    expect(page.locator("#entry-h")).to_have_text("Enter deal 3")
    takers = {"QS": 0, "KS": 0, "AS": 2}
    takers |= {f"{h}H": 0 for h in HEARTS[:5]}
    takers |= {f"{h}H": 1 for h in HEARTS[5:7]}
    takers |= {f"{h}H": 2 for h in HEARTS[7:]}
    for card, seat in takers.items():
        chip(page, f"taker-{card}", seat).tap()
    expect(page.locator(".tally")).to_have_text("43 of 43")
    check_page(page, "08-game-cards")
    page.get_by_role("button", name="Save deal 3").tap()
    expect(page.locator("#coming-h")).to_contain_text("Deal 4 — Alice deals")
    assert totals(page) == ["88", "65", "19"]
    check_page(page, "09-game-after-three-deals")

    # An invalid deal is refused on the page and nothing is saved.
    choose_mode(page, "Points")
    for seat in range(3):
        page.locator(f"#points-input-{seat}").fill("11")
    page.locator("#points-input-2").press("Tab")
    expect(page.locator(".problems")).to_contain_text("Points add up to 33, the deal total is 43")
    expect(page.get_by_role("button", name="Save deal 4")).to_be_disabled()
    screenshot(page, "10-invalid-deal")
    page.reload()
    expect(page.locator(".history tbody tr")).to_have_count(3)
    # Opened again at the same version: the kept copy, compressed in pieces
    # around this answer's token, read by the browser like any gzip answer.
    again = page.reload()
    assert again.headers.get("content-encoding") == "gzip"
    expect(page.locator(".history tbody tr")).to_have_count(3)
    expect(page.get_by_role("heading", name="Enter deal 4")).to_be_visible()
    # The half-entered deal is still there after the reload, until cleared.
    expect(page.locator("#points-input-0")).to_have_value("11")
    page.get_by_role("button", name="Clear").tap()
    expect(page.locator("#points-input-0")).to_have_value("")

    # Edit deal 1: Alice 13, Ben 17, Cara 13 — every total after it changes.
    follow(page.get_by_role("link", name="Edit deal 1"))
    expect(page.get_by_role("heading", name="Friday club: deal 1")).to_be_visible()
    check_page(page, "11-edit-deal")
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("13")
    page.locator("#points-input-1").fill("17")
    page.locator("#points-input-1").press("Tab")
    expect(page.locator("#rest-2")).to_have_text("the rest: 13")
    page.get_by_role("button", name="Save the change").tap()
    expect(page.locator(".message")).to_contain_text("Deal 1 changed")
    assert totals(page) == ["84", "62", "26"]

    # Play on to the target: Cara shoots again, Alice and Ben pass 100.
    choose_mode(page, "Points")
    page.locator("#points-input-0").fill("0")
    page.locator("#points-input-1").fill("0")
    page.locator("#points-input-1").press("Tab")
    expect(page.locator("#rest-2")).to_have_text("the rest: 43")
    page.get_by_role("button", name="Save deal 4").tap()
    expect(page.locator("#winner-h")).to_have_text("★ Cara wins")
    assert totals(page) == ["26", "105", "127"]  # by place: Cara, Ben, Alice
    expect(page.locator("#entry")).to_have_count(0)
    check_page(page, "12-game-won")

    page.goto(live_server.url + "/")
    check_page(page, "13-home")
    assert outside_requests == []


def test_without_javascript_the_basic_flow_still_works(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 640})
    page = context.new_page()
    sign_up_and_start(page, live_server, "Black Maria", checks=False)
    chip(page, "hearts-0", 4).click()
    chip(page, "hearts-1", 3).click()
    chip(page, "hearts-2", 6).click()
    chip(page, "taker-QS", 0).click()
    chip(page, "taker-KS", 1).click()
    chip(page, "taker-AS", 2).click()
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.locator("#coming-h")).to_contain_text("Deal 2 — Ben deals")
    assert totals(page) == ["17", "13", "13"]
    # A wrong entry comes back with the reason and what was typed.
    chip(page, "hearts-0", 5).click()
    chip(page, "hearts-1", 3).click()
    chip(page, "hearts-2", 6).click()
    page.get_by_role("button", name="Save deal 2").click()
    expect(page.locator(".problems")).to_contain_text("Hearts add up to 14, the pack has 13")
    expect(page.locator('input[name="hearts-0"][value="5"]')).to_be_checked()
    expect(page.locator(".history tbody tr")).to_have_count(1)
    context.close()


def test_every_screen_fits_a_360_px_phone(browser, live_server):
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    sign_up_and_start(page, live_server, "Spot hearts", checks=False)
    game_url = page.url
    expect(page.locator("#entry-h")).to_have_text("Enter deal 1")
    for mode in ("cards", "points"):
        page.get_by_role("link", name=mode.capitalize()).tap()
        expect(page.locator('.modes a[aria-current="true"]')).to_have_text(mode.capitalize())
        check_page(page, f"20-360px-spot-{mode}")
    page.locator("#points-input-0").fill("30")
    page.locator("#points-input-1").fill("16")
    page.locator("#points-input-1").press("Tab")
    expect(page.locator("#rest-2")).to_have_text("the rest: 100")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".history tbody tr")).to_have_count(1)
    check_page(page, "21-360px-game")
    follow(page.get_by_role("link", name="Edit deal 1"))
    check_page(page, "22-360px-edit")
    follow(page.get_by_role("link", name="Delete deal 1…"))
    check_page(page, "23-360px-delete")
    page.goto(game_url + "changes/")
    check_page(page, "24-360px-changes")
    page.goto(game_url)
    follow(page.get_by_role("link", name="Friday club").last)
    check_page(page, "25-360px-table")
    follow(page.get_by_role("link", name="Settings"))
    follow(page.get_by_role("link", name="Adapt Spot hearts"))
    check_page(page, "26-360px-ruleset")
    page.go_back()
    page.get_by_role("button", name="Make an invite link").tap()
    expect(page.locator(".message")).to_contain_text("A new invite link is ready")
    expect(page.get_by_label(re.compile("Invite link"))).to_have_value(re.compile("/invites/"))
    check_page(page, "27-360px-settings")
    page.goto(live_server.url + "/")
    check_page(page, "28-360px-home")
    page.get_by_role("button", name="Sign out ann").tap()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    check_page(page, "29-360px-sign-in")
    context.close()

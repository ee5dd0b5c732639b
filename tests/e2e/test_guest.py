"""From the first page to the first saved deal with no account; the scores kept."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import check_page, sign_in
from tests.e2e.helpers import Taps, chip, first_dealer


def test_first_page_to_first_deal_as_a_guest_then_the_scores_kept(
    page: Page, browser: Browser, live_server
):
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(live_server.url + "/")
    check_page(page, "00-first-page")
    taps = Taps(page)
    taps.tap(page.get_by_role("button", name="Start a game"))
    # One screen: who plays and the rules (it was New table, then New game).
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    check_page(page, "00-first-game")
    page.fill("#id_new_players", "Alice, Ben, Cara")  # typing three names
    dealer = first_dealer(page, "Alice")
    expect(dealer).to_be_visible()
    taps.tap(dealer)
    expect(dealer.locator("input")).to_be_checked()
    taps.tap(page.get_by_role("button", name="Start the game"))
    expect(page.locator("#coming-h")).to_contain_text("Deal 1")
    expect(page.get_by_text("a table called Our table: rename it there")).to_be_visible()
    for seat, count in enumerate((4, 3)):
        taps.tap(chip(page, f"hearts-{seat}", count))
    for card, seat in {"QS": 0, "KS": 1, "AS": 2}.items():
        taps.tap(chip(page, f"taker-{card}", seat))
    taps.tap(page.get_by_role("button", name="Save deal 1"))
    expect(page.locator(".history tbody tr")).to_have_count(1)
    assert taps.count == 9  # the issue allows 15

    # Every page offers to keep the scores; kept, they are there on another phone.
    taps.tap(page.get_by_role("link", name="Keep these scores"))
    check_page(page, "00-keep-these-scores")
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name="Keep my scores").tap()
    expect(page.get_by_role("heading", name="Your tables")).to_be_visible()
    expect(page.get_by_role("link", name="Keep these scores")).to_have_count(0)
    page.get_by_role("button", name="Sign out").tap()  # an ordinary account now: it may
    other = browser.new_context(viewport={"width": 360, "height": 640})
    second = other.new_page()
    sign_in(second, live_server)
    expect(second.get_by_role("link", name="Our table", exact=True)).to_be_visible()
    expect(second.get_by_role("link", name="Our table Alice 17 · Ben 13")).to_be_visible()
    other.close()

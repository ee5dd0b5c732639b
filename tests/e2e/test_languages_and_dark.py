"""The main screens in Norwegian and in dark mode: screenshots, axe and layout."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import check_page
from tests.e2e.helpers import chip, first_dealer, phone


def first_evening(page: Page, live_server, prefix: str) -> None:
    """Sign up, a table, a game and a deal, by ids and roles (any language)."""
    page.goto(live_server.url + "/accounts/signup/")
    check_page(page, f"{prefix}-01-sign-up")
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/tables/new/")
    check_page(page, f"{prefix}-02-new-table")
    page.fill("#id_name", "Fredagsklubben")
    page.fill("#id_players", "Åse\nBjørn\nCecilie")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/tables/*/")
    check_page(page, f"{prefix}-03-table")
    page.locator('a[href$="/games/new/"]').first.click()
    first_dealer(page, "Åse").tap()
    check_page(page, f"{prefix}-04-new-game")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/games/*/")
    check_page(page, f"{prefix}-05-game")
    chip(page, "hearts-0", 4).tap()
    chip(page, "hearts-1", 3).tap()
    expect(page.locator('input[name="hearts-2"][value="6"]')).to_be_checked()
    chip(page, "taker-QS", 0).tap()
    chip(page, "taker-KS", 1).tap()
    check_page(page, f"{prefix}-06-entry-half-done")
    chip(page, "taker-AS", 2).tap()
    page.locator(".save").tap()
    expect(page.locator(".history tbody tr")).to_have_count(1)
    expect(page.locator(".totals .points")).to_have_text(["17", "13", "13"])
    check_page(page, f"{prefix}-07-after-a-deal")


def test_the_main_screens_in_norwegian(browser: Browser, live_server):
    page = phone(browser, locale="nb-NO")
    first_evening(page, live_server, "50-nb")
    expect(page.locator("html")).to_have_attribute("lang", "nb")
    expect(page.locator("#coming-h")).to_have_text(
        "Giv 2 — Bjørn gir, Cecilie spiller ut"  # seats as typed
    )
    expect(page.locator("#entry-h")).to_have_text("Før inn giv 2")
    expect(page.locator(".taker legend .card").first).to_have_text("D♠")
    page.goto(page.url.split("/games/")[0] + "/me/stats/")
    check_page(page, "50-nb-08-statistics")

    # The switch on the page: English, remembered for the account.
    page.select_option("#language-choice", "en-gb")
    page.get_by_role("button", name="Endre").click()
    expect(page.locator("html")).to_have_attribute("lang", "en-gb")
    expect(page.get_by_role("heading", name="Your statistics")).to_be_visible()
    page.context.close()


def test_the_main_screens_in_dark_mode(browser: Browser, live_server):
    page = phone(browser, color_scheme="dark")
    first_evening(page, live_server, "60-dark")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert background == "rgb(18, 24, 20)", background
    assert ink == "rgb(240, 237, 230)", ink
    page.goto(page.url.split("/games/")[0] + "/me/stats/")
    check_page(page, "60-dark-08-statistics")
    page.context.close()


def test_dark_mode_in_norwegian_offline_marker(browser: Browser, live_server):
    page = phone(browser, color_scheme="dark", locale="nb-NO")
    first_evening(page, live_server, "70-dark-nb")
    page.evaluate("async () => await navigator.serviceWorker.ready")
    page.context.set_offline(True)
    expect(page.locator("#offline-note")).to_contain_text("Frakoblet — sist oppdatert")
    chip(page, "hearts-0", 13).tap()
    chip(page, "hearts-1", 0).tap()
    expect(page.locator('input[name="hearts-2"][value="0"]')).to_be_checked()
    chip(page, "taker-QS", 0).tap()
    chip(page, "taker-KS", 0).tap()
    chip(page, "taker-AS", 1).tap()
    page.locator(".save").tap()
    expect(page.locator("#waiting-list > li")).to_contain_text("Giv 2 — venter på å bli sendt")
    check_page(page, "70-dark-nb-09-offline-waiting")
    page.context.set_offline(False)
    expect(page.locator("#waiting")).to_be_hidden(timeout=10_000)
    page.context.close()


def test_a_first_game_in_norwegian_and_dark_from_the_first_page(browser: Browser, live_server):
    """Start a game asks who plays and the rules on one screen, in the phone's language."""
    page = phone(browser, color_scheme="dark", locale="nb-NO")
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Start et spill").tap()
    expect(page.get_by_role("heading", name="Nytt spill")).to_be_visible()
    check_page(page, "75-dark-nb-first-game")
    page.fill("#id_new_players", "Åse, Bjørn, Cecilie")
    dealer = first_dealer(page, "Åse")
    expect(dealer).to_be_visible()
    dealer.tap()
    expect(dealer.locator("input")).to_be_checked()
    page.locator("main button[type=submit]").tap()
    expect(page.locator("#coming-h")).to_have_text("Giv 1 — Åse gir, Bjørn spiller ut")
    expect(page.get_by_role("heading", name="Bordet vårt")).to_be_visible()
    expect(page.get_by_role("link", name="Gi bordet nytt navn")).to_be_visible()
    check_page(page, "75-dark-nb-first-game-started")
    page.context.close()
